"""The exploration coordinator: ExplorePage's depth-first order over the frontier, N workers, one memory.

The paper's exploration is sequential: ExplorePage(stub, d) registers the page, iterates it, and recurses
into the stubs it found, each at d-1, so what is explored depends on the order (E_w, the templates and the
set of known pages grow as it goes). Here the order is kept exactly, and the browsers work ahead of it:

- the frontier is a stack (frontier.py); the stub on top is the next page of the sequential order;
- idle workers take the next stubs below it and explore them ahead of time, with the memory as it is now
  (an older E_w and fewer known shapes than the page will meet when its turn comes: they click a superset);
- pages are committed one at a time, in the sequential order: the iteration is run again over the clicks the
  worker recorded (iterate.RecordedClicker) with the memory as it is at that point, so exactly the clicks the
  sequential explorer would have made are learned, and the stubs it would have found are pushed. A click the
  commit needs that the worker skipped (its E_w held a key that the commit's does not, which cannot happen,
  or --max-elements cut it off earlier) sends the page back for a live run with the current memory.

So one worker and N workers write the same records in the same order: the same memory. Every commit writes
the page's records and then the frontier; no await sits between those writes, so Ctrl-C (which cancels at
an await) lands between two pages, never inside one, and a resumed run starts from the last commit. The
commits of a few seconds are written to the file together (batch.CommitWindow); every way out of the run
writes them.
"""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass, field
from typing import Awaitable, Callable
from urllib.parse import urlsplit

from companion.explore.batch import CommitWindow
from companion.explore.controls import is_same_view, page_controls, query_params_changed, split_url
from companion.explore.explore_page import PageJob, explore_page
from companion.explore.frontier import load_state, new_state, push_children, save_state
from companion.explore.iterate import IterationLog, NotRecorded, RecordedClicker, eligible, iterate_page
from companion.explore.model import ClickOutcome, ExploreState, Limits, PageResult, Stub
from companion.explore.tabs import ExploreTab
from companion.memory.learn import learn_click, learn_page, refresh_bookmarks
from companion.memory.store import WebsiteMemStore, normalize_url, site_key
from companion.pagemem.model import PageMem
from companion.pagemem.template import fold

log = logging.getLogger(__name__)

Summarize = Callable[[PageMem, WebsiteMemStore], Awaitable[None]]
# What a query variant of a registered page is (controls.py).
CONTROL, PAGE = "control", "page"
# Stop reasons, as the closing report prints them.
FINISHED, MAX_PAGES, MAX_TIME, INTERRUPTED = "finished", "max-pages", "max-time", "interrupted"


class WorkerPool:
    """The browser tabs exploration runs in; a job waits for a free one (first come, first served)."""

    def __init__(self, tabs: list[ExploreTab]) -> None:
        if not tabs:
            raise ValueError("exploration needs at least one tab")
        self.tabs = tabs
        self._idle: asyncio.Queue[ExploreTab] = asyncio.Queue()
        for tab in tabs:
            self._idle.put_nowait(tab)
        self.busy: dict[ExploreTab, str] = {}  # tab -> the URL it is exploring (for the progress display)

    @property
    def size(self) -> int:
        return len(self.tabs)

    async def run(self, job: PageJob) -> PageResult:
        tab = await self._idle.get()
        self.busy[tab] = job.url
        try:
            return await explore_page(tab, job)
        finally:
            self.busy.pop(tab, None)
            self._idle.put_nowait(tab)

    @property
    def clicks(self) -> int:
        """Clicks the browsers made, speculative ones included (the committed count is in ExploreCounts)."""
        return sum(t.clicks for t in self.tabs)


@dataclass
class SiteReport:
    site: str
    start_url: str
    state: ExploreState
    stopped_by: str = FINISHED
    run_pages: int = 0  # pages committed by this run
    started: float = field(default_factory=time.monotonic)
    ended: float | None = None

    @property
    def elapsed(self) -> float:
        return (self.ended or time.monotonic()) - self.started


