"""Errors raised by the bridge's Python API. All derive from BridgeError so callers can catch one type."""

from __future__ import annotations


class BridgeError(RuntimeError):
    """Something went wrong between the companion and the browser."""


class BridgeTimeout(BridgeError, TimeoutError):
    """No reply arrived in time. The message names the request, so a log line says what hung."""


class BridgeDisconnected(BridgeError):
    """The browser's connection closed while a request was waiting (or before it was sent)."""


class MessageRejected(BridgeError):
    """The reply to a request was refused unread or unparsed (too large, too deep, malformed): the request
    failed at once. Not a BridgeDisconnected, so it is never sent again: the same page would give the same reply."""


class RemoteError(BridgeError):
    """The extension answered with an ErrorMessage (for example no tab, or a malformed command)."""

    def __init__(self, code: str, message: str, request_id: str = ""):
        super().__init__(f"{code}: {message}" + (f" (request {request_id})" if request_id else ""))
        self.code = code
        self.remote_message = message
        self.request_id = request_id


class BridgeActionInterrupted(BridgeError):
    """The connection dropped while a command with side effects (click, type, navigate...) was in flight.

    Deliberately not a BridgeDisconnected: the browser is back (or may come back), only this one action's
    outcome is unknown, so callers treat it as a failed attempt and look at the page again. Such commands
    are never replayed: a second click could submit a form twice."""
