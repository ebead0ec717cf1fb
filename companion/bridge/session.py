"""One connected browser, seen from Python: `await session.snapshot()`, `await session.click(ref)`, ...
(the one-per-action helpers such as click are in actions.py; this module is the connection and its requests).

Every request gets a fresh uuid; the extension's reply echoes it and resolves the waiting
future. A missing reply raises BridgeTimeout naming the request; an ErrorMessage reply
raises RemoteError. Action failures the extension reports (stale element, no such option)
are not exceptions: they come back as an ActionResult with ok=False and a clear `error`.

A session belongs to the event loop of the server connection that created it. Its request
methods may be awaited from any other loop as well: they hop onto the session's loop, so
pytest-asyncio tests and the CLI can share one companion running in a background thread.

Re-acquisition: MV3 stops service workers and extensions reload, so a socket can drop mid-task.
A request on a closed session waits (bounded by the hub's `reacquire_timeout`) for the extension
to connect again and goes to that newer session, so the object a task holds keeps working. A
read-only request lost in flight (REPLAYABLE) is sent once more on the new connection; a command
with side effects is never replayed: it raises BridgeActionInterrupted (its outcome is unknown).
"""

from __future__ import annotations

import asyncio
import functools
import logging
import time
import uuid
from collections import deque
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Awaitable, Callable, Iterator

from companion.bridge.actions import ACTION_TIMEOUT, BrowserActions, web_url
from companion.bridge.errors import (
    BridgeActionInterrupted, BridgeDisconnected, BridgeError, BridgeTimeout, MessageRejected, RemoteError,
)
from companion.bridge.notify import ChangeNotifier
from companion import typed_secrets
from companion.protocol import (
    Action, ActionCommand, ActionResult, ActivateTab, ActivateTabResult, ClipboardResult, ReadClipboard, BenchRequest,
    BenchResult, DrawSections, DrawSectionsResult, ElementRef, ErrorMessage, Heartbeat, Hello, ListTabs, OpenTab,
    OpenTabResult, Snapshot, SnapshotRequest, SnapshotResult, TabEvent, TabInfo, TabsResult, TypeText, WireModel,
    dump_message,
)
from companion.protocol import (
    CompanionStatusGet, ConfirmAnswer, LLMCheck, LLMSettingsGet, LLMSettingsSet, PageVisited, PauseTask,
    SectionsRequest, SiteForget, SiteInfoGet, SitePolicyGet, SitePolicySet, StartTask, StopTask, UserClicked,
)

log = logging.getLogger(__name__)

SNAPSHOT_TIMEOUT = 30.0
TABS_TIMEOUT = 10.0
REDACTED = "[redacted]"
EVENT_HISTORY = 500
# Requests without side effects: safe to send again when the connection dropped before their reply.
REPLAYABLE = frozenset({"snapshot", "list_tabs", "bench", "activate_tab", "read_clipboard", "draw_sections"})
# How long each action's target is outlined on the page before the action (ActionCommand.outline_ms) in the
# current context: set for a task the user watches (outlining_actions), 0 everywhere else.
_OUTLINE_MS: ContextVar[int] = ContextVar("outline_actions_ms", default=0)


@contextmanager
def outlining_actions(ms: int) -> Iterator[None]:
    """Within this block (and the asyncio tasks started in it), every action first outlines its target for `ms`."""
    token = _OUTLINE_MS.set(ms)
    try:
        yield
    finally:
        _OUTLINE_MS.reset(token)

# What the side panel, the options page and passive learning ask of a companion, served by the handlers
# `webchallenger serve` installs (commands/serve.py). A companion a command starts for its own browser (run,
# explore, pagemem: bridge/launcher.py, which pairs through the options page) offers none of them, by design:
# these are normal there, answered with a refusal that says so (the page shows it), never a warning.
SERVICE_REQUESTS = (StartTask, StopTask, PauseTask, ConfirmAnswer, SiteInfoGet, SiteForget, SitePolicyGet, SitePolicySet,
                    CompanionStatusGet, LLMSettingsGet, LLMSettingsSet, LLMCheck, SectionsRequest)
PASSIVE_NOTICES = (PageVisited, UserClicked)  # nothing to answer: not learned here

# send(raw_text, text_for_the_recording) — the second differs only when a secret is redacted.
SendFn = Callable[[str, str], Awaitable[None]]


def new_id() -> str:
    return uuid.uuid4().hex