class SiteExplorer:
    """Explores one site from `start_url` into `store` (see the module docstring)."""

    def __init__(self, start_url: str, store: WebsiteMemStore, pool: WorkerPool, limits: Limits, *,
                 deadline: float, summarize: Summarize | None = None,
                 on_change: Callable[["SiteExplorer"], None] | None = None) -> None:
        self.start_url = normalize_url(start_url)
        self.site = site_key(start_url)
        self.store = store
        self.pool = pool
        self.limits = limits
        self.deadline = deadline
        self.summarize = summarize
        self.on_change = on_change or (lambda explorer: None)
        self.state = load_state(store, self.start_url) or new_state(self.start_url)
        self.report = SiteReport(self.site, self.start_url, self.state)
        self._done = set(self.state.done)
        self._jobs: dict[str, asyncio.Task[PageResult]] = {}
        self.window = CommitWindow(store)

    # ------------------------------------------------------------------ the depth-first loop

    async def run(self) -> SiteReport:
        try:
            self.report.stopped_by = await self._loop()
        except asyncio.CancelledError:
            self.report.stopped_by = INTERRUPTED
            raise
        finally:
            self.report.ended = time.monotonic()
            for task in self._jobs.values():
                task.cancel()
            await asyncio.gather(*self._jobs.values(), return_exceptions=True)
            self._jobs.clear()
            try:
                if self.report.stopped_by == FINISHED and not self.state.finished:
                    self.state.finished = True
                    with self.window.commit():
                        save_state(self.store, self.state)
            finally:
                self.window.close()  # whatever ended the run: what was committed is written
            self.on_change(self)
        return self.report

    async def _loop(self) -> str:
        stack = self.state.stack
        while stack:
            stub = stack[-1]
            if stub.url in self._done:
                stack.pop()
                ahead = self._jobs.pop(stub.url, None)
                if ahead is not None:
                    ahead.cancel()  # explored ahead for a URL that turned out to be known: not needed
                continue
            if self._variant_role(stub.url) == CONTROL:
                with self.window.commit():
                    self._record_control(stub, stub.url)  # another value of a known control: nothing to load
                continue
            if self.state.counts.pages >= self.limits.max_pages:
                return MAX_PAGES
            remaining = self.deadline - time.monotonic()
            if remaining <= 0:
                return MAX_TIME
            task = self._dispatch(stub.url)
            self._speculate()
            self.on_change(self)
            try:
                result = await asyncio.wait_for(asyncio.shield(task), remaining)
            except asyncio.TimeoutError:
                return MAX_TIME
            self._jobs.pop(stub.url, None)
            await self._commit(stub, result)
            self.on_change(self)
        return FINISHED

    def _job(self, url: str) -> PageJob:
        base = self._base_of(url)
        return PageJob(url=url, explored=self._explored(), known_shapes=sorted(self._shapes(url)),
                       max_elements=self.limits.max_elements,
                       base=self.store.load_page(base) if base and self._variant_role(url) != PAGE else None)

    # ------------------------------------------------------------------ query variants (controls.py)

    def _base_of(self, url: str) -> str | None:
        """The registered page `url` is a query variant of, if any: of the pages registered at its path, the one with
        the most query parameters (`?page=orders` before the bare path, for `?page=orders&sort=name`), the first
        registered among equals."""
        bases = [b for b in self.state.bases.get(split_url(url)[0], []) if query_params_changed(url, b)]
        return max(bases, key=lambda b: len(split_url(b)[1]), default=None)

    def _variant_role(self, url: str) -> str | None:
        """CONTROL or PAGE when a variant changing the same parameters at this path pattern settled it; None when
        `url` is no query variant or its parameters are not settled yet."""
        base = self._base_of(url)
        if base is None:
            return None
        return self.state.query_roles.get(_path_of(url), {}).get(",".join(query_params_changed(url, base)))

    def _explored(self) -> set[str]:
        """E_w as the memory holds it now, committed pages included (the file is parsed again only when another
        process changed it: storage.py)."""
        return self.store.explored()

    def _shapes(self, url: str) -> set[str]:
        """Structures (PageMem.template_id) of the pages explored at this URL's path pattern (_path_of).

        MatchesTemplate, refined by the URL: a page is a known-shape duplicate (registered, not iterated) when an
        explored page of its path pattern has its structure: another product of the shop (/product/12 after
        /product/7), a sorted or filtered or later page of a list, another order's change page. Structure alone
        is not enough: one template often serves pages of different kinds (the Django admin's change list serves
        every model, with the same sections) whose elements lead to different places, and skipping them would
        leave whole parts of the site unseen. A shape that recurs at a path pattern is registered as a template
        (besides the paper's list and list-item rule, learn.register_template), so a page that shows no list
        and was not reached from one still shares its template's purposes and summaries."""
        return set(self.state.shapes.get(_path_of(url), []))

    def _dispatch(self, url: str) -> asyncio.Task[PageResult]:
        task = self._jobs.get(url)
        if task is None:
            task = self._jobs[url] = asyncio.create_task(self.pool.run(self._job(url)), name=f"explore {url}")
        return task

    def _speculate(self) -> None:
        """Idle workers take the next pages of the order (see the module docstring)."""
        running = sum(1 for t in self._jobs.values() if not t.done())
        for stub in reversed(self.state.stack):
            if running >= self.pool.size:
                return
            if stub.url in self._done or stub.url in self._jobs or self._variant_role(stub.url) == CONTROL:
                continue
            self._dispatch(stub.url)
            running += 1

    # ------------------------------------------------------------------ commit, in the sequential order

    async def _commit(self, stub: Stub, result: PageResult) -> None:
        counts = self.state.counts
        final = result.final_url
        if result.error or result.pagemem is None:
            log.warning("%s: %s", stub.url, result.error)
            counts.failed += 1
            self._finish(stub, [])
            return
        if site_key(final) != self.site or (final != stub.url and final in self._done):
            self._finish(stub, [final])  # redirected off the site, or to a page explored already
            return
        page = result.pagemem.model_copy(deep=True)
        if self._settle_variant(stub.url, page) == CONTROL:
            with self.window.commit():
                self._record_control(stub, final)
            return
        matched = page.template_id in self._shapes(final)
        iteration: IterationLog | None = None
        if not matched:
            iteration = await self._replay(stub, result)
            if iteration is None:  # the worker's view was too old for this page: explore it again now
                counts.reruns += 1
                result = await self.pool.run(self._job(stub.url))
                if result.error or result.pagemem is None:
                    counts.failed += 1
                    self._finish(stub, [])
                    return
                page = result.pagemem.model_copy(deep=True)
                iteration = await self._replay(stub, result)
                if iteration is None:
                    raise RuntimeError(f"{stub.url}: a live exploration with the current memory could not be replayed")
        if self.summarize is not None:
            await self.summarize(page, self.store)
        # No await below this line: the page's records and the frontier go to the file together (batch.py).
        with self.window.commit():
            self._record(stub, final, page, result, matched, iteration)

    def _settle_variant(self, url: str, page: PageMem) -> str | None:
        """For a query variant: CONTROL or PAGE, settled on its first load by whether it shows its base page's view
        (controls.is_same_view), and remembered for the same parameters at its path pattern."""
        base = self._base_of(url)
        if base is None:
            return None
        roles = self.state.query_roles.setdefault(_path_of(url), {})
        params = ",".join(query_params_changed(url, base))
        if params not in roles:
            base_page = self.store.load_page(base)
            roles[params] = CONTROL if base_page is not None and is_same_view(page, base_page) else PAGE
        return roles[params]

    def _record_control(self, stub: Stub, final: str) -> None:
        """The stub was a control of its base page: the page's controls are recorded again, no page is."""
        self.state.counts.controls += 1
        base = self._base_of(stub.url)
        page = self.store.load_page(base) if base else None
        if page is not None:
            self._save_controls(page)
            refresh_bookmarks(self.store)  # a bookmark is named by its controls too
        self._finish(stub, [final])

    def _save_controls(self, page: PageMem) -> None:
        url = normalize_url(page.url)  # as the stubs, whose query roles these are, are keyed
        roles = self.state.query_roles.get(_path_of(url), {})
        params = {p for key, role in roles.items() if role == CONTROL for p in key.split(",")}
        self.store.set_controls(url, page_controls(page, params))

    def _record(self, stub: Stub, final: str, page: PageMem, result: PageResult, matched: bool,
                iteration: IterationLog | None) -> None:
        counts = self.state.counts
        explored_before = self.store.explored()
        learn_page(self.store, page, source="explore", visit=False, from_list_item=stub.list_item)
        self.state.bases.setdefault(split_url(final)[0], []).append(final)
        self._save_controls(page)  # its search box, and the parameters known to be controls at its path
        counts.pages += 1
        self.report.run_pages += 1
        shapes = self.state.shapes.setdefault(_path_of(final), [])
        if page.template_id not in shapes:
            shapes.append(page.template_id)
        if matched:
            if self.store.find_template(page) is None:
                self.store.add_template(page)  # a shape seen twice at one path pattern is a template
            counts.template_pages += 1
            counts.skipped_by_template += eligible(result.candidates, explored_before)
            counts.templates = len(self.store.templates())
            self._finish(stub, [final])
            return
        self.state.iterated.append(final)
        self._learn_clicks(page, result, iteration.outcomes)
        self.store.mark_explored(iteration.explored_keys + iteration.covered_keys)
        counts.clicks += iteration.clicks
        counts.dropdowns += sum(1 for o in iteration.outcomes if o.revealed)
        counts.navigations += sum(1 for o in iteration.outcomes if o.navigated_to)
        counts.skipped_explored += iteration.skipped_explored
        counts.skipped_by_list_item += iteration.skipped_by_list_item
        counts.skipped_by_limit += iteration.skipped_by_limit
        counts.skipped_unsafe += sum(iteration.skipped_unsafe.values())
        counts.failed += iteration.failed
        # A URL already on the frontier keeps the smallest depth it is known at: reached again deeper inside
        # another page's subtree (depth-first order), it must not lose the pages below it to --max-depth.
        known = {}
        for s in self.state.stack:
            known[s.url] = min(s.depth, known.get(s.url, s.depth))
        found = [s.model_copy(update={"depth": min(s.depth, known.get(s.url, s.depth))}) for s in iteration.stubs]
        children = [s for s in found if s.depth <= self.limits.max_depth]
        counts.beyond_depth += len(found) - len(children)
        counts.templates = len(self.store.templates())
        self._finish(stub, [final], children)

    async def _replay(self, stub: Stub, result: PageResult) -> IterationLog | None:
        if not result.iterated:
            return None
        here = {stub.url, result.final_url}
        try:
            return await iterate_page(result.candidates, RecordedClicker(result), self._explored(),
                                      max_elements=self.limits.max_elements, page_url=result.pagemem.url,
                                      is_known=lambda url: url in self._done or url in here, depth=stub.depth)
        except NotRecorded as exc:
            log.info("%s: the worker did not click %s; exploring it again", stub.url, exc)
            return None

    def _learn_clicks(self, page: PageMem, result: PageResult, outcomes: list[ClickOutcome]) -> None:
        """learn_click for every committed click, each against the page state it was made in (a trigger's
        outcome comes before those of what it revealed, so that state is known when they come)."""
        states: dict[tuple[str, ...], PageMem] = {(): page}
        candidates = {((), c.key): c for c in result.candidates}
        for o in outcomes:
            path = tuple(o.path)
            cand = candidates.get((path, o.key))
            where = states.get(path, page)
            opened = path + (o.key,)
            if o.after is not None:
                states[opened] = o.after
            for c in o.revealed:
                candidates[(opened, c.key)] = c
            if cand is None or o.error:
                continue
            if o.revealed:
                learn_click(self.store, o.after or where, cand.element, revealed=[c.element for c in o.revealed],
                            source="explore", trigger_key=o.key)
            else:
                learn_click(self.store, where, cand.element, navigated_to=o.navigated_to, source="explore",
                            trigger_key=o.key)

    def _finish(self, stub: Stub, aliases: list[str], children: list[Stub] | None = None) -> None:
        """The stub is done: off the stack, its children on top, it (and where it led) marked explored, and the
        frontier written."""
        stack = self.state.stack
        if stack and stack[-1] is stub:
            stack.pop()
        push_children(self.state, children or [])
        for url in [stub.url, *aliases]:
            if url and url not in self._done:
                self._done.add(url)
                self.state.done.append(url)
        save_state(self.store, self.state)


