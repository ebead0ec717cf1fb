"""The registry of connected browsers: who is connected, who was refused, and waiting for a session.

Callers that need a browser `await hub.wait_for_session(timeout)`. The hub also remembers the
last boot id it saw, so a reconnect can be told apart: same boot id = the socket dropped (for
example the companion restarted); new boot id = the extension's service worker restarted,
and any state the worker held in memory is gone.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import deque
from dataclasses import dataclass

from companion.bridge.errors import BridgeTimeout
from companion.bridge.notify import ChangeNotifier
from companion.bridge.recorder import Recorder
from companion.bridge.session import BrowserSession

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class RefusedHandshake:
    at: float  # time.monotonic()
    origin: str | None
    reason: str


class BridgeHub:
    """Also holds the Recorder (None: not recording): connections look it up per message, so recording
    can be switched on and off while browsers stay connected."""

    def __init__(self, recorder: Recorder | None = None) -> None:
        self.recorder = recorder
        self._lock = threading.Lock()
        self._sessions: list[BrowserSession] = []  # open sessions, oldest first
        self._all: list[BrowserSession] = []  # every session ever registered, oldest first
        self._last_boot_id: str | None = None
        self.refused: deque[RefusedHandshake] = deque(maxlen=200)
        self._changed = ChangeNotifier()
        # Handlers of unsolicited application messages, shared with every session (see BrowserSession.deliver).
        self.message_handlers: dict = {}

    # ------------------------------------------------------------------ server side

    def add(self, session: BrowserSession) -> None:
        session.message_handlers = self.message_handlers
        with self._lock:
            if self._last_boot_id is not None:
                session.worker_restarted = session.boot_id != self._last_boot_id
            self._last_boot_id = session.boot_id
            self._sessions.append(session)
            self._all.append(session)
        log.info("browser connected: session %s, extension %s, boot %s%s", session.session_id[:8],
                 session.hello.extension_version, session.boot_id[:8],
                 " (service worker restarted)" if session.worker_restarted else "")
        self._changed.notify()

    def remove(self, session: BrowserSession) -> None:
        with self._lock:
            if session in self._sessions:
                self._sessions.remove(session)
        log.info("browser disconnected: session %s (%s)", session.session_id[:8], session.close_reason or "closed")
        self._changed.notify()

    def note_refusal(self, origin: str | None, reason: str) -> None:
        self.refused.append(RefusedHandshake(time.monotonic(), origin, reason))
        self._changed.notify()

    # ------------------------------------------------------------------ caller side

    @property
    def sessions(self) -> list[BrowserSession]:
        with self._lock:
            return list(self._sessions)

    @property
    def history(self) -> list[BrowserSession]:
        """Every session registered since start, open or closed, oldest first."""
        with self._lock:
            return list(self._all)

    @property
    def latest(self) -> BrowserSession | None:
        """The most recently connected open session."""
        with self._lock:
            open_sessions = [s for s in self._sessions if not s.closed]
        return open_sessions[-1] if open_sessions else None

    async def wait_for_session(self, timeout: float = 30.0, *, newer_than: BrowserSession | None = None) -> BrowserSession:
        """The latest open session; with `newer_than`, one registered after that session."""

        def ready() -> BrowserSession | None:
            with self._lock:
                candidates = [s for s in self._sessions if not s.closed]
                if newer_than is not None:
                    later = self._all[self._all.index(newer_than) + 1:] if newer_than in self._all else self._all
                    candidates = [s for s in candidates if s in later]
                return candidates[-1] if candidates else None

        try:
            return await self._changed.wait_for(ready, timeout, "a browser to connect" + (" again" if newer_than else ""))
        except TimeoutError as exc:
            raise BridgeTimeout(f"{exc}; is the extension installed, paired (port and token in its options page) and enabled?") from None
