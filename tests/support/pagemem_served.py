"""Helpers for the PageMem tests on fixture pages served on 127.0.0.1 (real Chromium, real extension)."""

from __future__ import annotations

from companion.pagemem.divide import divide_page


def divided(browser, pages, name: str):
    """(snapshot, PageMem) of fixture page `name`."""
    browser.open(pages.url(name))
    snapshot = browser.run(browser.session.snapshot())
    return snapshot, divide_page(snapshot)


def section_with(pm, name: str):
    """The top-level section holding an element named `name`."""
    for s in pm.sections:
        if any(e.name == name for e in s.all_elements()):
            return s
    raise LookupError(name)