def _path_of(url: str) -> str:
    """The URL's path pattern: no query, digits folded (/customer/6/change and /customer/11/change are one)."""
    p = urlsplit(url)
    return f"{p.scheme}://{p.netloc}{fold(p.path)}"


async def explore_sites(start_urls: list[str], stores: dict[str, WebsiteMemStore], tabs: list[ExploreTab], limits: Limits, *,
                        summarize: Summarize | None = None,
                        on_change: Callable[[SiteExplorer], None] | None = None) -> list[SiteReport]:
    """Explore each start URL (one site each) with the shared tabs; Ctrl-C (cancellation) stops them cleanly."""
    pool = WorkerPool(tabs)
    deadline = time.monotonic() + limits.max_time
    explorers = [SiteExplorer(url, stores[site_key(url)], pool, limits, deadline=deadline, summarize=summarize,
                              on_change=on_change) for url in start_urls]
    tasks = [asyncio.create_task(e.run(), name=f"explore {e.site}") for e in explorers]
    try:
        await asyncio.gather(*tasks)
    except asyncio.CancelledError:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        for e in explorers:
            e.report.stopped_by = INTERRUPTED if e.report.stopped_by == FINISHED and not e.state.finished else e.report.stopped_by
    return [e.report for e in explorers]


__all__ = ["FINISHED", "INTERRUPTED", "MAX_PAGES", "MAX_TIME", "SiteExplorer", "SiteReport", "WorkerPool", "explore_sites"]