def _on_session_loop(method):
    """Run the coroutine on the session's own loop when awaited from another one."""

    @functools.wraps(method)
    async def wrapper(self: "BrowserSession", *args, **kwargs):
        # A closed loop (the companion restarted since) has nothing to hop to; the request goes to a newer session.
        if asyncio.get_running_loop() is self.loop or self.loop.is_closed():
            return await method(self, *args, **kwargs)
        future = asyncio.run_coroutine_threadsafe(method(self, *args, **kwargs), self.loop)
        return await asyncio.wrap_future(future)

    return wrapper


@dataclass
class RequestTiming:
    """perf_counter() stamps of the last reply of one kind: for benchmarks and logs."""

    request_id: str
    sent: float
    received: float  # raw text in hand
    parsed: float  # typed message in hand
    raw_bytes: int
    parse_cpu: float = 0.0  # CPU seconds of parsing in the server thread: unlike wall time, not inflated by machine load

    @property
    def total_ms(self) -> float:
        return (self.parsed - self.sent) * 1000

    @property
    def wait_ms(self) -> float:
        """Sent until the raw reply arrived: the extension's work plus both transfers."""
        return (self.received - self.sent) * 1000

    @property
    def parse_ms(self) -> float:
        return (self.parsed - self.received) * 1000


@dataclass
class _Pending:
    request_id: str
    kind: str
    future: asyncio.Future
    sent: float = 0.0


class _NotSent(Exception):
    """The socket failed while sending: the request never left, so it may go to a newer session."""


class _Closed:
    def __bool__(self) -> bool:  # truthy, so ChangeNotifier.wait_for returns it
        return True


_CLOSED = _Closed()


@dataclass
class ReceivedEvent:
    at: float  # time.monotonic()
    event: TabEvent


