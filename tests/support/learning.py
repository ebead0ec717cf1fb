"""Helpers for memory tests on fixture pages in real Chromium: visit and learn a page, open a menu and learn
what it revealed (what exploration and passive learning do, through the same memory/learn.py calls)."""

from __future__ import annotations

from companion.memory import learn
from companion.memory.store import WebsiteMemStore
from companion.pagemem.divide import divide_page
from companion.pagemem.identity import element_key
from companion.pagemem.model import Element, PageMem
from companion.pagemem.update import revealed_elements, update_page_mem


def load(browser, url: str) -> PageMem:
    """The page at `url`, freshly loaded and divided."""
    browser.open(url)
    return divide_page(browser.run(browser.session.snapshot()))


def named(pm: PageMem, name: str) -> Element:
    return next(e for e in pm.all_elements() if e.name == name)


def visit(browser, store: WebsiteMemStore, url: str, source: learn.Source = "explore") -> PageMem:
    return learn.learn_page(store, load(browser, url), source=source)


def open_menu(browser, pm: PageMem, trigger: Element) -> list[Element]:
    """Click `trigger` on the loaded page `pm` and bring `pm` up to date; returns what the click revealed."""
    browser.run(browser.session.click(trigger.ref))
    update = update_page_mem(pm, browser.run(browser.session.snapshot()))
    return revealed_elements(update.added_elements, trigger)


def learn_menu(browser, store: WebsiteMemStore, url: str, trigger_name: str) -> list[Element]:
    """Load `url`, learn it, click the trigger and learn what it revealed; returns the revealed elements."""
    pm = visit(browser, store, url)
    trigger = named(pm, trigger_name)
    key = element_key(pm, trigger)  # before the click, as the page is on a later visit
    revealed = open_menu(browser, pm, trigger)
    learn.learn_click(store, pm, trigger, revealed=revealed, trigger_key=key, source="explore")
    return revealed
