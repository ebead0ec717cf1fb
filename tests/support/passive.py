"""Passive-learning helpers: allowing a site, waiting for what the learner stored, reading a site's memory, and the tab
a page is in."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Callable, TypeVar

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from companion.memory.learning_consent import set_learning_consent
from companion.memory.store import WebsiteMemStore, site_key
from tests.support.sidepanel import PANEL_URL, wait_connected  # noqa: F401 (PANEL_URL: the passive tests' panel)

T = TypeVar("T")
WAIT_S = 90.0  # a loaded machine: generous, never a measure


def allow(url: str, policy_dir: Path, policy: str = "allow") -> str:
    return set_learning_consent(url, policy, policy_dir)


def wait_for(predicate: Callable[[], T], what: str, timeout: float = WAIT_S) -> T:
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.2)


def read_memory(memory_dir: Path, url: str, read: Callable[[WebsiteMemStore], T], default: T) -> T:
    """`read(store)` of the site of `url`, or `default` when nothing of the site was ever written."""
    site = site_key(url)
    if not (memory_dir / f"{site}.json").exists():
        return default
    with WebsiteMemStore(site, memory_dir) as store:
        return read(store)


def stored_urls(memory_dir: Path, url: str) -> list[str]:
    return sorted(read_memory(memory_dir, url, lambda s: s.page_urls(), []))


def tab_id_of(browser, url: str) -> int:
    tabs = browser.run(browser.session.list_tabs())
    return next(t.tab_id for t in tabs if t.url == url)


def wait_panel(driver) -> WebDriverWait:
    wait = wait_connected(driver, 30)
    wait.until(lambda d: d.find_element(By.ID, "learning").is_displayed())
    return wait
