"""The browser side of a recorded task: what the agent asked the browser and what it answered, in order.

A task recorded with `webchallenger run --record FILE` holds, besides its LLM calls, one {"browser": ...}
line per browser request the agent made (the Exchange below): the request (an action, a tab to show...),
its reply, and for a snapshot a digest of the page (its URL, title and the role and name of every control).
With --keep-pages the snapshot replies are kept whole (the snapshot stream): then a replay needs no browser.

Three small objects speak the few BrowserSession methods the agent uses (snapshot_result, act and the action
helpers built on it, list_tabs, activate_tab, read_clipboard, open_tab, events, post):
  - RecordingBrowser wraps a live session and writes each exchange (through the LLM recorder, so URLs are
    scrubbed and typed secrets masked there too; text typed into a password field is written redacted);
  - RecordedBrowser answers every request from the recording: no site, no Chromium;
  - CheckedBrowser forwards to a live session and compares each exchange with the recording (live replay).
The first request that differs from the recorded one (another call, another action, another page) is the
divergence: it is raised as ReplayDivergence, a BaseException, so no step's error handling can absorb it
and the task ends there.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from pydantic import BaseModel

from companion.bridge import errors
from companion.bridge.actions import BrowserActions
from companion.replay.selectors import element_info
from companion.bridge.session import REDACTED, BrowserSession
from companion.protocol import (
    Action, ActionResult, ClipboardResult, Snapshot, SnapshotResult, TabEvent, TabInfo, TypeText,
)

BROWSER_KEY = "browser"  # a recording line {"browser": Exchange} (companion/llm/recording.py reads them back)


class Exchange(BaseModel):
    """One browser request of the agent and its outcome."""

    call: str  # snapshot | act | list_tabs | activate_tab | read_clipboard | open_tab | events
    step: int = 0  # the task step it was made in (0: before the first step)
    request: dict = {}
    reply: Any = None  # the reply's JSON (a snapshot's only with keep_pages)
    page: list[str] | None = None  # snapshot: the page's digest (page_digest)
    viewport: list[int] | None = None  # snapshot: the window's [width, height] (an exported flow sets it)
    error: dict | None = None  # the request raised: {"kind": exception class, "message": ...}
    element: dict | None = None  # act: its target as other tools find it (replay/selectors.py), for export


def page_digest(snapshot: Snapshot) -> list[str]:
    """What a replay checks of a page: its URL and title, and every control and heading as `role "name"`.
    Element ids, boxes and scroll positions are left out: they move without the page changing for the agent."""
    from companion.pagemem.render import accessible_name
    from companion.pagemem.tree import build_tree

    tree = build_tree(snapshot)
    lines = [f"url {snapshot.url}", f"title {snapshot.title!r}"]
    for frame in snapshot.frames:
        for el in frame.elements:
            node = tree.nodes.get((frame.frame, el.id))
            if node is None or not (el.interactive or node.role == "heading"):
                continue
            name = " ".join(accessible_name(node, tree).split())[:80]
            lines.append(f'{node.role or el.tag} "{name}"')
    return lines


def describe_target(snapshot: Snapshot | None, frame: int, element: int) -> str:
    """An element as a person reads it in a divergence message: `button "Send" (element 12)`."""
    if snapshot is not None:
        from companion.pagemem.render import accessible_name
        from companion.pagemem.tree import build_tree

        tree = build_tree(snapshot)
        node = tree.nodes.get((frame, element))
        if node is not None:
            name = " ".join(accessible_name(node, tree).split())[:80]
            return f'{node.role or node.tag} "{name}" (element {element})'
    return f"element {element}" + (f" of frame {frame}" if frame else "")


def describe(exchange: Exchange, snapshot: Snapshot | None = None) -> str:
    """One exchange's request in words: `click on link "Kettles" (element 7)`, `snapshot of the page`."""
    if exchange.call != "act":
        extra = {k: v for k, v in exchange.request.items() if v is not None}
        return exchange.call + (f" {extra}" if extra else "")
    action = dict(exchange.request.get("action") or {})
    kind = action.pop("kind", "?")
    target = action.pop("target", None)
    words = kind
    if target and exchange.element:
        element = exchange.element
        words += f' on {element.get("role") or element.get("tag")} "{element.get("name", "")}" (element {target.get("id")})'
    elif target:
        words += " on " + describe_target(snapshot, target.get("frame", 0), target.get("id", 0))
    rest = ", ".join(f"{k}={v!r}" for k, v in action.items() if v is not None)
    return words + (f" ({rest})" if rest else "")


