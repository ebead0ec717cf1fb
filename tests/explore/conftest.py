"""Helpers for the exploration tests: explore a site in-process with real tabs, and read what it learned.

``explore_tab`` (function)
    An ExploreTab over the suite's ``browser`` (real Chromium, real extension): its one tab, its WebDriver.
``explore(tabs, url, memory_dir, **limits)``
    Runs explore_sites on one start URL into a WebsiteMemStore under ``memory_dir``; returns the SiteReport.
``Memory(memory_dir, url)``
    The site's memory file as the tests read it: pages, templates, dropdowns, links, the exploration state.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from companion.explore.explorer import SiteReport, explore_sites
from companion.explore.model import Limits
from companion.explore.tabs import ExploreTab, first_tab
from companion.memory.store import WebsiteMemStore, normalize_url, site_key

FIXTURE_SITE = "explore/index.html"


@pytest.fixture
def explore_tab(browser) -> ExploreTab:
    session = browser.session
    return ExploreTab(session, browser.run(first_tab(session), 30), driver=browser.driver, label="suite browser")


def explore(tabs: list[ExploreTab], url: str, memory_dir: Path, summarize=None, **limits) -> SiteReport:
    with WebsiteMemStore(site_key(url), memory_dir) as store:
        reports = asyncio.run(explore_sites([url], {store.site: store}, tabs, Limits(**limits), summarize=summarize))
    return reports[0]


class Memory:
    def __init__(self, memory_dir: Path, url: str) -> None:
        self.path = Path(memory_dir) / f"{site_key(url)}.json"
        self.base = normalize_url(url).rsplit("/", 1)[0]
        self.data = json.loads(self.path.read_text())

    def rows(self, table: str) -> list[dict]:
        return list(self.data.get(table, {}).values())

    def rel(self, url: str) -> str:
        return url.removeprefix(self.base + "/")

    @property
    def state(self) -> dict:
        (row,) = self.rows("exploration")
        return row

    @property
    def explored_pages(self) -> list[str]:
        return [self.rel(u) for u in self.state["done"]]

    @property
    def pages(self) -> set[str]:
        return {self.rel(r["url"]) for r in self.rows("pages")}

    def clicked_from(self, page: str) -> list[dict]:
        """The navigations recorded from a page (links table)."""
        return [r for r in self.rows("links") if self.rel(r["from_url"]) == page]

    def dropdowns(self) -> dict[str, list[str]]:
        return {r["name"]: [e["name"] for e in r["elements"]] for r in self.rows("dropdowns")}

    def template_of(self, page: str) -> str:
        (row,) = [r for r in self.rows("pages") if self.rel(r["url"]) == page]
        return row["pagemem"]["template_id"]
