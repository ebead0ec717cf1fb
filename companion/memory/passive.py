"""Passive learning: the pages the user browses and the clicks they make teach the site's memory (issue 10 item 4).

The extension reports, for tabs no task drives (companion/protocol.py):
  page_visited  a passive snapshot once a page settled;
  user_clicked  a trusted click, naming the snapshot it was made on (`before`) and what followed: a navigation
                (`navigated_to`) or the same document once it settled again (`after`).

PassiveLearner turns them into memory through the one learn API (memory/learn.py), as exploration and the
agent do: a page is divided (DividePage) and registered by learn_page (templates, visits, links, bookmarks); a
click that revealed elements on the same page gives its element those dropdown elements (the before/after diff,
pagemem/update.py), a click that navigated links the two pages (learn_click). Summaries are not made here: the
page is handed to `on_page` (the background summarizer, observe/summarize_later.py) and browsing never waits for
an LLM.

Nothing of a site is learned unless its policy (memory/learning_consent.py) is "allow": "block" and "ask" (the default)
drop every event, and nothing of such a page is held even in this process. The companion enforces this whatever
the extension does. No field value is stored: the passive snapshot carries none, and `scrub_snapshot` drops any
that a sender put in anyway, with the query values of a page reached by a form submission.

Every method is synchronous and meant for one worker thread (panel/passive.py runs them in order, off the
connection's loop); results say what happened, for logs and tests.
"""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Literal
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from companion.memory.learn import learn_click, learn_page
from companion.memory.learning_consent import ConsentChoice, learning_consent
from companion.memory.storage import MemoryBusyError, MemoryFileError
from companion.memory.store import WebsiteMemStore, normalize_url, site_key
from companion.pagemem.divide import divide_page
from companion.pagemem.identity import element_key
from companion.pagemem.model import Element, PageMem
from companion.pagemem.update import revealed_elements, update_page_mem
from companion.protocol import ElementRef, PageVisited, Snapshot, UserClicked
from companion.urls import WEB_SCHEMES, parse_url

log = logging.getLogger(__name__)

MAX_TABS = 64  # the page state kept per tab for the next click's diff: the most recently reported tabs
MAX_OPEN_STORES = 16

Outcome = Literal["learned", "dropped"]


@dataclass(frozen=True)
class Learned:
    """What one event did: `outcome` and why, the site and page it concerned."""

    outcome: Outcome
    reason: str
    site: str = ""
    url: str = ""
    revealed: int = 0
    navigated_to: str | None = None


@dataclass
class _TabState:
    message_id: str  # the page_visited / user_clicked whose snapshot this is
    pagemem: PageMem  # as divided (and updated by clicks), before learn_page filled caches into a copy


def web_site(url: str) -> str:
    """The site key of an http(s) URL; "" for anything else (never learned)."""
    parsed = parse_url(url)
    if parsed is None or parsed.scheme not in WEB_SCHEMES or not parsed.hostname:
        return ""
    return site_key(parsed.href)


def site_policy(url: str, policy_dir: Path | None = None) -> tuple[str, ConsentChoice]:
    """(site key, policy) for `url`; a URL that is no web site is ("", "block")."""
    site = web_site(url)
    return (site, learning_consent(site, policy_dir)) if site else ("", "block")


def _without_query_values(url: str) -> str:
    p = urlsplit(url)
    if not p.query:
        return url
    return urlunsplit((p.scheme, p.netloc, p.path, urlencode([(k, "") for k, _ in parse_qsl(p.query, keep_blank_values=True)]), ""))


def scrub_snapshot(snapshot: Snapshot, form_submission: bool = False) -> Snapshot:
    """The snapshot as passive learning may read it: no field values, checked or selected state (what the user
    entered), and for the answer to a form submission no query values in the page's URL (what they typed)."""
    frames = []
    for frame in snapshot.frames:
        elements = [e.model_copy(update={"value": None, "checked": None, "selected": None})
                    if (e.value is not None or e.checked is not None or e.selected is not None) else e
                    for e in frame.elements]
        url = _without_query_values(frame.url) if form_submission and frame.frame == 0 else frame.url
        frames.append(frame.model_copy(update={"elements": elements, "url": url}))
    url = _without_query_values(snapshot.url) if form_submission else snapshot.url
    return snapshot.model_copy(update={"frames": frames, "url": url})


def _in_form(page: PageMem, element: Element) -> bool:
    section = page.section_of(element.ref)
    return section is not None and (section.form is not None or section.kind == "form")


def same_document(a: str, b: str) -> bool:
    """Two URLs of one document: equal but for the fragment."""
    return urlsplit(a)._replace(fragment="") == urlsplit(b)._replace(fragment="")


