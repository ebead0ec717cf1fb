"""The side panel beside a page, as a user opens it, and typing a task into it."""

from __future__ import annotations

import contextlib

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from companion.bridge.auth import EXTENSION_ID

PANEL_URL = f"chrome-extension://{EXTENSION_ID}/sidepanel.html"


@contextlib.contextmanager
def side_panel(browser, page_url: str):
    """The page in the first tab, the side panel page in a second tab (as a user would open it)."""
    driver = browser.driver
    browser.open(page_url)
    page_handle = driver.current_window_handle
    driver.switch_to.new_window("tab")
    driver.get(PANEL_URL)
    WebDriverWait(driver, 20).until(lambda d: d.find_element(By.ID, "conn").text == "connected")
    try:
        yield driver
    finally:
        driver.close()
        driver.switch_to.window(page_handle)


def enter_task(driver, task: str, ask: bool = True) -> None:
    box = driver.find_element(By.ID, "task")
    box.clear()
    box.send_keys(task)
    checkbox = driver.find_element(By.ID, "ask")
    if checkbox.is_selected() != ask:
        checkbox.click()
    driver.find_element(By.ID, "start").click()
