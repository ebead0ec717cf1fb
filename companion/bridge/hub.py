"""The registry of connected browsers: who is connected, who was refused, and waiting for a session.

Callers that need a browser `await hub.wait_for_session(timeout)`. The hub also remembers the
last boot id it saw, so a reconnect can be told apart: same boot id = the socket dropped (for
example the companion restarted); new boot id = the extension's service worker restarted,
and any state the worker held in memory is gone.

A session that dropped finds its successor here (BrowserSession.live): the hub waits up to
`reacquire_timeout` seconds for the extension to reconnect and tells `connection_listeners`
("lost", "back", "gave_up") so a task can show "browser connection lost, waiting...".
"""

from __future__ import annotations

import logging
import threading
import time
from collections import deque
from dataclasses import dataclass
from typing import Callable, Literal

from companion.bridge.errors import BridgeTimeout
from companion.bridge.notify import ChangeNotifier
from companion.bridge.recorder import Recorder
from companion.bridge.session import BrowserSession

log = logging.getLogger(__name__)

# MV3 restarts a worker within seconds; an extension reload or an update takes longer. Long enough for
# those, short enough that a browser that is really gone fails the task in under a minute.
REACQUIRE_TIMEOUT = 45.0

ConnectionState = Literal["lost", "back", "gave_up"]
# A tab the companion sent a request to within this long is taken to be driven by a task (or an exploration)
# even when no task is registered: an agent step can think this long between two requests.
DRIVEN_QUIET = 60.0


@dataclass(frozen=True)
class RefusedHandshake:
    at: float  # time.monotonic()
    origin: str | None
    reason: str


class BridgeHub:
    """Also holds the Recorder (None: not recording): connections look it up per message, so recording
    can be switched on and off while browsers stay connected."""

    def __init__(self, recorder: Recorder | None = None, reacquire_timeout: float = REACQUIRE_TIMEOUT) -> None:
        self.recorder = recorder
        self.reacquire_timeout = reacquire_timeout  # 0: a dropped session fails its requests at once
        # listener(state, text), called on the waiting caller's loop; keep them quick and non-blocking.
        self.connection_listeners: list[Callable[[ConnectionState, str], None]] = []
        self._lock = threading.Lock()
        self._sessions: list[BrowserSession] = []  # open sessions, oldest first
        self._all: list[BrowserSession] = []  # every session ever registered, oldest first
        self._last_boot_id: str | None = None
        self.refused: deque[RefusedHandshake] = deque(maxlen=200)
        self._changed = ChangeNotifier()
        # Handlers of unsolicited application messages, shared with every session (see BrowserSession.deliver).
        self.message_handlers: dict = {}
        # listener(session), called on the session's loop right after it registered (e.g. to tell it settings).
        self.session_listeners: list[Callable[[BrowserSession], None]] = []
        # What the companion is doing with the browser: running tasks (task id -> tab, None: the active tab) and
        # when each tab last answered a request. Passive learning and the background summarizer stay away.
        self.running_tasks: dict[str, int | None] = {}
        self._driven: dict[int, float] = {}

    # ------------------------------------------------------------------ server side

    def add(self, session: BrowserSession) -> None:
        session.message_handlers = self.message_handlers
        session.hub = self
        with self._lock:
            previous = self._all[-1] if self._all else None
            if previous is not None and previous.closed:
                session.inherit(previous)  # a replacement, not a second browser alongside
            if self._last_boot_id is not None:
                session.worker_restarted = session.boot_id != self._last_boot_id
            self._last_boot_id = session.boot_id
            self._sessions.append(session)
            self._all.append(session)
        for listener in list(self.session_listeners):
            try:
                listener(session)
            except Exception:  # a listener's bug must not refuse the browser
                log.exception("session listener failed")
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

    # ------------------------------------------------------------------ activity (tasks and driven tabs)

    def task_started(self, task_id: str, tab: int | None) -> None:
        self.running_tasks[task_id] = tab

    def task_ended(self, task_id: str) -> None:
        self.running_tasks.pop(task_id, None)

    def note_driven(self, tab: int) -> None:
        """A request of the companion's own was answered for `tab` (session.deliver calls this)."""
        self._driven[tab] = time.monotonic()

    def tab_busy(self, tab: int) -> bool:
        """A task runs in `tab` (or in an unknown tab), or the companion drove it within DRIVEN_QUIET."""
        return self.tab_quiet(tab)[0] != ""

    def tab_quiet(self, tab: int) -> tuple[str, float]:
        """Why learning in `tab` waits, and for how long: ("task", 0) while a task runs there, ("after_task", s)
        for the s seconds left of DRIVEN_QUIET after the companion last drove it, ("", 0) when it does not wait."""
        if any(t is None or t == tab for t in self.running_tasks.values()):
            return "task", 0.0
        at = self._driven.get(tab)
        left = DRIVEN_QUIET - (time.monotonic() - at) if at is not None else 0.0
        return ("after_task", left) if left > 0 else ("", 0.0)

    def busy(self, within: float = DRIVEN_QUIET) -> bool:
        """A task runs, or the companion drove any tab within the last `within` seconds."""
        now = time.monotonic()
        return bool(self.running_tasks) or any(now - at < within for at in list(self._driven.values()))

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

    def newest_open_after(self, session: BrowserSession) -> BrowserSession | None:
        """The most recent open session registered after `session`, without waiting."""
        with self._lock:
            later = self._all[self._all.index(session) + 1:] if session in self._all else list(self._all)
            open_later = [s for s in later if not s.closed]
        return open_later[-1] if open_later else None

    def report_connection(self, state: ConnectionState, text: str) -> None:
        (log.info if state == "back" else log.warning)("%s", text)
        for listener in list(self.connection_listeners):
            try:
                listener(state, text)
            except Exception:  # a listener's bug must not break the request that waits
                log.exception("connection listener failed")

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
