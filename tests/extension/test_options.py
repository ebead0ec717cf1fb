"""The options page, used like a user would: it shows why pairing fails, and pairing again restores the link.

These tests change the shared browser's settings and always put the right ones back before returning."""

from __future__ import annotations

import socket

import pytest
from selenium.webdriver.common.by import By

from tests.support.options_page import enter, options_tab, wait_status

pytestmark = pytest.mark.browser

def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_options_page_shows_the_saved_port_and_connected(browser):
    with options_tab(browser) as driver:
        assert driver.find_element(By.ID, "port").get_attribute("value") == str(browser.companion.port)
        assert wait_status(driver, lambda s: s == "connected") == "connected"


def test_wrong_token_is_reported_as_a_failed_pairing_check(browser):
    # The companion's proof does not check against the token entered here: from the extension's side that is
    # exactly what a stranger on the port looks like, and the status says both.
    port = browser.companion.port
    with options_tab(browser) as driver:
        enter(driver, port, "not-the-token")
        status = wait_status(driver, lambda s: "pairing check" in s)
        assert status.startswith(f"something on port {port} is not your companion (it failed the pairing check")
        assert "the token entered here is not its token" in status and "not-the-token" not in status


def test_no_companion_on_the_port_is_reported(browser):
    port = _free_port()
    with options_tab(browser) as driver:
        enter(driver, port, browser.token)
        assert wait_status(driver, lambda s: s.startswith("companion not running")) == f"companion not running on port {port}"


# A status read can resolve after onChanged delivered a newer one; the page orders statuses by the time the worker
# wrote them. Both tests write statuses as the worker would and put the shown one back, newest, afterwards.
_WRITE_AND_READ_BACK = """
const [offset, done] = [arguments[0], arguments[arguments.length - 1]];
chrome.storage.session.get("connection").then(async ({ connection }) => {
  await chrome.storage.session.set({ connection: { status: "error", detail: "a status written by the test", at: connection.at + offset } });
  await new Promise((resolve) => setTimeout(resolve, 300));
  const shown = document.getElementById("status").textContent;
  await chrome.storage.session.set({ connection: { ...connection, at: connection.at + 2 } });
  done(shown);
});
"""


def test_an_older_status_does_not_replace_the_one_shown(browser):
    with options_tab(browser) as driver:
        wait_status(driver, lambda s: s == "connected")
        assert driver.execute_async_script(_WRITE_AND_READ_BACK, -1) == "connected"


def test_a_newer_status_replaces_the_one_shown(browser):
    with options_tab(browser) as driver:
        wait_status(driver, lambda s: s == "connected")
        assert driver.execute_async_script(_WRITE_AND_READ_BACK, 1) == "a status written by the test"
        assert wait_status(driver, lambda s: s == "connected") == "connected"
