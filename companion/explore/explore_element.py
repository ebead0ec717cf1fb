"""ExploreElement (WebChallenger, appendix A.2) on a live tab: click one element and record the transition.

The page is first brought to the state the element lives in: a fresh load of the page, then the clicks on
the triggers of the dropdowns it is inside (`path`). The element is found again by its stable key
(pagemem/identity.py): ids are per document, and every reload is a new document. Then:
- the URL changed (another document): the click navigated there;
- the same document gained elements: those (Δ+, the section diff of update_page_mem) are the element's
  dropdown elements, and the tab stays in that state for the recursive exploration of them;
- an open disclosure closed (a <summary>, an aria-expanded control): the elements it hid are what it shows,
  recorded as its dropdown elements (they are the page's own, explored in document order anyway);
- it opened a popup window (window.open): the popup's URL is where it leads; the popup is closed again where
  exploration owns the browser;
- nothing changed: the tab is still in the pre-click state and the next click goes on from there.

Restoring the pre-click state is a fresh load of the page's URL (then the path again), never Escape or
history.back: Escape closes only what listens for it, a back navigation may be served from the back-forward
cache with the menu still open or re-post a form, while a fresh load is the page as first seen, every
time. It is skipped when the click changed nothing, which is the common case for inert elements.

Without a click: a native <select> reveals its options (the popup is outside the DOM), recorded as its
dropdown elements; a link that opens a new tab (target=_blank) is followed by its href, so no tab is left
behind.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import Counter

from companion.bridge.errors import BridgeError
from companion.explore.model import ClickOutcome, ExploreTarget
from companion.explore.should_skip import link_url, should_skip
from companion.explore.tabs import ExploreTab, PageLoadError
from companion.memory.store import normalize_url
from companion.pagemem.divide import divide_page
from companion.pagemem.form_membership import FormMembership
from companion.explore.repeats import MIN_REPEATS, repeat_key
from companion.pagemem.identity import element_keys, list_item_keys
from companion.pagemem.model import Element, PageMem
from companion.pagemem.page_state import same_document_url
from companion.pagemem.update import revealed_elements, update_page_mem
from companion.protocol import ElementRef, Snapshot

log = logging.getLogger(__name__)

# Menus open on the click's own task, but some animate in or fetch their entries: a short pause before reading.
SETTLE_S = 0.15
# A link to another document starts navigating within a task or two; on a loaded machine it can take longer.
LINK_NAVIGATION_WAIT_S = 3.0


def page_candidates(pagemem: PageMem, snapshot: Snapshot) -> list[ExploreTarget]:
    """Every element of the page in document order, with its keys and ShouldSkip's verdict. Elements are
    deduplicated by their repeat key (repeats.py), so the rows of a table are alike, and so are the links of
    one list item that lead to one kind of page; a list item's other controls by their key relative to the
    item (identity.list_item_key)."""
    keys = element_keys(pagemem)
    item_keys = list_item_keys(pagemem)
    in_form = set(FormMembership.of(snapshot).members)
    out: list[ExploreTarget] = []

    def add(el: Element, dedup_key: str, in_item: bool) -> None:
        out.append(ExploreTarget(key=keys[el.key], dedup_key=dedup_key, element=el,
                                 skip=should_skip(el, pagemem.url, in_form=el.key in in_form), in_list_item=in_item))

    for section in pagemem.sections:
        for el in section.elements:
            add(el, repeat_key(el, section.signature, pagemem.url), False)
        for item in section.items:
            scope = f"{section.signature}/{item.signature}"
            for el in item.all_elements():
                # A link is its target pattern within the item's place (the values of one filter are one); other
                # controls keep their rank within the item (identity.list_item_key).
                add(el, repeat_key(el, scope, pagemem.url) if web_link(el, pagemem.url) else item_keys[el.key], True)
    shows = open_disclosures(snapshot)
    for c in out:
        if c.element.tag == "select":
            c.free = True
        elif c.element.tag == "summary":
            content = [ref for ref in shows.get(c.element.key, []) if ref in keys]
            if content:
                c.free, c.shows = True, [ElementRef(frame=f, id=i) for f, i in content]
    repeats = Counter(c.dedup_key for c in out if not c.in_list_item)
    for c in out:
        if repeats[c.dedup_key] >= MIN_REPEATS:
            c.in_list_item = True  # a row of a table DividePage kept whole: an item all the same
    return out


def open_disclosures(snapshot: Snapshot) -> dict[tuple[int, int], list[tuple[int, int]]]:
    """(frame, id) of every <summary> -> the visible interactive elements of its <details> (the summary excepted).
    Closed details have no visible content, so only open ones get entries."""
    out: dict[tuple[int, int], list[tuple[int, int]]] = {}
    for frame in snapshot.frames:
        by_id = {e.id: e for e in frame.elements}
        summary_of: dict[int, int] = {}  # details id -> its summary's id
        for e in frame.elements:
            if e.tag == "summary" and e.parent is not None and by_id.get(e.parent) is not None and by_id[e.parent].tag == "details":
                summary_of.setdefault(e.parent, e.id)
        if not summary_of:
            continue
        for e in frame.elements:
            if not (e.interactive and e.visible) or e.tag == "summary":
                continue
            node = by_id.get(e.parent) if e.parent is not None else None
            while node is not None:
                if node.id in summary_of:
                    out.setdefault((frame.frame, summary_of[node.id]), []).append((frame.frame, e.id))
                    break
                node = by_id.get(node.parent) if node.parent is not None else None
    return out


def option_candidates(select: Element, snapshot: Snapshot) -> list[Element]:
    """A native select's <option>s as elements (their wire addresses are real: the snapshot's ids)."""
    out: list[Element] = []
    for frame in snapshot.frames:
        if frame.frame != select.ref.frame:
            continue
        children: dict[int, list] = {}
        for e in frame.elements:
            if e.parent is not None:
                children.setdefault(e.parent, []).append(e)
        stack = list(reversed(children.get(select.ref.id, [])))
        while stack:
            e = stack.pop()
            if e.tag == "option":
                out.append(Element(ref=ElementRef(frame=frame.frame, id=e.id), index=0, tag="option", role="option",
                                   name=e.text, text=e.text, selected=e.selected, disabled="disabled" in e.attrs))
            elif e.tag == "optgroup":
                stack.extend(reversed(children.get(e.id, [])))
    return out


def web_link(el: Element, page_url: str) -> bool:
    """A link to an http(s) URL (the page itself included: which key an element gets must not depend on the page)."""
    url = link_url(el, page_url)
    return url is not None and url.split(":", 1)[0] in ("http", "https") and not el.attrs.get("href", "").strip().startswith("#")


def leads_elsewhere(el: Element, page_url: str) -> bool:
    """A plain link to another document of the web (the click should navigate)."""
    url = link_url(el, page_url)
    return url is not None and url.split(":", 1)[0] in ("http", "https") and not same_document_url(url, page_url) \
        and el.attrs.get("target", "").lower() in ("", "_self", "_top", "_parent")


def is_disclosure(el: Element) -> bool:
    """A control that shows and hides a region: <summary>, or one that says it is expanded or names what it controls."""
    return el.tag == "summary" or el.expanded is True or el.attrs.get("aria-expanded") == "true" or "aria-controls" in el.attrs


class Unreachable(Exception):
    """The state an element lives in could not be brought back (the page changed between loads)."""


class ExploreElement:
    """The paper's ExploreElement stage (appendix A.2), live: clicks on one page of one tab and records each
    transition, with the bookkeeping of which state the tab is in. It is iterate_page's live Clicker; the
    commit replays its outcomes through iterate.RecordedClicker."""

    def __init__(self, tab: ExploreTab, url: str) -> None:
        self.tab = tab
        self.url = url
        self.page: PageMem | None = None
        self.snapshot: Snapshot | None = None
        self.base_snapshot: Snapshot | None = None  # the first load, which the page's candidates come from
        self.base_page: PageMem | None = None
        self.path: tuple[str, ...] = ()
        self.dirty = True  # the tab may not show the state `path` names
        self.outcomes: list[ClickOutcome] = []
        self.loads = 0

    async def open(self) -> PageMem:
        """A fresh load of the page: the pre-click state."""
        self.snapshot = await self.tab.load(self.url)
        if self.base_snapshot is None:
            self.base_snapshot = self.snapshot
            self.base_page = divide_page(self.snapshot)
        self.page = divide_page(self.snapshot)
        self.path = ()
        self.dirty = False
        self.loads += 1
        return self.page

    def locate(self, key: str) -> Element | None:
        by_key = {k: ref for ref, k in element_keys(self.page).items()}
        ref = by_key.get(key)
        return None if ref is None else next((e for e in self.page.all_elements() if e.key == ref), None)

    async def reach(self, path: tuple[str, ...]) -> None:
        if not self.dirty and self.path == path:
            return
        if self.dirty or self.path != path[:len(self.path)]:
            await self.open()
        for key in path[len(self.path):]:
            trigger = self.locate(key)
            if trigger is None:
                raise Unreachable(f"the trigger {key} is not on the page after a reload")
            before = self.page.url
            result = await self.tab.click(trigger.ref)
            await asyncio.sleep(SETTLE_S)
            snapshot = await self.tab.snapshot()
            if not result.ok or not same_document_url(before, snapshot.url):
                self.dirty = True
                raise Unreachable(f"re-opening {key} did not give the same state ({result.error or snapshot.url})")
            update_page_mem(self.page, snapshot)
            self.snapshot = snapshot
            self.path = self.path + (key,)

    async def _wait_for_navigation(self, since: float) -> None:
        # A link whose script opens a popup instead (Django's related-object links) ends the wait too: waiting
        # out the timeout for a navigation that never comes cost seconds per such link.
        await self.tab.wait_for_navigation_or_popup(since, LINK_NAVIGATION_WAIT_S)

    async def click(self, path: tuple[str, ...], cand: ExploreTarget) -> ClickOutcome:
        """ExploreElement; a click that failed (a timeout on a busy machine, a page that did not load) is tried
        once more from a fresh load, so a passing hiccup does not change what is learned."""
        outcome = await self._click(path, cand)
        if outcome.error:
            log.info("%s: clicking %s failed (%s); trying once more", self.url, cand.element.name or cand.key, outcome.error)
            self.dirty = True
            outcome = await self._click(path, cand)
        self.outcomes.append(outcome)
        return outcome

    async def _click(self, path: tuple[str, ...], cand: ExploreTarget) -> ClickOutcome:
        outcome = ClickOutcome(path=list(path), key=cand.key)
        el = cand.element
        if el.tag == "select":
            # The options are the select's dropdown elements; the native popup is nothing to click.
            outcome.clicked = False
            # Its option ids belong to the document the select was read from: the first load for the page's own
            # elements, the current state for a select inside a dropdown.
            snapshot = self.base_snapshot if not path else (self.snapshot if not self.dirty and self.path == path else None)
            options = option_candidates(el, snapshot) if snapshot is not None else []
            outcome.revealed = [ExploreTarget(key=f"{cand.key}/option/{i}", dedup_key=f"{cand.dedup_key}/option/{i}",
                                              element=o, skip="an option of a native select",
                                              in_list_item=cand.in_list_item)
                                for i, o in enumerate(options)]
            return outcome
        if cand.shows:
            # An open <details>: its content is what its summary shows and hides; nothing to click.
            outcome.clicked = False
            shown = {(r.frame, r.id) for r in cand.shows}
            state = self.base_snapshot if not path else (self.snapshot if not self.dirty and self.path == path else None)
            page = self.base_page if not path else self.page
            if state is not None and page is not None:
                outcome.revealed = [c for c in page_candidates(page, state) if c.element.key in shown]
            return outcome
        if el.tag in ("a", "area") and el.attrs.get("target", "").lower() == "_blank":
            outcome.clicked = False
            outcome.navigated_to = link_url(el, self.url)
            return outcome
        try:
            await self.reach(path)
            live = self.locate(cand.key)
            if live is None:
                raise Unreachable(f"{cand.key} is not on the page after a reload")
            before = self.page.url
            started = time.monotonic()
            result = await self.tab.click(live.ref)
            if not result.ok:
                self.dirty = True
                outcome.error = result.error or "the click failed"
                return outcome
            if result.url_changed and result.url_after and not same_document_url(before, result.url_after) \
                    and not self.tab.opened_since(started):
                # Another document: the extension waited for its load, and its URL is all there is to learn.
                self.dirty = True
                if normalize_url(result.url_after) != normalize_url(self.url):
                    outcome.navigated_to = result.url_after
                return outcome
            if leads_elsewhere(live, before):
                # A link whose navigation had not begun within the extension's grace (a loaded machine): wait for it,
                # or the click would be recorded as doing nothing.
                await self._wait_for_navigation(started)
            await asyncio.sleep(SETTLE_S)
            snapshot = await self.tab.snapshot()
        except (Unreachable, PageLoadError, BridgeError) as exc:
            self.dirty = True
            outcome.error = str(exc)
            return outcome
        popups = {e.tab_id for e in self.tab.opened_since(started)}
        if popups:
            # window.open (Django's related-object links): where the popup went is where the click leads.
            urls = await self.tab.urls_of(popups)
            await self.tab.close_popups()
            outcome.navigated_to = next((u for u in urls if u.split(":", 1)[0] in ("http", "https")), None)
            self.dirty = True
            return outcome
        reloaded = any(same_document_url(e.url, before) for e in self.tab.navigated_since(started))
        if not same_document_url(before, snapshot.url) or reloaded:
            self.dirty = True
            if normalize_url(snapshot.url) != normalize_url(self.url):
                outcome.navigated_to = snapshot.url
            return outcome
        after = self.page.model_copy(deep=True)
        update = update_page_mem(after, snapshot)
        revealed = revealed_elements(update.added_elements, live)
        if revealed:
            shown = {e.key for e in revealed}
            outcome.revealed = [c for c in page_candidates(after, snapshot) if c.element.key in shown]
            outcome.after = after
            self.page, self.snapshot, self.path = after, snapshot, path + (cand.key,)
        elif update.removed_sections or any(not d.empty for d in update.diffs.values()):
            hidden = {e.key for d in update.diffs.values() for e in d.removed}
            hidden |= {e.key for s in update.removed_sections for e in s.all_elements()}
            hidden.discard(live.key)
            if hidden and is_disclosure(live):
                # An open disclosure closed (Django's list filters are open <details>): what it hid is what it shows.
                outcome.revealed = [c for c in page_candidates(self.page, self.snapshot) if c.element.key in hidden]
                outcome.hid = True
            self.dirty = True  # it changed the page in place (a toggle): start the next click afresh
        return outcome


__all__ = ["ExploreElement", "Unreachable", "option_candidates", "page_candidates"]
