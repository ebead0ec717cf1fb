"""SiteMemory: the agent's WebsiteMems for one task, one store per site (paper §2.3, M_w).

A task can cross sites (a shop's checkout on a payment host, a link to a manufacturer), so the store is
chosen by the URL of the page at hand, never by the start URL alone. Every visited PageMem is remembered
in its site's store: the page itself (scrubbed of typed and password values by WebsiteMemStore), its
section summaries and purposes, a template when the page has a list section and no known template
matches it (the paper's rule during exploration), and the elements whose behaviour the agent explored.

Memory is a cache: a failed write is logged and the task goes on.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Callable
from urllib.parse import urlsplit

from companion.memory.storage import MemoryFileError
from companion.memory.store import WebsiteMemStore, element_site_key, site_key
from companion.pagemem.model import PageMem

log = logging.getLogger(__name__)

# Pages worth remembering: a site's own pages. about:blank, chrome:// and data: URLs are no site.
REMEMBERED_SCHEMES = ("http", "https", "file")


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

    def store_for(self, url: str) -> WebsiteMemStore:
        """The store of the site `url` belongs to (opened once per task). When the site's file is unreadable
        the task goes on with a scratch store held in memory; the file is left untouched (a copy is kept
        beside it) and `warn` gets MemoryFileError's text, which says where and how to start afresh."""
        key = site_key(url)
        store = self._stores.get(key)
        if store is None:
            try:
                store = WebsiteMemStore(key, self.directory)
            except MemoryFileError as exc:
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
        if observer is not None:
            observer.store = store
        return store

    def remember(self, pagemem: PageMem | None) -> bool:
        """Save a visited page into its site's WebsiteMem. Returns True when it was written."""
        if pagemem is None or urlsplit(pagemem.url).scheme not in REMEMBERED_SCHEMES:
            return False
        try:
            store = self.store_for(pagemem.url)
            store.remember(pagemem)
            if any(s.kind == "list" for s in pagemem.sections) and pagemem.template_id:
                store.add_template(pagemem)  # returns the known template when one matches
            explored = [element_site_key(e) for e in pagemem.all_elements() if e.explored]
            if explored:
                store.mark_explored(explored)
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
