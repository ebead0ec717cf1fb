"""Helpers shared by the explorations of the shop's Django admin (test_explore_django*.py)."""

from __future__ import annotations

import re

from companion.explore.tabs import start_browser
from tests.explore.conftest import Memory


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
