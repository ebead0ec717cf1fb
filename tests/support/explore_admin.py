"""Exploration helpers: explore(tabs, url, memory_dir) runs explore_sites into a fresh store, Memory reads what it
learned, and the helpers shared by the explorations of the shop's Django admin (test_explore_django*.py)."""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path

from companion.explore.explorer import SiteReport, explore_sites
from companion.explore.model import Limits
from companion.explore.tabs import start_browser
from companion.explore.tabs import ExploreTab
from companion.memory.store import WebsiteMemStore, normalize_url, site_key


def logged_in_tabs(django_site, browsers):
    """Start each browser, log it in to the admin, return their exploration tabs."""
    tabs = [start_browser(b) for b in browsers]
    for b in browsers:
        django_site.login(b.driver)
    return tabs


def change_pages(memory: Memory, model: str) -> list[str]:
    """The model's change pages (popup windows, which show another layout, left out)."""
    return sorted(p for p in memory.pages if re.fullmatch(rf"admin/shop/{model}/\d+/change(\?.*)?", p) and "_popup" not in p)


def iterated(memory: Memory, pages: list[str]) -> list[str]:
    done = {memory.rel(u) for u in memory.state["iterated"]}
    return [p for p in pages if p in done]


def click_depths(memory: Memory) -> dict[str, int]:
    """How many recorded clicks (the links table) each page is from the start page."""
    start = memory.state["start_url"]
    depth, queue = {start: 0}, [start]
    for url in queue:
        for link in memory.rows("links"):
            if link["from_url"] == url and link["to_url"] not in depth:
                depth[link["to_url"]] = depth[url] + 1
                queue.append(link["to_url"])
    return depth


FIXTURE_SITE = "explore/index.html"


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