@dataclass
class Divergence:
    step: int
    position: int  # 1-based index of the exchange in the recorded stream
    requested: str
    recorded: str
    why: str
    recorded_action: str = ""  # the recording's last action up to there in this step, if any

    def __str__(self) -> str:
        where = f"step {self.step}" if self.step else "the start (before step 1)"
        text = (f"{where}: {self.why}\n  replay:        {self.requested}\n"
                f"  recording had: {self.recorded} (browser request {self.position})")
        if self.recorded_action:
            text += f"\n  the step's recorded action before it: {self.recorded_action}"
        return text


class ReplayDivergence(BaseException):
    """The replay did something other than the recording. BaseException: the loop's `except Exception`
    handlers (a failed action goes into the history) must not turn it into one more step."""

    def __init__(self, divergence: Divergence):
        super().__init__(str(divergence))
        self.divergence = divergence


def _redacted(action: Action, secret: bool) -> dict:
    data = action.model_dump(mode="json")
    if secret and isinstance(action, TypeText):
        data["text"] = REDACTED
    return data


def _error_of(exc: BaseException) -> dict:
    return {"kind": type(exc).__name__, "message": str(exc)}


def _raise_recorded(error: dict) -> None:
    kind = getattr(errors, error.get("kind", ""), None)
    message = error.get("message", "")
    if isinstance(kind, type) and issubclass(kind, errors.BridgeError) and kind is not errors.RemoteError:
        raise kind(message)
    raise errors.BridgeError(message)


class _Helpers(BrowserActions):
    """The action helpers of BrowserSession (click, type, navigate...: bridge/actions.py): each builds its Action and
    calls act(), which each browser below implements."""

    snapshot = BrowserSession.snapshot

    step = 0

    def on_event(self, event) -> None:
        """A task event subscriber: exchanges are stamped with the step they belong to."""
        if getattr(event, "kind", "") == "step" and event.step is not None:
            self.step = event.step


class RecordingBrowser(_Helpers):
    """A live BrowserSession whose every request is also written as an Exchange."""

    def __init__(self, session: BrowserSession, write: Callable[[dict], None], *, keep_pages: bool = False):
        self.inner = session
        self._write = write
        self.keep_pages = keep_pages
        self._last: dict[int | None, Snapshot] = {}  # the last page of each tab: names the targets of actions

    def __getattr__(self, name: str):  # anything else (hub, hello, loop...) is the live session's
        return getattr(self.inner, name)

    def _record(self, call: str, request: dict, reply: Any = None, page: list[str] | None = None,
                error: BaseException | None = None, element: dict | None = None, viewport: list[int] | None = None) -> None:
        exchange = Exchange(call=call, step=self.step, request=request, reply=reply, page=page, viewport=viewport,
                            error=_error_of(error) if error is not None else None, element=element)
        self._write(exchange.model_dump(mode="json", exclude_none=True))

    async def _call(self, call: str, request: dict, coro, dump: Callable[[Any], Any], element: dict | None = None):
        try:
            result = await coro
        except errors.BridgeError as exc:
            self._record(call, request, error=exc, element=element)
            raise
        self._record(call, request, dump(result), element=element)
        return result

    async def snapshot_result(self, tab: int | None = None, timeout: float = 30.0) -> SnapshotResult:
        try:
            result = await self.inner.snapshot_result(tab, timeout)
        except errors.BridgeError as exc:
            self._record("snapshot", {"tab": tab}, error=exc)
            raise
        reply = result.model_dump(mode="json", exclude_none=True) if self.keep_pages else None
        self._last[tab] = self._last[result.tab_id] = result.snapshot
        view = result.snapshot.viewport
        self._record("snapshot", {"tab": tab}, reply, page_digest(result.snapshot),
                     viewport=[int(view.width), int(view.height)])
        return result

    async def act(self, action: Action, tab: int | None = None, timeout: float = 20.0, *, secret: bool = False) -> ActionResult:
        hidden = secret or (isinstance(action, TypeText) and self.inner._is_password_field(tab, action.target))
        target, page = getattr(action, "target", None), self._last.get(tab)
        element = element_info(page, target.frame, target.id) if target is not None and page is not None else None
        return await self._call("act", {"tab": tab, "action": _redacted(action, hidden)},
                                self.inner.act(action, tab, timeout, secret=secret), lambda r: r.model_dump(mode="json"),
                                element)

    async def list_tabs(self, timeout: float = 10.0) -> list[TabInfo]:
        return await self._call("list_tabs", {}, self.inner.list_tabs(timeout), lambda r: [t.model_dump(mode="json") for t in r])

    async def activate_tab(self, tab: int, timeout: float = 10.0) -> TabInfo:
        return await self._call("activate_tab", {"tab": tab}, self.inner.activate_tab(tab, timeout), lambda r: r.model_dump(mode="json"))

    async def open_tab(self, url: str, active: bool = True, timeout: float = 10.0) -> TabInfo:
        return await self._call("open_tab", {"url": url, "active": active}, self.inner.open_tab(url, active, timeout),
                                lambda r: r.model_dump(mode="json"))

    async def read_clipboard(self, tab: int | None = None, since: float | None = None, timeout: float = 10.0) -> ClipboardResult:
        # `since` is a clock reading, not a fact about the task: a replay compares the tab only.
        return await self._call("read_clipboard", {"tab": tab}, self.inner.read_clipboard(tab, since, timeout),
                                lambda r: r.model_dump(mode="json"))

    def events(self, since: float = 0.0) -> list[TabEvent]:
        found = self.inner.events(since)
        self._record("events", {}, [e.model_dump(mode="json") for e in found])
        return found


