"""Text the agent typed into a secret field (a password, a card number, a one-time code, a PIN): never
written to disk in clear.

The value is chosen by an LLM call (from the task's own words) before it is typed, so the call's recording,
and the task text in every prompt and message before it, already hold it when the typing reveals it is a
secret. remember() therefore masks it both in what is written from then on and in what was written already:
every open recorder rewrites its file with the value replaced by MASK.

A typed secret comes back in other spellings: a GET form puts it in the next URL percent-encoded (`p%40ss+w0rd`),
a recording holds that URL inside a JSON message inside a JSON line, a page may echo it HTML-escaped. mask()
matches every spelling of each character (a regular expression per secret), so mixed forms are caught too.

redact() / redact_url() are the one way text leaves the running task (session and LLM recordings, the memory
file, the checkpoint, task events): typed secrets masked, then secret-looking URL values removed (urls.py).
Page text in prompts is masked (llm/prompts.py untrusted); the running task keeps the real URL to navigate.

    typed_secrets.remember(text)        # bridge/session.py, when text goes into a secret field
    line = typed_secrets.redact(line)   # a recorder, before every write
"""

from __future__ import annotations

import html.entities
import json
import logging
import os
import re
import threading
import weakref
from pathlib import Path
from typing import Callable, Protocol

from companion import paths
from companion.urls import scrub_text, scrub_url

log = logging.getLogger(__name__)

MASK = "[secret]"
MIN_LEN = 3  # shorter text is no secret worth shredding every number in a recording for

_lock = threading.Lock()
_known: set[str] = set()
_known_pattern: re.Pattern[str] | None = None
_writers: "weakref.WeakSet[SecretAwareWriter]" = weakref.WeakSet()


class SecretAwareWriter(Protocol):
    def mask_existing(self) -> None:
        """Rewrite what was written so far through mask()."""


def _hex(n: int, width: int) -> str:
    """`n` in hex as a pattern that matches either case ("%c3" and "%C3" are the same byte)."""
    return "".join(f"[{d.lower()}{d.upper()}]" if d.isalpha() else d for d in f"{n:0{width}x}")


def _json_escapes(char: str) -> list[str]:
    r"""How one character can appear inside a JSON string: as itself, escaped (\" \n \/), as \uXXXX in either hex
    case (a surrogate pair beyond the BMP), and each of these escaped once more (a JSON message inside a JSON
    line, as the session recording keeps them)."""
    units = char.encode("utf-16-be")
    code = "".join(r"\\u" + _hex(int.from_bytes(units[i:i + 2], "big"), 4) for i in range(0, len(units), 2))
    once = {char, json.dumps(char)[1:-1], json.dumps(char, ensure_ascii=False)[1:-1]} | ({"\\/"} if char == "/" else set())
    patterns = {code, code.replace(r"\\u", r"\\\\u")}
    for form in once:
        patterns |= {re.escape(form), re.escape(json.dumps(form)[1:-1])}
    return sorted(patterns, key=len, reverse=True)


def _char_pattern(char: str) -> str:
    """Every spelling of one character of a secret: JSON escaping (once or twice), URL percent-encoding of its
    UTF-8 bytes in either hex case (and that percent sign encoded again: %2540), "+" for a space (form
    encoding), and HTML character references (decimal, hex, named)."""
    forms = _json_escapes(char)
    percent = "(?:%|%25)"
    forms.append("".join(percent + _hex(b, 2) for b in char.encode("utf-8")))
    if char == " ":
        forms.append(percent + "2[bB]|" + r"\+")  # a form-encoded space, also encoded once more
    forms.append(rf"&#0*{ord(char)};|&#[xX]0*{_hex(ord(char), 1)};")
    named = html.entities.codepoint2name.get(ord(char))
    if named:
        forms.append(f"&{named};")
    if char == "'":
        forms.append("&apos;")
    return "(?:" + "|".join(forms) + ")"


def _pattern(secrets: list[str]) -> re.Pattern[str] | None:
    """One pattern for every spelling of every known secret, longest secret first."""
    if not secrets:
        return None
    spelled = ("".join(_char_pattern(c) for c in secret) for secret in sorted(secrets, key=len, reverse=True))
    return re.compile("|".join(spelled))


def _compiled() -> re.Pattern[str] | None:
    global _known_pattern
    with _lock:
        if _known_pattern is None and _known:
            _known_pattern = _pattern(sorted(_known))
        return _known_pattern


def remember(text: str) -> None:
    """`text` went into a secret field: mask it from now on and in every open recording."""
    if len(text) < MIN_LEN:
        return
    with _lock:
        if text in _known:
            return
        _known.add(text)
        global _known_pattern
        _known_pattern = None
        writers = list(_writers)
    for writer in writers:
        try:
            writer.mask_existing()
        except OSError:
            log.exception("could not mask a typed secret in %r", writer)


def mask(text: str) -> str:
    """`text` with every remembered secret replaced by MASK."""
    pattern = _compiled()
    return pattern.sub(MASK, text) if pattern is not None else text


def redact(text: str) -> str:
    """What may be written or shown outside the running task: typed secrets masked in any spelling, and
    secret-looking values of the URLs in `text` removed."""
    return scrub_text(mask(text))


def redact_url(url: str) -> str:
    """redact() for a field that holds one URL (also a relative one: its random-looking values go too)."""
    return scrub_url(mask(url))


def map_strings(value, clean: Callable[[str], str] = redact):
    """Every string in a JSON-like value (dict keys included) through `clean`; a new value, the old is left as is."""
    if isinstance(value, str):
        return clean(value)
    if isinstance(value, dict):
        return {map_strings(k, clean): map_strings(v, clean) for k, v in value.items()}
    if isinstance(value, list):
        return [map_strings(v, clean) for v in value]
    return value


def known() -> bool:
    """Whether any secret was typed (nothing to mask otherwise)."""
    with _lock:
        return bool(_known)


def register(writer: SecretAwareWriter) -> None:
    """A recorder that wants mask_existing() called when a new secret is remembered."""
    with _lock:
        _writers.add(writer)


def forget_all() -> None:
    """Tests: start from no known secrets."""
    global _known_pattern
    with _lock:
        _known.clear()
        _known_pattern = None


def rewrite_lines(path: Path, transform: Callable[[str], str]) -> None:
    """Rewrite a line file through `transform`, atomically (a reader sees the old file or the new one) and
    privately (0600)."""
    if not path.exists():
        return
    tmp = path.with_name(f".{path.name}.masking")
    with open(path, encoding="utf-8") as src, paths.private_file(tmp, "w") as dst:
        for line in src:
            dst.write(transform(line.rstrip("\n")) + "\n")
    os.replace(tmp, path)
