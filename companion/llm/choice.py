"""The LLM choice made in the extension's options page: which specs it may choose, and keeping it in llm.toml.

    settings = choosable("openai:http://10.0.0.5:8000/v1#qwen")   # LLMSettings, or LLMConfigError saying why
    save_spec(settings.spec)                                       # <config dir>/llm.toml: spec = "...", 0600

The page chooses among the backends a person runs a model with: embedded[:model], the presets (ollama,
llamacpp, vllm, lmstudio) [#model] and openai:URL[#model]. gguf:PATH, replay:FILE and lexical stay command-line
choices: a page that could name a file would have the companion load or read it.

save_spec rewrites only the top-level `spec` line: the other keys (timeouts, context size, threads) and the
comments of a hand-written llm.toml stay as they were. A file that is not valid TOML is never overwritten.
"""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path
from urllib.parse import urlsplit

from companion.llm.config import LLMConfigError, LLMSettings, config_file, parse_spec
from companion.paths import write_private_text

# A top-level `spec = ...` assignment (bare or quoted key), before any [table] header.
_SPEC_LINE = re.compile(r"""^\s*(spec|"spec"|'spec')\s*=""")
_TABLE = re.compile(r"^\s*\[")


def choosable(spec: str) -> LLMSettings:
    """`spec` parsed, if the options page may choose it; LLMConfigError with the reason otherwise."""
    settings = parse_spec(spec)
    if settings.kind == "embedded" and settings.gguf_path:
        raise LLMConfigError("gguf:PATH is chosen on the command line (--llm or llm.toml), not in the extension")
    if settings.kind not in ("embedded", "server"):
        raise LLMConfigError(f"{settings.kind} backends are chosen on the command line (--llm or llm.toml), not in the extension")
    if settings.kind == "server":
        _check_url(settings.base_url)
    return settings


def _check_url(url: str) -> None:
    """parse_spec takes any string after http(s)://; the page must name a host (and a port that is a number)."""
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018  (raises ValueError for a port that is not a number or out of range)
    except ValueError as exc:
        raise LLMConfigError(f"not a usable server URL {url!r}: {exc}") from exc
    if not parts.hostname:
        raise LLMConfigError(f"not a usable server URL {url!r}: it names no host (e.g. http://127.0.0.1:8080/v1)")
    if any(c.isspace() for c in url):
        raise LLMConfigError(f"not a usable server URL {url!r}: it contains spaces")


def saved_spec() -> str:
    """The spec llm.toml holds ("" when none; LLMConfigError for a file that is not TOML)."""
    values = _read(config_file())
    spec = values.get("spec", "")
    return spec if isinstance(spec, str) else ""


def _read(path: Path) -> dict:
    if not path.exists():
        return {}
    try:
        return tomllib.loads(path.read_text())
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise LLMConfigError(f"{path} is not valid TOML, so it is left as it is: {exc}") from exc


def save_spec(spec: str) -> Path:
    """Write `spec = "<spec>"` into llm.toml (0600), keeping every other line. Returns the file."""
    path = config_file()
    before = _read(path)  # raises for a damaged file: it is the user's, and is not overwritten
    lines = path.read_text().splitlines() if path.exists() else []
    header = next((i for i, line in enumerate(lines) if _TABLE.match(line)), len(lines))
    top = [line for line in lines[:header] if not _SPEC_LINE.match(line)]
    # A JSON string is a valid TOML basic string (json.dumps never writes the one escape TOML lacks, "\/").
    text = "\n".join([f"spec = {json.dumps(spec)}", *top, *lines[header:]]) + "\n"
    after = tomllib.loads(text)
    if after.get("spec") != spec or {k: v for k, v in after.items() if k != "spec"} != {k: v for k, v in before.items() if k != "spec"}:
        # A multi-line value or some other shape the line rewrite does not understand: change nothing.
        raise LLMConfigError(f"{path}: could not rewrite its spec line safely; edit it by hand")
    write_private_text(path, text)
    return path


__all__ = ["choosable", "save_spec", "saved_spec"]
