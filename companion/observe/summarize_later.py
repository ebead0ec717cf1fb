"""Summaries made later: the sections of passively learned pages get their purpose, summary and state (and the
page its one-sentence summary) in the background, so browsing never waits for an LLM.

    summarizer = BackgroundSummarizer(busy=hub.busy, memory_dir=...)
    task = summarizer.start()              # on the companion's loop (`webchallenger serve`)
    summarizer.enqueue(site, url)          # from any thread: PassiveLearner's on_page

A queue of pages whose sections lack summaries, oldest first, each page once. One LLM call at a time (the
observation pipeline's own section_summary / page_summary calls, observe/abstraction.py), and only while
`busy()` is false: a task that starts while a call is in flight cancels that call (the section is asked
again later), so the model is the task's alone. What a call wrote goes into the site's summary and purpose
caches by content hash (so every page showing that content is served without a call, the agent's included)
and into the stored page as it is now: a page the user revisited meanwhile keeps its newer state.

Memory writes run in a worker thread; a failed call is logged and its page dropped (its next visit queues it
again), never retried in a loop. A call with no valid answer gets the pipeline's stand-in (llm/fallback.py), which
is never saved: the section stays to be summarized, and the page summary waits for the model's section summaries.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections import OrderedDict
from pathlib import Path
from typing import Callable

from companion.memory.records import PageStats
from companion.memory.store import WebsiteMemStore, normalize_url
from companion.observe.abstraction import abstract_section, needs_abstraction, page_key, remember_sections, summarize_page
from companion.observe.budget import Budget
from companion.observe.calls import Accounting, Caller, LLMLike
from companion.pagemem.model import PageMem, PageSection

log = logging.getLogger(__name__)

IDLE_POLL_S = 0.25  # how often a waiting summarizer looks whether the task is over, and a call whether one began
ERROR_PAUSE_S = 5.0  # after a failed call: a model that is down is not asked again at once
MAX_QUEUE = 500


class BackgroundSummarizer:
    def __init__(self, busy: Callable[[], bool], memory_dir: Path | None = None, client: LLMLike | None = None,
                 budget: Budget | None = None) -> None:
        self.busy = busy
        self.memory_dir = memory_dir
        self.budget = budget or Budget()
        self.accounting = Accounting()
        self.caller = Caller(client, self.budget, self.accounting)
        self._queue: OrderedDict[tuple[str, str], None] = OrderedDict()
        self._lock = threading.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._wake: asyncio.Event | None = None
        self._task: asyncio.Task | None = None
        self.cancelled_calls = 0  # calls given up because a task started
        self.pages_done = 0

    @property
    def calls(self) -> int:
        return self.accounting.count

    # ------------------------------------------------------------------ queue (any thread)

    def enqueue(self, site: str, url: str) -> None:
        with self._lock:
            key = (site, normalize_url(url))
            if key in self._queue:
                return
            if len(self._queue) >= MAX_QUEUE:
                self._queue.popitem(last=False)  # the oldest waits for its next visit
            self._queue[key] = None
        if self._loop is not None and not self._loop.is_closed():
            self._loop.call_soon_threadsafe(self._wake_up)

    def pending(self) -> list[tuple[str, str]]:
        with self._lock:
            return list(self._queue)

    def _wake_up(self) -> None:
        if self._wake is not None:
            self._wake.set()

    def _next(self) -> tuple[str, str] | None:
        with self._lock:
            return next(iter(self._queue), None)

    def _done(self, key: tuple[str, str]) -> None:
        with self._lock:
            self._queue.pop(key, None)

    # ------------------------------------------------------------------ running (the companion's loop)

    def start(self) -> asyncio.Task:
        """Run on the current loop until stop()."""
        self._loop = asyncio.get_running_loop()
        self._wake = asyncio.Event()
        self._task = asyncio.ensure_future(self.run())
        return self._task

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            try:
                await self._task
            except asyncio.CancelledError:
                pass
            self._task = None

    async def run(self) -> None:
        if self._wake is None:
            self._loop, self._wake = asyncio.get_running_loop(), asyncio.Event()
        while True:
            key = self._next()
            if key is None:
                self._wake.clear()
                await self._wake.wait()
                continue
            await self._idle()
            try:
                finished = await self._summarize(*key)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                log.warning("background summary of %s failed: %s", key[1], exc)
                self._done(key)
                await asyncio.sleep(ERROR_PAUSE_S)
                continue
            if finished:
                self._done(key)
                self.pages_done += 1

    async def _idle(self) -> None:
        while self.busy():
            await asyncio.sleep(IDLE_POLL_S)

    async def _while_idle(self, coro) -> tuple[bool, object]:
        """Run one LLM call; cancel it when a task starts. (True, result) or (False, None) when cancelled."""
        call = asyncio.ensure_future(coro)
        while True:
            done, _ = await asyncio.wait({call}, timeout=IDLE_POLL_S)
            if done:
                return True, call.result()
            if self.busy():
                call.cancel()
                try:
                    await call
                except (asyncio.CancelledError, Exception):
                    pass
                self.cancelled_calls += 1
                return False, None

    async def _summarize(self, site: str, url: str) -> bool:
        """Summarize the page's sections one call at a time. True: the page is done (or gone); False: a task
        started, it stays first in the queue."""
        store = await asyncio.to_thread(WebsiteMemStore, site, self.memory_dir)
        try:
            page = await asyncio.to_thread(_load_filled, store, url)
            if page is None:
                return True
            for section in page.sections:
                if not needs_abstraction(section):
                    continue
                await self._idle()
                finished, called = await self._while_idle(abstract_section(self.caller, section, page, None, self.budget))
                if not finished:
                    return False
                if called:
                    await asyncio.to_thread(_record, store, page, [section])
            # A page summary is asked of the model's own section summaries only: built on a stand-in, it would
            # be stored as though the model had read the page.
            if page.summary is None and all(s.summary is not None and not s.stood_in for s in page.sections):
                await self._idle()
                finished, _ = await self._while_idle(summarize_page(self.caller, page, None, self.budget))
                if not finished:
                    return False
            await asyncio.to_thread(_save_into_stored, store, page)
            return True
        finally:
            store.close()


# --------------------------------------------------------------------------- memory side (worker thread)


def _load_filled(store: WebsiteMemStore, url: str) -> PageMem | None:
    page = store.load_page(url)
    if page is not None:
        store.apply_cached(page)
    return page


def _record(store: WebsiteMemStore, page: PageMem, sections: list[PageSection]) -> None:
    """What the LLM wrote, into the caches by content hash (served to every page that shows it)."""
    remember_sections(store, sections, page.template_id)


def _save_into_stored(store: WebsiteMemStore, page: PageMem) -> None:
    """Give the stored page (as it is now: the user may have come back meanwhile) the abstractions of its
    sections whose content is unchanged, and the page summary when all its sections are the same."""
    with store.locked():
        stored = store.load_page(page.url)
        if stored is None:
            return
        # A stand-in (llm/fallback.py: no valid answer) is not the model's summary: stored, it would be permanent.
        made = {(s.signature, s.content_hash): s for s in page.sections
                if s.content_hash and s.summary is not None and not s.stood_in}
        for s in stored.sections:
            done = made.get((s.signature, s.content_hash))
            if done is not None and needs_abstraction(s):
                s.summary, s.state_summary, s.needs_summary = done.summary, done.state_summary, False
                s.purpose = s.purpose or done.purpose
        if page.summary and not page.summary_stood_in:
            store.store_summary(page_key(page), page.summary)
            if stored.summary is None and page_key(stored) == page_key(page):
                stored.summary = page.summary
        store.save_page(stored)
    if stored.summary:
        url = normalize_url(stored.url)

        def note_summary(stats: dict[str, PageStats]) -> list[PageStats]:
            st = stats.get(url)
            if st is None or st.summary == stored.summary:
                return []
            st.summary = stored.summary or ""
            return [st]

        store.update_page_stats(note_summary)  # a bookmark's note is its page's summary (learn.py)


__all__ = ["BackgroundSummarizer"]