def start_recording(client, session: BrowserSession, *, task: str, start_url: str | None, start_target: str | None = None,
                    max_steps: int, allowed_domains: list[str], keep_pages: bool) -> RecordingBrowser:
    """The task's facts into the session file `client` (an LLMClient) records, and the session that records
    the browser side into it. `webchallenger replay` reads the facts back (the task, where it started)."""
    client.record_meta(task={"task": task, "start_target": start_target or start_url, "start_url": start_url,
                             "max_steps": max_steps, "allowed_domains": list(allowed_domains), "keep_pages": keep_pages})
    return RecordingBrowser(session, client.record_browser, keep_pages=keep_pages)


def end_recording(client, result) -> None:
    """How the task ended (a replay that ends otherwise diverges)."""
    client.record_meta(outcome={"status": result.status, "answer": result.answer, "steps": result.steps})


class _Comparing(_Helpers):
    """Walks the recorded exchanges in order; the first that differs from the requested one is the divergence."""

    # Calls taken from the live browser uncompared (their recorded exchanges are passed over), and whether
    # tab ids are compared: both only in a live replay, whose browser has its own tabs and timing.
    uncompared: frozenset[str] = frozenset()
    compare_tabs = True

    def __init__(self, exchanges: list[Exchange]):
        self.exchanges = exchanges
        self.position = 0
        self.divergence: Divergence | None = None
        self.last_snapshot: Snapshot | None = None  # of the replay: names the elements of its actions
        self.recorded_snapshot: Snapshot | None = None  # of the recording (kept pages only)

    def _diverge(self, requested: str, recorded: str, why: str) -> None:
        before = [e for e in self.exchanges[: self.position - 1] if e.call == "act" and e.step == self.step]
        action = describe(before[-1]) if before else ""
        self.divergence = Divergence(self.step, self.position, requested, recorded, why, action)
        raise ReplayDivergence(self.divergence)

    def _next(self, call: str, request: dict, requested: str) -> Exchange:
        """The recorded exchange for this request, or the divergence."""
        if self.divergence is not None:  # the task is ending: later requests (checkpoint) are not compared
            raise ReplayDivergence(self.divergence)
        while self.position < len(self.exchanges) and self.exchanges[self.position].call in self.uncompared:
            self.position += 1
        if self.position >= len(self.exchanges):
            self.position += 1
            self._diverge(requested, "(nothing: the recorded task had ended)", "the replay asked the browser for more")
        exchange = self.exchanges[self.position]
        self.position += 1
        if exchange.call != call or not _same_request(exchange.request, request, self.compare_tabs):
            self._diverge(requested, describe(exchange, self.recorded_snapshot or self.last_snapshot),
                          "another browser request than the recording's")
        return exchange

    def remaining(self) -> list[Exchange]:
        """Recorded actions the replay never made (reads at the end do not count)."""
        return [e for e in self.exchanges[self.position:] if e.call in ("act", "open_tab")]

    def check_page(self, exchange: Exchange, snapshot: Snapshot) -> None:
        if exchange.page is None:
            return
        now = page_digest(snapshot)
        if now != exchange.page:
            first = next((i for i, (a, b) in enumerate(zip(now, exchange.page)) if a != b), min(len(now), len(exchange.page)))
            seen = now[first] if first < len(now) else "(nothing more)"
            had = exchange.page[first] if first < len(exchange.page) else "(nothing more)"
            self._diverge(f"a page showing {seen}", f"a page showing {had}",
                          "the page differs from the recorded one")


def _same_request(recorded: dict, requested: dict, compare_tabs: bool = True) -> bool:
    if not compare_tabs:
        recorded = {k: v for k, v in recorded.items() if k != "tab"}
        requested = {k: v for k, v in requested.items() if k != "tab"}
    if recorded == requested:
        return True
    # Text typed into a password field is recorded redacted: any text matches it.
    a, b = recorded.get("action"), requested.get("action")
    if isinstance(a, dict) and isinstance(b, dict) and a.get("text") == REDACTED and a.get("kind") == "type":
        return {**a, "text": None} == {**b, "text": None} and recorded.get("tab") == requested.get("tab")
    return False