class PassiveLearner:
    """Learns from page_visited and user_clicked (module docstring).

    memory_dir / policy_dir: where site memory and the learning policy live (None: the data directory).
    on_page(site, url): called after a page was learned (the background summarizer queues it)."""

    def __init__(self, memory_dir: Path | None = None, policy_dir: Path | None = None,
                 on_page: Callable[[str, str], None] | None = None) -> None:
        self.memory_dir = memory_dir
        self.policy_dir = policy_dir
        self.on_page = on_page
        self._tabs: OrderedDict[int, _TabState] = OrderedDict()
        self._stores: OrderedDict[str, WebsiteMemStore] = OrderedDict()
        self._lock = threading.Lock()  # one event at a time, whichever thread calls
        self.history: list[Learned] = []  # the latest outcomes, for logs and tests
        self.learned_pages = 0
        self.learned_clicks = 0

    # ------------------------------------------------------------------ events

    def page_visited(self, message: PageVisited) -> Learned:
        with self._lock:
            return self._note(self._page_visited(message))

    def user_clicked(self, message: UserClicked) -> Learned:
        with self._lock:
            return self._note(self._user_clicked(message))

    def forget_tab(self, tab: int) -> None:
        with self._lock:
            self._tabs.pop(tab, None)

    def close(self) -> None:
        with self._lock:
            for store in self._stores.values():
                store.close()
            self._stores.clear()
            self._tabs.clear()

    # ------------------------------------------------------------------ pages

    def _page_visited(self, message: PageVisited) -> Learned:
        url = message.snapshot.url
        self._tabs.pop(message.tab_id, None)  # a new document: the old state is no before-page of anything now
        site, policy = site_policy(url, self.policy_dir)
        if policy != "allow":
            return Learned("dropped", f"policy {policy}" if site else "not a web page", site, url)
        snapshot = scrub_snapshot(message.snapshot, message.form_submission)
        pagemem = divide_page(snapshot)
        store = self._store(site)
        if store is None:
            return Learned("dropped", "memory unavailable", site, snapshot.url)
        learn_page(store, pagemem.model_copy(deep=True), source="passive")
        self._keep(message.tab_id, _TabState(message.id, pagemem))
        self.learned_pages += 1
        if self.on_page is not None:
            self.on_page(site, pagemem.url)
        return Learned("learned", "page", site, pagemem.url)

    # ------------------------------------------------------------------ clicks

    def _user_clicked(self, message: UserClicked) -> Learned:
        state = self._tabs.get(message.tab_id)
        if state is None or state.message_id != message.before:
            return Learned("dropped", "the page before the click is not known")
        page = state.pagemem
        site, policy = site_policy(page.url, self.policy_dir)
        if policy != "allow":
            self._tabs.pop(message.tab_id, None)
            return Learned("dropped", f"policy {policy}", site, page.url)
        element = self._clicked_element(page, message.target.frame, message.path or [message.target.id])
        if element is None:
            return Learned("dropped", "the click was on no element of the page", site, page.url)
        store = self._store(site)
        if store is None:
            return Learned("dropped", "memory unavailable", site, page.url)
        trigger_key = element_key(page, element)  # before the click: it may change the page around the element
        target = message.navigated_to
        if target is None and message.after is not None and not same_document(message.after.url, page.url):
            target = message.after.url
        if target is not None:
            if _in_form(page, element):
                target = _without_query_values(target)  # a submitted form's query holds what the user typed
            self._tabs.pop(message.tab_id, None)  # the page_visited of the new document follows
            learn_click(store, page, element, navigated_to=target, source="passive", trigger_key=trigger_key)
            self.learned_clicks += 1
            return Learned("learned", "navigating click", site, page.url, navigated_to=normalize_url(target))
        if message.after is None:
            return Learned("dropped", "the click reported no outcome", site, page.url)
        after = page.model_copy(deep=True)
        update = update_page_mem(after, scrub_snapshot(message.after))
        trigger = after.element_by_ref(element.ref) or element
        revealed = revealed_elements(update.added_elements, trigger)
        learn_click(store, after if revealed else page, trigger, revealed=revealed or None, source="passive",
                    trigger_key=trigger_key)
        self._keep(message.tab_id, _TabState(message.id, after))  # the next click is made on this state
        self.learned_clicks += 1
        return Learned("learned", "revealing click" if revealed else "click", site, page.url, revealed=len(revealed))

    @staticmethod
    def _clicked_element(page: PageMem, frame: int, path: list[int]) -> Element | None:
        """The innermost element of the page on the click's path: a click on a link's icon is a click on the link."""
        for eid in path:
            el = page.element_by_ref(ElementRef(frame=frame, id=eid))
            if el is not None:
                return el
        return None

    # ------------------------------------------------------------------ bookkeeping

    def _keep(self, tab: int, state: _TabState) -> None:
        self._tabs[tab] = state
        self._tabs.move_to_end(tab)
        while len(self._tabs) > MAX_TABS:
            self._tabs.popitem(last=False)

    def _store(self, site: str) -> WebsiteMemStore | None:
        store = self._stores.get(site)
        if store is None:
            try:
                store = WebsiteMemStore(site, self.memory_dir)
            except (MemoryFileError, MemoryBusyError, OSError) as exc:
                # A damaged file is kept as it is (integrity.py reports where); browsing goes on unlearned.
                log.warning("passive learning: %s", exc)
                return None
            self._stores[site] = store
            while len(self._stores) > MAX_OPEN_STORES:
                self._stores.popitem(last=False)[1].close()
        self._stores.move_to_end(site)
        return store

    def _note(self, result: Learned) -> Learned:
        self.history = (self.history + [result])[-200:]
        log.debug("passive learning: %s (%s) %s", result.outcome, result.reason, result.url)
        return result


__all__ = ["Learned", "PassiveLearner", "same_document", "scrub_snapshot", "site_policy", "web_site"]
