"""SiteMemory: the agent's WebsiteMems for one task, one store per site (paper §2.3, M_w).

A task can cross sites (a shop's checkout on a payment host, a link to a manufacturer), so the store is
chosen by the URL of the page at hand, never by the start URL alone. What is learned from a visited page is
decided by memory/learn.py (learn_page: the page, its summaries and purposes, its template, visits and links
for bookmarks), the same function exploration and passive learning call; the agent's clicks are recorded by
the act workflows (learn_click). This module only chooses the store and keeps what lives for one task: a
page entered again in the task gets back its sections' extractions (per task, never persisted) and
abstractions wherever a section's content is unchanged, so those sections cost no call.

Memory is a cache: a failed write is logged and the task goes on.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Callable

from companion.memory.learn import REMEMBERED_SCHEMES, learn_page, remembered
from companion.memory.storage import MemoryBusyError, MemoryFileError
from companion.memory.store import WebsiteMemStore, normalize_url, site_key
from companion.pagemem.model import PageMem, PageSection

log = logging.getLogger(__name__)

__all__ = ["REMEMBERED_SCHEMES", "SiteMemory", "reuse_sections"]


def reuse_sections(previous: PageMem, page: PageMem) -> int:
    """Give `page` (just divided) what this task already knows of `previous` (the same URL, entered earlier):
    for every section whose signature and content are unchanged, its extractions, summary, state and
    purpose. Returns how many sections were served."""
    def sections(pm: PageMem) -> list[PageSection]:
        return [x for s in pm.sections for x in (s, *s.items)]

    known = {(s.signature, s.content_hash): s for s in sections(previous) if s.content_hash}
    served = 0
    for s in sections(page):
        old = known.get((s.signature, s.content_hash))
        if old is None:
            continue
        s.extractions = {**old.extractions, **s.extractions}
        if old.summary is not None and not old.needs_summary:
            s.summary, s.state_summary, s.needs_summary = old.summary, old.state_summary, False
            s.stood_in = old.stood_in
        s.purpose = s.purpose or old.purpose
        served += 1
    if page.summary is None and previous.summary and served == len(sections(page)) == len(sections(previous)):
        page.summary, page.summary_stood_in = previous.summary, previous.summary_stood_in
    return served


def _forget_cached(pagemem: PageMem) -> None:
    for section in pagemem.sections:
        for s in (section, *section.items):
            s.summary = s.purpose = s.state_summary = None
            s.needs_summary = True


class SiteMemory:
    """Opens each site's WebsiteMemStore on first use; close() closes them all."""

    def __init__(self, directory: Path | None = None, warn: Callable[[str], None] | None = None) -> None:
        """warn: told, once per site, when a site's memory file is unreadable and the task goes on without it."""
        self.directory = directory
        self.warn = warn or (lambda text: None)
        self._stores: dict[str, WebsiteMemStore] = {}
        self._entered: dict[str, PageMem] = {}  # normalized URL -> the PageMem of its latest entry in this task
        self._visits: list[PageMem] = []  # PageMems already counted as a visit (held: identity, not id())

    def store_for(self, url: str) -> WebsiteMemStore:
        """The store of the site `url` belongs to (opened once per task). When the site's file is unreadable
        (or locked past the timeout) the task goes on with a scratch store held in memory; the file is left
        untouched (a copy is kept beside it when it can be read) and `warn` gets the error's text, which says
        where the file and its copy are and how to start afresh."""
        key = site_key(url)
        store = self._stores.get(key)
        if store is None:
            try:
                store = WebsiteMemStore(key, self.directory)
            except (MemoryFileError, MemoryBusyError, OSError) as exc:
                # Damaged (integrity.py's shapes, a directory, an unreadable file), or held by a stuck process:
                # the file is never written, the task is never ended for it.
                log.warning("%s", exc)
                self.warn(f"Working without memory for {key}: {exc}")
                store = WebsiteMemStore(key, self.directory, in_memory=True)
            self._stores[key] = store
        return store

    def attach(self, ctx, observer=None) -> WebsiteMemStore:
        """Point the AgentContext (and the PageObserver) at the store of the page they now show, and fill the
        page's summaries and purposes from it. Call after each refresh that may have entered a new page."""
        store = self.store_for(ctx.url)
        if ctx.store is not store:
            if ctx.store is not None and ctx.pagemem is not None:
                # refresh() filled the new page from the previous page's store (the site changed, so the
                # page was just divided and holds nothing else): what another site's memory said about
                # structurally similar sections must not stick.
                _forget_cached(ctx.pagemem)
            ctx.store = store
            if ctx.pagemem is not None:
                store.apply_cached(ctx.pagemem)
        page = ctx.pagemem
        if page is not None and remembered(page.url):
            url = normalize_url(page.url)
            previous = self._entered.get(url)
            if previous is not None and previous is not page:
                reuse_sections(previous, page)
            self._entered[url] = page
        if observer is not None:
            observer.store = store
        return store

    def remember(self, pagemem: PageMem | None) -> bool:
        """Save a visited page into its site's WebsiteMem. Returns True when it was written."""
        if pagemem is None or not remembered(pagemem.url):
            return False
        first = not any(p is pagemem for p in self._visits)
        try:
            learn_page(self.store_for(pagemem.url), pagemem, source="agent", visit=first)
            if first:
                self._visits.append(pagemem)
        except Exception:  # the memory is a cache: losing one page must not end the user's task
            log.exception("could not remember %s", pagemem.url)
            return False
        return True

    def sites(self) -> list[str]:
        return list(self._stores)

    def close(self) -> None:
        for store in self._stores.values():
            try:
                store.close()
            except Exception:
                log.exception("could not close the memory of %s", store.site)
        self._stores.clear()
        self._entered.clear()
        self._visits.clear()
