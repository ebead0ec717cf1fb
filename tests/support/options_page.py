"""The extension's options page driven as a user would: status line, port and token entry, a second tab that
restores the shared browser's pairing afterwards (helpers for tests/extension)."""

from __future__ import annotations

from contextlib import contextmanager

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

OPTIONS_URL = "chrome-extension://occglhfemfkbfbahabikmhbefcgffaff/options.html"


def status(driver) -> str:
    return driver.find_element(By.ID, "status").text.strip()


def wait_status(driver, predicate, timeout=60) -> str:  # generous: a loaded machine
    """The first status line that satisfies `predicate`. Not read again afterwards: a companion that is not
    running is retried, so "companion not running" and "connecting…" take turns on the page."""
    return WebDriverWait(driver, timeout).until(lambda d: (lambda line: line if predicate(line) else False)(status(d)))


def enter(driver, port: int, token: str) -> None:
    for field, value in (("port", str(port)), ("token", token)):
        element = driver.find_element(By.ID, field)
        element.clear()
        element.send_keys(value)
    driver.find_element(By.ID, "save").click()


@contextmanager
def options_tab(browser):
    """The options page in a second tab; closed again, and the right settings restored, afterwards."""
    driver = browser.driver
    original = driver.current_window_handle
    before = browser.hub.latest
    driver.switch_to.new_window("tab")
    try:
        driver.get(OPTIONS_URL)
        wait_status(driver, bool)
        yield driver
    finally:
        enter(driver, browser.companion.port, browser.token)
        wait_status(driver, lambda s: s == "connected", timeout=30)
        driver.close()
        driver.switch_to.window(original)
        if before is not None and before.closed:
            browser.wait_for_session(30, newer_than=before)
