"""The side panel beside a page, as a user opens it, and typing a task into it."""

from __future__ import annotations

import contextlib

from tests.support.sidepanel import PANEL_URL, type_task, wait_connected


@contextlib.contextmanager
def side_panel(browser, page_url: str):
    """The page in the first tab, the side panel page in a second tab (as a user would open it)."""
    driver = browser.driver
    browser.open(page_url)
    page_handle = driver.current_window_handle
    driver.switch_to.new_window("tab")
    driver.get(PANEL_URL)
    wait_connected(driver, 20)
    try:
        yield driver
    finally:
        driver.close()
        driver.switch_to.window(page_handle)


def enter_task(driver, task: str, ask: bool = True) -> None:
    """Type and run a task with "Ask me" on unless told otherwise (these tests go through confirmations)."""
    type_task(driver, task, ask=ask)