class RecordedBrowser(_Comparing):
    """A browser made of a recording: every request is answered with the recorded reply. Needs the pages
    (--keep-pages); there is no site and no Chromium behind it."""

    def __init__(self, exchanges: list[Exchange]):
        super().__init__(exchanges)
        self.loop = None
        self.closed = False

    async def post(self, message) -> None:
        """Task updates for a side panel: a replay with no browser has none to show them in."""

    async def snapshot_result(self, tab: int | None = None, timeout: float = 30.0) -> SnapshotResult:
        exchange = self._next("snapshot", {"tab": tab}, "snapshot of the page")
        if exchange.error:
            _raise_recorded(exchange.error)
        if exchange.reply is None:
            raise errors.BridgeError("the recording kept no page here (record with --keep-pages to replay with no site)")
        result = SnapshotResult.model_validate(exchange.reply)
        self.last_snapshot = self.recorded_snapshot = result.snapshot
        return result

    def _answer(self, call: str, request: dict, requested: str, parse: Callable[[Any], Any]):
        exchange = self._next(call, request, requested)
        if exchange.error:
            _raise_recorded(exchange.error)
        return parse(exchange.reply)

    async def act(self, action: Action, tab: int | None = None, timeout: float = 20.0, *, secret: bool = False) -> ActionResult:
        request = {"tab": tab, "action": _redacted(action, False)}
        return self._answer("act", request, describe(Exchange(call="act", request=request), self.last_snapshot),
                            ActionResult.model_validate)

    async def list_tabs(self, timeout: float = 10.0) -> list[TabInfo]:
        return self._answer("list_tabs", {}, "list_tabs", lambda r: [TabInfo.model_validate(t) for t in r])

    async def activate_tab(self, tab: int, timeout: float = 10.0) -> TabInfo:
        return self._answer("activate_tab", {"tab": tab}, f"activate_tab {tab}", TabInfo.model_validate)

    async def open_tab(self, url: str, active: bool = True, timeout: float = 10.0) -> TabInfo:
        request = {"url": url, "active": active}
        return self._answer("open_tab", request, f"open_tab {url}", TabInfo.model_validate)

    async def read_clipboard(self, tab: int | None = None, since: float | None = None, timeout: float = 10.0) -> ClipboardResult:
        return self._answer("read_clipboard", {"tab": tab}, "read_clipboard", ClipboardResult.model_validate)

    def events(self, since: float = 0.0) -> list[TabEvent]:
        return self._answer("events", {}, "events", lambda r: [TabEvent.model_validate(e) for e in r])


class CheckedBrowser(_Comparing):
    """A live session whose every request is compared with the recording before its reply is used."""

    uncompared = frozenset({"events", "list_tabs", "activate_tab", "read_clipboard"})
    compare_tabs = False

    def __init__(self, session: BrowserSession, exchanges: list[Exchange]):
        super().__init__(exchanges)
        self.inner = session

    def __getattr__(self, name: str):
        return getattr(self.inner, name)

    async def snapshot_result(self, tab: int | None = None, timeout: float = 30.0) -> SnapshotResult:
        exchange = self._next("snapshot", {"tab": tab}, "snapshot of the page")
        result = await self.inner.snapshot_result(tab, timeout)
        self.last_snapshot = result.snapshot
        if exchange.reply is not None:
            self.recorded_snapshot = SnapshotResult.model_validate(exchange.reply).snapshot
        self.check_page(exchange, result.snapshot)
        return result

    async def act(self, action: Action, tab: int | None = None, timeout: float = 20.0, *, secret: bool = False) -> ActionResult:
        request = {"tab": tab, "action": _redacted(action, False)}
        self._next("act", request, describe(Exchange(call="act", request=request), self.last_snapshot))
        return await self.inner.act(action, tab, timeout, secret=secret)

    # Tab lists, events and the clipboard depend on timing and on the browser's other tabs: a live replay
    # takes them from the browser uncompared (`uncompared`).
    async def list_tabs(self, timeout: float = 10.0) -> list[TabInfo]:
        return await self.inner.list_tabs(timeout)

    def events(self, since: float = 0.0) -> list[TabEvent]:
        return self.inner.events(since)

    async def activate_tab(self, tab: int, timeout: float = 10.0) -> TabInfo:
        return await self.inner.activate_tab(tab, timeout)

    async def read_clipboard(self, tab: int | None = None, since: float | None = None, timeout: float = 10.0) -> ClipboardResult:
        return await self.inner.read_clipboard(tab, since, timeout)

    async def open_tab(self, url: str, active: bool = True, timeout: float = 10.0) -> TabInfo:
        self._next("open_tab", {"url": url, "active": active}, f"open_tab {url}")
        return await self.inner.open_tab(url, active, timeout)

