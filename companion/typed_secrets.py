"""Text the agent typed into a secret field (a password, a card number, a one-time code, a PIN): never
written to disk in clear.

The value is chosen by an LLM call (from the task's own words) before it is typed, so the call's recording,
and the task text in every prompt and message before it, already hold it when the typing reveals it is a
secret. remember() therefore masks it both in what is written from then on and in what was written already:
every open recorder rewrites its file with the value replaced by MASK.

    typed_secrets.remember(text)        # bridge/session.py, when text goes into a secret field
    line = typed_secrets.mask(line)     # a recorder, before every write
"""

from __future__ import annotations

import json
import logging
import os
import threading
import weakref
from pathlib import Path
from typing import Callable, Protocol

from companion import paths

log = logging.getLogger(__name__)

MASK = "[secret]"
MIN_LEN = 3  # shorter text is no secret worth shredding every number in a recording for

_lock = threading.Lock()
_known: set[str] = set()
_writers: "weakref.WeakSet[SecretAwareWriter]" = weakref.WeakSet()


class SecretAwareWriter(Protocol):
    def mask_existing(self) -> None:
        """Rewrite what was written so far through mask()."""


def _forms(secret: str) -> list[str]:
    """The secret as it appears in plain text and inside JSON strings (escaped once or twice)."""
    once = json.dumps(secret)[1:-1]
    ascii_once = json.dumps(secret, ensure_ascii=True)[1:-1]
    twice = json.dumps(once)[1:-1]
    return sorted({secret, once, ascii_once, twice}, key=len, reverse=True)


def remember(text: str) -> None:
    """`text` went into a secret field: mask it from now on and in every open recording."""
    if len(text) < MIN_LEN:
        return
    with _lock:
        if text in _known:
            return
        _known.add(text)
        writers = list(_writers)
    for writer in writers:
        try:
            writer.mask_existing()
        except OSError:
            log.exception("could not mask a typed secret in %r", writer)


def mask(text: str) -> str:
    """`text` with every remembered secret replaced by MASK."""
    with _lock:
        known = sorted(_known, key=len, reverse=True)
    for secret in known:
        if secret in text or json.dumps(secret)[1:-1] in text:
            for form in _forms(secret):
                text = text.replace(form, MASK)
    return text


def register(writer: SecretAwareWriter) -> None:
    """A recorder that wants mask_existing() called when a new secret is remembered."""
    with _lock:
        _writers.add(writer)


def forget_all() -> None:
    """Tests: start from no known secrets."""
    with _lock:
        _known.clear()


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