class BrowserSession(BrowserActions):
    """A connected extension. Created by the server after a valid Hello; closed when the socket closes."""

    def __init__(self, session_id: str, hello: Hello, send: SendFn, loop: asyncio.AbstractEventLoop):
        self.session_id = session_id
        self.hello = hello
        self.loop = loop
        self._send = send
        self._pending: dict[str, _Pending] = {}
        self._expired: deque[str] = deque(maxlen=100)  # ids of requests that timed out
        self.connected_at = time.monotonic()
        self.closed = False
        self.close_reason = ""
        self.worker_restarted: bool | None = None  # set by the hub: None = first session it has seen
        self.heartbeats_received = 0
        self.last_message_at = time.monotonic()
        self.last_snapshot_timing: RequestTiming | None = None
        self.last_tab_id: int | None = None
        self._events: deque[ReceivedEvent] = deque(maxlen=EVENT_HISTORY)
        self._event_callbacks: list[Callable[[TabEvent], None]] = []
        self._changed = ChangeNotifier()
        # (tab, frame, element) of password inputs seen in snapshots: text typed into them is
        # redacted in the recording. None tab = unknown tab (the active one).
        self._password_refs: set[tuple[int | None, int, int]] = set()
        # Unsolicited application messages by type (task UI: start_task, stop_task, confirm_answer):
        # handler(session, message) runs on the session's loop. The hub shares its dict with every session.
        self.message_handlers: dict[str, Callable[["BrowserSession", WireModel], None]] = {}
        self.hub = None  # the BridgeHub that registered this session: where a newer session is found after a drop
        self._drop_reported = False  # the connection notes of this session's drop went out (once, not per request)

    def inherit(self, previous: "BrowserSession") -> None:
        """Continue a dropped session of the same browser: tab events, their subscribers and the known
        password fields are the browser's, not the socket's, so they carry over (shared, not copied)."""
        self._events = previous._events
        self._event_callbacks = previous._event_callbacks
        self._password_refs = previous._password_refs
        if self.last_tab_id is None:
            self.last_tab_id = previous.last_tab_id

    @property
    def boot_id(self) -> str:
        return self.hello.boot_id

    def __repr__(self) -> str:
        state = "closed" if self.closed else "open"
        return f"<BrowserSession {self.session_id[:8]} boot={self.boot_id[:8]} {state}>"

    # ------------------------------------------------------------------ incoming (server side)

    def deliver(self, message: WireModel, received: float, raw_bytes: int, parse_cpu: float = 0.0) -> WireModel | None:
        """Route one parsed incoming message. Returns a message to send back, if any."""
        self.last_message_at = time.monotonic()
        if isinstance(message, Heartbeat):
            self.heartbeats_received += 1
            self._changed.notify()
            return Heartbeat(id=message.id, sent_at=time.time())
        if isinstance(message, TabEvent):
            self._events.append(ReceivedEvent(time.monotonic(), message))
            for callback in list(self._event_callbacks):
                try:
                    callback(message)
                except Exception:  # a subscriber's bug must not break the connection
                    log.exception("tab event subscriber failed")
            self._changed.notify()
            return None
        handler = self.message_handlers.get(message.type)
        if handler is not None:
            try:
                reply = handler(self, message)
            except Exception as exc:  # a handler's bug must not break the connection
                log.exception("%s handler failed", message.type)
                return ErrorMessage(id=getattr(message, "id", ""), code="internal", message=f"{message.type} failed: {exc}")
            return reply if isinstance(reply, WireModel) else None  # a handler may answer (site_policy)
        pending = self._pending.get(getattr(message, "id", ""))
        if pending is None:
            if getattr(message, "id", "") in self._expired:
                # The caller already got a BridgeTimeout; a late answer is normal on a slow page, not an error.
                log.info("session %s: late %s for expired request %s dropped", self.session_id[:8], message.type, message.id)
                return None
            if isinstance(message, ErrorMessage):
                log.warning("extension reported %s: %s", message.code, message.message)
                return None
            if isinstance(message, PASSIVE_NOTICES):
                return None
            if isinstance(message, SERVICE_REQUESTS):
                log.debug("session %s: %s is not offered by this companion", self.session_id[:8], message.type)
                return ErrorMessage(id=message.id, code="unknown_type",
                                    message=f"this companion was started by a command for its own browser and does "
                                            f"not offer {message.type}; `webchallenger serve` does")
            log.warning("session %s: unsolicited %s message (id %s) ignored", self.session_id[:8], message.type, getattr(message, "id", ""))
            return ErrorMessage(id=getattr(message, "id", ""), code="unknown_type",
                                message=f"{message.type} is not expected here (no request with this id is waiting)")
        tab = getattr(message, "tab_id", None)
        if isinstance(tab, int) and self.hub is not None:
            self.hub.note_driven(tab)  # passive learning leaves a tab the companion drives alone
        if isinstance(message, SnapshotResult):
            self.last_snapshot_timing = RequestTiming(pending.request_id, pending.sent, received, time.perf_counter(), raw_bytes, parse_cpu)
        if not pending.future.done():
            pending.future.set_result(message)
        return None

    def fail_waiting(self, request_id: str, reason: str) -> int:
        """Fail at once the requests a refused reply was meant for: the one with `request_id`, or every waiting
        request when the reply's id could not be read (""). Returns how many failed."""
        if request_id:
            pending = [self._pending[request_id]] if request_id in self._pending else []
        else:
            pending = list(self._pending.values())
        failed = 0
        for p in pending:
            if not p.future.done():
                p.future.set_exception(MessageRejected(f"{p.kind} request {p.request_id}: {reason}"))
                failed += 1
        return failed

    def close(self, reason: str) -> None:
        """The socket closed: fail every waiting request so no caller hangs until its timeout."""
        if self.closed:
            return
        self.closed = True
        self.close_reason = reason
        for pending in list(self._pending.values()):
            if not pending.future.done():
                pending.future.set_exception(BridgeDisconnected(f"{pending.kind} request {pending.request_id} lost: {reason}"))
        self._changed.notify()

    # ------------------------------------------------------------------ requests

    async def live(self, what: str = "the request") -> "BrowserSession":
        """This session while it is open; after a drop, the newer session of the reconnected extension,
        waiting up to the hub's `reacquire_timeout`. Raises BridgeDisconnected when none comes."""
        if not self.closed:
            return self
        hub = self.hub
        timeout = hub.reacquire_timeout if hub is not None else 0
        if timeout <= 0:
            raise BridgeDisconnected(f"session {self.session_id[:8]} is closed ({self.close_reason}); {what} not sent")
        newer = hub.newest_open_after(self)
        if newer is not None:
            if not self._drop_reported:  # it came back before anything waited: still worth one note
                self._drop_reported = True
                hub.report_connection("back", f"browser connection was lost ({self.close_reason}) and is back"
                                              + (" (the extension's worker restarted)" if newer.worker_restarted else ""))
            return newer
        self._drop_reported = True
        hub.report_connection("lost", f"browser connection lost ({self.close_reason}); waiting up to {timeout:g} s "
                                      "for the extension to reconnect...")
        try:
            newer = await hub.wait_for_session(timeout, newer_than=self)
        except BridgeTimeout:
            message = f"browser connection lost ({self.close_reason}) and the extension did not reconnect within {timeout:g} s; {what} not sent"
            hub.report_connection("gave_up", message)
            raise BridgeDisconnected(message) from None
        hub.report_connection("back", "browser connection is back" + (" (the extension's worker restarted)" if newer.worker_restarted else ""))
        return newer

    @_on_session_loop
    async def request(self, message: WireModel, expect: type[WireModel], timeout: float, record_as: WireModel | None = None,
                      *, replay: bool = True) -> WireModel:
        """Send `message` and wait for the reply with its id; the building block of every method below.
        After a drop it goes to the reconnected session (see the module docstring); `replay=False` is the
        one replay already spent."""
        target = await self.live(message.type)
        if target is not self:
            return await target.request(message, expect, timeout, record_as, replay=replay)
        kind = message.type if not isinstance(message, ActionCommand) else f"action {message.action.kind}"
        try:
            return await self._request_here(message, kind, expect, timeout, record_as)
        except _NotSent:
            # Nothing left this process: sending it on the new connection is not a replay.
            return await (await self.live(kind)).request(message, expect, timeout, record_as, replay=replay)
        except BridgeDisconnected as lost:
            if self.hub is None or self.hub.reacquire_timeout <= 0:
                raise
            if message.type not in REPLAYABLE:
                raise BridgeActionInterrupted(
                    f"the browser connection was lost during {kind} (request {message.id}); the action may or may not "
                    f"have happened: look at the page again before repeating it") from lost
            if not replay:
                raise
            log.info("session %s: %s lost in flight; sending it again once the browser is back", self.session_id[:8], kind)
            return await (await self.live(kind)).request(message, expect, timeout, record_as, replay=False)

    async def _request_here(self, message: WireModel, kind: str, expect: type[WireModel], timeout: float,
                            record_as: WireModel | None) -> WireModel:
        request_id = message.id
        pending = _Pending(request_id, kind, self.loop.create_future())
        self._pending[request_id] = pending
        try:
            raw = dump_message(message)
            pending.sent = time.perf_counter()
            try:
                await self._send(raw, dump_message(record_as) if record_as is not None else raw)
            except Exception as exc:  # the socket is gone under us: the message did not leave
                self.close(f"send failed: {exc}")
                raise _NotSent() from exc
            try:
                reply = await asyncio.wait_for(pending.future, timeout)
            except asyncio.TimeoutError:
                self._expired.append(request_id)
                raise BridgeTimeout(f"{kind} request {request_id} got no reply within {timeout:g} s") from None
        finally:
            self._pending.pop(request_id, None)
        if isinstance(reply, ErrorMessage):
            raise RemoteError(reply.code, reply.message, request_id)
        if not isinstance(reply, expect):
            raise BridgeError(f"{kind} request {request_id}: expected {expect.__name__}, got {reply.type}")
        return reply

    @_on_session_loop
    async def post(self, message: WireModel) -> None:
        """Send a message that expects no reply (task updates, confirmation requests). After a drop it goes
        to the reconnected session if there is one already; it never waits for one (a UI update is not worth
        holding a task up)."""
        if self.closed:
            newer = self.hub.newest_open_after(self) if self.hub is not None else None
            if newer is None:
                raise BridgeDisconnected(f"session {self.session_id[:8]} is closed ({self.close_reason}); {message.type} not sent")
            return await newer.post(message)
        raw = dump_message(message)
        await self._send(raw, raw)

    async def snapshot_result(self, tab: int | None = None, timeout: float = SNAPSHOT_TIMEOUT) -> SnapshotResult:
        result = await self.request(SnapshotRequest(id=new_id(), tab_id=tab), SnapshotResult, timeout)
        self.last_tab_id = result.tab_id
        left_out = result.snapshot.frames_left_out
        if left_out:  # the rest of the page is there: the task goes on with it
            log.warning("snapshot of tab %s left out %d frame(s): %s (%s)", result.tab_id, len(left_out),
                        ", ".join(str(f.frame) for f in left_out[:20]), left_out[0].reason)
        self._remember_password_fields(result)
        return result

    async def snapshot(self, tab: int | None = None, timeout: float = SNAPSHOT_TIMEOUT) -> Snapshot:
        """The page in `tab` (the active tab when None), every frame, as a typed Snapshot."""
        return (await self.snapshot_result(tab, timeout)).snapshot

    async def act(self, action: Action, tab: int | None = None, timeout: float = ACTION_TIMEOUT, *, secret: bool = False) -> ActionResult:
        command = ActionCommand(id=new_id(), tab_id=tab, action=action, outline_ms=_OUTLINE_MS.get())
        record_as = None
        if isinstance(action, TypeText) and (secret or self._is_password_field(tab, action.target)):
            record_as = command.model_copy(update={"action": action.model_copy(update={"text": REDACTED})})
            typed_secrets.remember(action.text)  # and masked wherever else it was or will be written
        return await self.request(command, ActionResult, timeout, record_as=record_as)

    async def list_tabs(self, timeout: float = TABS_TIMEOUT) -> list[TabInfo]:
        return (await self.request(ListTabs(id=new_id()), TabsResult, timeout)).tabs

    async def open_tab(self, url: str, active: bool = True, timeout: float = TABS_TIMEOUT) -> TabInfo:
        return (await self.request(OpenTab(id=new_id(), url=web_url(url), active=active), OpenTabResult, timeout)).tab

    async def activate_tab(self, tab: int, timeout: float = TABS_TIMEOUT) -> TabInfo:
        """Show `tab` in the user's browser: the active tab of its window, that window focused."""
        return (await self.request(ActivateTab(id=new_id(), tab_id=tab), ActivateTabResult, timeout)).tab

    async def read_clipboard(self, tab: int | None = None, since: float | None = None,
                             timeout: float = TABS_TIMEOUT) -> ClipboardResult:
        """The text the page in `tab` last copied (at or after `since`, ms since the epoch), as far as the
        extension can learn it; `text` is None when nothing could be read."""
        return await self.request(ReadClipboard(id=new_id(), tab_id=tab, since=since), ClipboardResult, timeout)

    async def draw_sections(self, draw: DrawSections, timeout: float = TABS_TIMEOUT) -> DrawSectionsResult:
        """Outline sections on the page (companion/panel/sections.py builds the message); empty sections clear."""
        return await self.request(draw, DrawSectionsResult, timeout)

    async def bench(self, tab: int | None = None, runs: int = 5, timeout: float = 120.0) -> BenchResult:
        """In-page serializer timings against the bare counting walk (the floor), for `webchallenger bench snapshot`."""
        return await self.request(BenchRequest(id=new_id(), tab_id=tab, runs=runs), BenchResult, timeout)

    # ------------------------------------------------------------------ events and waiting

    def subscribe(self, callback: Callable[[TabEvent], None]) -> Callable[[], None]:
        """Call `callback(event)` for every tab event (on the session's loop). Returns an unsubscribe function."""
        self._event_callbacks.append(callback)
        return lambda: self._event_callbacks.remove(callback) if callback in self._event_callbacks else None

    def events(self, since: float = 0.0) -> list[TabEvent]:
        """Tab events received at or after `since` (a time.monotonic() value), oldest first."""
        return [e.event for e in list(self._events) if e.at >= since]

    async def wait_for_event(self, predicate: Callable[[TabEvent], bool], timeout: float = ACTION_TIMEOUT,
                             since: float | None = None) -> TabEvent:
        """The first tab event matching `predicate` received at or after `since` (default: now). A drop
        meanwhile moves the wait to the reconnected session (events carry over, see inherit())."""
        start = time.monotonic() if since is None else since
        deadline = time.monotonic() + timeout
        session: BrowserSession = self
        while True:
            current = session

            def found() -> TabEvent | _Closed | None:
                if current.closed:
                    return _CLOSED
                return next((e for e in current.events(start) if predicate(e)), None)

            try:
                result = await current._changed.wait_for(found, max(0.0, deadline - time.monotonic()), "a matching tab event")
            except TimeoutError as exc:
                raise BridgeTimeout(str(exc)) from None
            if not isinstance(result, _Closed):
                return result
            session = await current.live("waiting for a tab event")

    async def wait_for_heartbeats(self, count: int, timeout: float) -> int:
        """Wait until at least `count` heartbeats arrived on this session (proof the worker is alive)."""
        try:
            return await self._changed.wait_for(lambda: self.heartbeats_received if self.heartbeats_received >= count else None,
                                                timeout, f"{count} heartbeats")
        except TimeoutError as exc:
            raise BridgeTimeout(str(exc)) from None

    # ------------------------------------------------------------------ password bookkeeping

    def _remember_password_fields(self, result: SnapshotResult) -> None:
        # The tab's latest snapshot says which of its fields are secret: element ids restart with each document,
        # so the last page's password id must not make an ordinary field of this one a secret (what is typed
        # into a secret is masked everywhere, prompts included). In place: an inheriting session shares the set.
        self._password_refs.difference_update({r for r in self._password_refs if r[0] in (result.tab_id, None)})
        for frame in result.snapshot.frames:
            for element in frame.elements:
                if element.secret or (element.tag == "input" and element.attrs.get("type", "").lower() == "password"):
                    self._password_refs.add((result.tab_id, frame.frame, element.id))
                    self._password_refs.add((None, frame.frame, element.id))

    def _is_password_field(self, tab: int | None, ref: ElementRef) -> bool:
        return (tab, ref.frame, ref.id) in self._password_refs

