"""What one incoming message may cost the companion, checked before the costly parse.

The extension is trusted, the pages it reads are not: a page of 330k elements once made a 52 MB snapshot
that took the companion from 78 MB to 1.6 GB, and a 100k-deep JSON message crashed the connection. So:
  - a text message over MAX_MESSAGE_CHARS is refused unread (the websocket layer refuses frames over
    WS_MAX_SIZE before they are even buffered whole: that closes the connection with 1009);
  - a message holding more than MAX_SNAPSHOT_ELEMENTS snapshot elements, or more than MAX_MESSAGE_OBJECTS
    JSON objects, is refused before validation. Both are counted by the standard library's C JSON scanner
    (count_elements): every object is handed to a hook that counts it, adds the length of any list under an
    "elements" key, and returns nothing, so nothing is built and the scan stops at the object limit. The
    keys are compared as the parser decodes them, so no spelling (spaces, escapes, key order, a message
    type spelled with escapes) hides an element, which a count of the literal text `"tag":` did not;
  - nesting deeper than JSON_DEPTH_LIMIT is refused by the parser itself (pydantic-core's), which never
    recurses further, on the validation path and on the diagnosis path alike.
Before pairing, frames over PAIRING_MAX_SIZE close the connection and at most MAX_UNPAIRED_CONNECTIONS
connections may be pairing at once (server.py, wsprotocol.py).
A refused message gets an ErrorMessage with code "too_large" and the request waiting for it fails at once
(server.py, session.fail_waiting), instead of at its timeout.
"""

from __future__ import annotations

import json
import re

from companion.protocol import ErrorMessage

MAX_MESSAGE_CHARS = 32 * 1024 * 1024  # a 100k-element snapshot is about 13 MB
WS_MAX_SIZE = 64 * 1024 * 1024  # frames over this never reach the application
# Before pairing a peer is a stranger, and its messages (auth_challenge, auth_proof) are a few hundred bytes:
# a bigger frame closes the connection (1009) before it is buffered (wsprotocol.py), and only a few
# connections may be pairing at once (more are refused at the handshake), so strangers cost kilobytes.
PAIRING_MAX_SIZE = 16 * 1024
MAX_UNPAIRED_CONNECTIONS = 8
MAX_SNAPSHOT_ELEMENTS = 100_000  # bench memory: a 100k-element page peaks under 500 MB of companion RSS
# A snapshot element is at most three objects (itself, its attrs, its box): no valid message comes near this.
MAX_MESSAGE_OBJECTS = 4 * MAX_SNAPSHOT_ELEMENTS
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
    if len(raw) <= 2 * MAX_SNAPSHOT_ELEMENTS:  # every element or object takes two characters at least
        return None
    elements = count_elements(raw)
    if elements is None:
        return ErrorMessage(id=prefix_id(raw), code="too_large",
                            message=f"{_type_of(raw)} of more than {MAX_MESSAGE_OBJECTS:,} JSON objects is over "
                                    "the limit; the page is too large to read")
    if elements > MAX_SNAPSHOT_ELEMENTS:
        return ErrorMessage(id=prefix_id(raw), code="too_large",
                            message=f"snapshot of {elements:,} elements is over the limit of "
                                    f"{MAX_SNAPSHOT_ELEMENTS:,}; the page is too large to read")
    return None


class _TooManyObjects(Exception):
    pass


def count_elements(raw: str) -> int | None:
    """How many snapshot elements `raw` holds (items of lists under an "elements" key, wherever they are);
    None when it holds more than MAX_MESSAGE_OBJECTS objects. For text that is not JSON, the objects read
    before the error: the diagnosing parser would build them all before saying what is wrong."""
    objects = elements = 0

    def count(pairs: list[tuple[str, object]]) -> None:
        nonlocal objects, elements
        objects += 1
        if objects > MAX_MESSAGE_OBJECTS:
            raise _TooManyObjects
        for key, value in pairs:
            if key == "elements" and isinstance(value, list):
                elements += len(value)
        return None  # the object is not kept: the scan builds nothing but the lists around it

    try:
        json.loads(raw, object_pairs_hook=count)
    except _TooManyObjects:
        return None
    except (ValueError, RecursionError):  # not JSON, or nested too deep: classify() says which
        return max(elements, objects)
    return elements


def too_deep(raw: str, parser_error: str) -> ErrorMessage:
    return ErrorMessage(id=prefix_id(raw), code="too_large",
                        message=f"{_type_of(raw)} nests deeper than {JSON_DEPTH_LIMIT} levels ({parser_error})")


def is_depth_error(parser_error: str) -> bool:
    return "recursion limit" in parser_error
