"""The options page, used like a user would: it shows why pairing fails, and pairing again restores the link.

These tests change the shared browser's settings and always put the right ones back before returning."""

from __future__ import annotations

import socket
from contextlib import contextmanager

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

pytestmark = pytest.mark.browser

OPTIONS_URL = "chrome-extension://occglhfemfkbfbahabikmhbefcgffaff/options.html"


def _status(driver) -> str:
    return driver.find_element(By.ID, "status").text.strip()


def _wait_status(driver, predicate, timeout=60) -> str:  # generous: a loaded machine
    WebDriverWait(driver, timeout).until(lambda d: predicate(_status(d)))
    return _status(driver)


def _enter(driver, port: int, token: str) -> None:
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
        _wait_status(driver, bool)
        yield driver
    finally:
        _enter(driver, browser.companion.port, browser.token)
        _wait_status(driver, lambda s: s == "connected", timeout=30)
        driver.close()
        driver.switch_to.window(original)
        if before is not None and before.closed:
            browser.wait_for_session(30, newer_than=before)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_options_page_shows_the_saved_port_and_connected(browser):
    with options_tab(browser) as driver:
        assert driver.find_element(By.ID, "port").get_attribute("value") == str(browser.companion.port)
        assert _wait_status(driver, lambda s: s == "connected") == "connected"


def test_wrong_token_is_reported_as_a_failed_pairing_check(browser):
    # The companion's proof does not check against the token entered here: from the extension's side that is
    # exactly what a stranger on the port looks like, and the status says both.
    port = browser.companion.port
    with options_tab(browser) as driver:
        _enter(driver, port, "not-the-token")
        status = _wait_status(driver, lambda s: "pairing check" in s)
        assert status.startswith(f"something on port {port} is not your companion (it failed the pairing check")
        assert "the token entered here is not its token" in status and "not-the-token" not in status


def test_no_companion_on_the_port_is_reported(browser):
    port = _free_port()
    with options_tab(browser) as driver:
        _enter(driver, port, browser.token)
        assert _wait_status(driver, lambda s: s.startswith("companion not running")) == f"companion not running on port {port}"
