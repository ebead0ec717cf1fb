"""Fixtures for the exploration tests (explore() and Memory live in tests/support/explore_admin.py).

``explore_tab`` (function)
    An ExploreTab over the suite's ``browser`` (real Chromium, real extension): its one tab, its WebDriver.
``explore(tabs, url, memory_dir, **limits)``
    Runs explore_sites on one start URL into a WebsiteMemStore under ``memory_dir``; returns the SiteReport.
``Memory(memory_dir, url)``
    The site's memory file as the tests read it: pages, templates, dropdowns, links, the exploration state.
"""

from __future__ import annotations

import pytest

from companion.explore.tabs import ExploreTab, first_tab


@pytest.fixture
def explore_tab(browser) -> ExploreTab:
    session = browser.session
    return ExploreTab(session, browser.run(first_tab(session), 30), driver=browser.driver, label="suite browser")
