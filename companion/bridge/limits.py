"""What one incoming message may cost the companion, checked before the costly parse.

The extension is trusted, the pages it reads are not: a page of 330k elements once made a 52 MB snapshot
that took the companion from 78 MB to 1.6 GB, and a 100k-deep JSON message crashed the connection. So:
  - a text message over MAX_MESSAGE_CHARS is refused unread (the websocket layer refuses frames over
    WS_MAX_SIZE before they are even buffered whole: that closes the connection with 1009);
  - a snapshot of more than MAX_SNAPSHOT_ELEMENTS elements is refused before validation: its element
    count comes from counting its "tag" keys, a C-speed scan (a JSON string cannot hold an unescaped quote,
    so `"tag":` inside page text is always written `\\"tag\\":` and never counted);
  - nesting deeper than JSON_DEPTH_LIMIT is refused by the parser itself (pydantic-core's), which never
    recurses further, on the validation path and on the diagnosis path alike.
A refused message gets an ErrorMessage with code "too_large" and the request waiting for it fails at once
(server.py, session.fail_waiting), instead of at its timeout.
"""

from __future__ import annotations

import re

from companion.protocol import ErrorMessage

MAX_MESSAGE_CHARS = 32 * 1024 * 1024  # a 100k-element snapshot is about 13 MB
WS_MAX_SIZE = 64 * 1024 * 1024  # frames over this never reach the application
MAX_SNAPSHOT_ELEMENTS = 100_000  # bench memory: a 100k-element page peaks under 500 MB of companion RSS
JSON_DEPTH_LIMIT = 200  # pydantic-core's parser (jiter) stops there; a valid message nests under 10 levels
_PREFIX_CHARS = 4096
# The message's own id: the extension writes "type" and "id" first (bg/dispatch.js).
_ID_RE = re.compile(r'"id"\s*:\s*"((?:[^"\\]|\\.){1,200})"')


def prefix_id(raw: str) -> str:
    """The id of a message too large or too deep to parse, read from its first few KB ("" if none)."""
    match = _ID_RE.search(raw, 0, _PREFIX_CHARS)
    return match.group(1) if match else ""


def _type_of(raw: str) -> str:
    match = re.search(r'"type"\s*:\s*"([a-z_]{1,40})"', raw[:_PREFIX_CHARS])
    return match.group(1) if match else "message"


def too_costly(raw: str) -> ErrorMessage | None:
    """The ErrorMessage refusing `raw` unparsed, or None when it may be parsed."""
    if len(raw) > MAX_MESSAGE_CHARS:
        return ErrorMessage(id=prefix_id(raw), code="too_large",
                            message=f"{_type_of(raw)} of {len(raw):,} characters is over the limit of "
                                    f"{MAX_MESSAGE_CHARS:,}; the page is too large to read")
    if len(raw) > MAX_SNAPSHOT_ELEMENTS * 20:  # no message this short can hold that many elements
        kind = _type_of(raw)
        if kind == "snapshot_result":
            elements = raw.count('"tag":')
            if elements > MAX_SNAPSHOT_ELEMENTS:
                return ErrorMessage(id=prefix_id(raw), code="too_large",
                                    message=f"snapshot of {elements:,} elements is over the limit of "
                                            f"{MAX_SNAPSHOT_ELEMENTS:,}; the page is too large to read")
    return None


def too_deep(raw: str, parser_error: str) -> ErrorMessage:
    return ErrorMessage(id=prefix_id(raw), code="too_large",
                        message=f"{_type_of(raw)} nests deeper than {JSON_DEPTH_LIMIT} levels ({parser_error})")


def is_depth_error(parser_error: str) -> bool:
    return "recursion limit" in parser_error
