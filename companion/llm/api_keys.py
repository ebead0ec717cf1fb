"""API keys for hosted OpenAI-compatible servers, given on the options page: one per server URL, kept apart from
llm.toml in <config dir>/llm-keys.json (0600), so a key is sent only to the server it was given for.

    save_key("https://api.example.com/v1", "sk-...")   # "" removes it
    key_for("https://api.example.com/v1")               # "sk-..." ("" when none)
    hint("sk-abcd1234")                                  # "1234": all the options page is ever told

A key read or saved here is also registered with typed_secrets, so recordings (serve --record) and anything
else written through typed_secrets.redact mask it in every spelling.
"""

from __future__ import annotations

import json
from pathlib import Path

from companion import typed_secrets
from companion.paths import config_dir, write_private_text

KEYS_FILE_NAME = "llm-keys.json"
MAX_KEY_LENGTH = 500
HINT_MIN_LENGTH = 12  # a shorter key would be given away too much by its last 4 characters


class APIKeyError(ValueError):
    """A key that cannot be kept (the file is damaged, the key is not one line of text)."""


def keys_file() -> Path:
    return config_dir() / KEYS_FILE_NAME


def _server(base_url: str) -> str:
    return base_url.strip().rstrip("/")


def _read() -> dict[str, str]:
    path = keys_file()
    if not path.exists():
        return {}
    try:
        keys = json.loads(path.read_text())
    except (ValueError, UnicodeDecodeError) as exc:
        raise APIKeyError(f"{path} is damaged ({exc.__class__.__name__}), so it is left as it is: remove it and "
                          "enter the API key again") from None
    if not isinstance(keys, dict) or not all(isinstance(v, str) for v in keys.values()):
        raise APIKeyError(f"{path} is not a map of server URLs to keys, so it is left as it is")
    return keys


def key_for(base_url: str) -> str:
    key = _read().get(_server(base_url), "")
    if key:
        typed_secrets.remember(key)
    return key


def save_key(base_url: str, key: str) -> Path:
    """Keep `key` for the server at `base_url` ("" removes its key). The error never repeats the key."""
    key = key.strip()
    if len(key) > MAX_KEY_LENGTH or any(c.isspace() or not c.isprintable() for c in key):
        raise APIKeyError(f"not an API key: it must be one word of at most {MAX_KEY_LENGTH} printable characters")
    keys = _read()
    if key:
        typed_secrets.remember(key)
        keys[_server(base_url)] = key
    else:
        keys.pop(_server(base_url), None)
    write_private_text(keys_file(), json.dumps(keys, indent=1) + "\n")
    return keys_file()


def hint(key: str) -> str:
    """The last 4 characters of a key long enough to spare them ("" otherwise)."""
    return key[-4:] if len(key) >= HINT_MIN_LENGTH else ""


__all__ = ["APIKeyError", "hint", "key_for", "keys_file", "save_key"]
