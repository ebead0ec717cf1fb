"""The options page as a person meets it first: a server is tried before it is saved, the form shows only the LLM in
use, an error about the link to the companion goes once it is connected again, a failed check says what to do on
the page itself, and the page follows the dark scheme (a screenshot is kept for a person to look at:
WEBCHALLENGER_PANEL_SHOTS, default /tmp/team/options-dark.png)."""

from __future__ import annotations

import os
import socket
from pathlib import Path

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

from companion import llm as llm_module
from companion.llm.client import LLMClient
from tests.support.llmsettings import WAIT_S, choose_url, in_use, result, wait_result

pytestmark = pytest.mark.browser

SHOTS = Path(os.environ.get("WEBCHALLENGER_PANEL_SHOTS", "/tmp/team"))


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _luminance(rgb: str) -> float:
    r, g, b = (int(float(v)) for v in rgb[rgb.index("(") + 1:rgb.index(")")].split(",")[:3])
    return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255


def _pair(driver, port: int, token: str) -> None:
    for field, value in (("port", str(port)), ("token", token)):
        element = driver.find_element(By.ID, field)
        element.clear()
        element.send_keys(value)
    driver.find_element(By.ID, "save").click()


def test_an_unreachable_server_is_not_saved(options, config):
    """Save tries the server first: one that does not answer is not saved, and the page says it could not connect."""
    url = f"http://127.0.0.1:{_free_port()}/v1"
    with options() as driver:
        before = in_use(driver)
        choose_url(driver, url)
        driver.find_element(By.ID, "llm-save").click()
        text = wait_result(driver, lambda t: t.startswith(("Saved", "Not saved")))
        assert text.startswith(f"Not saved: cannot connect to the LLM server at {url}"), text
        assert in_use(driver) == before
    assert not (config / "llm.toml").exists()


def test_a_failed_check_says_what_to_do_on_the_page(options):
    """A server that is not there: the page says to start it and Check again, not to pass a command-line flag."""
    with options() as driver:
        choose_url(driver, f"http://127.0.0.1:{_free_port()}/v1")
        driver.find_element(By.ID, "llm-check").click()
        text = wait_result(driver, lambda t: t and not t.startswith("Checking"))
        assert "press Check again" in text and "--llm" not in text, text


def test_a_choice_the_page_cannot_show_leaves_no_other_backend_chosen(options):
    """An LLM chosen when the companion started (here lexical) is not shown as one of the page's backends."""
    llm_module.set_client(LLMClient(spec="lexical"))
    with options() as driver:
        assert in_use(driver).startswith("In use: lexical")
        assert Select(driver.find_element(By.ID, "llm-backend")).first_selected_option.get_attribute("value") == ""
        assert not driver.find_element(By.ID, "llm-embedded-row").is_displayed()


def test_an_error_about_the_link_goes_once_connected_again(browser, options):
    """A check that could not run for want of a connection: its error leaves the page when the link is back."""
    before = browser.hub.latest
    with options() as driver:
        _pair(driver, _free_port(), browser.token)
        WebDriverWait(driver, WAIT_S).until(lambda d: d.find_element(By.ID, "conn").text == "not connected")
        driver.find_element(By.ID, "llm-check").click()
        wait_result(driver, lambda t: t.startswith("The check could not run"))
        _pair(driver, browser.companion.port, browser.token)
        WebDriverWait(driver, WAIT_S).until(lambda d: d.find_element(By.ID, "status").text == "connected")
        WebDriverWait(driver, 10).until(lambda d: result(d) == "")
    if before is not None and before.closed:
        browser.wait_for_session(30, newer_than=before)


@pytest.fixture
def dark(browser):
    yield
    browser.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})


def test_the_options_page_inputs_are_dark_in_dark_mode(options, dark):
    """prefers-color-scheme: dark gives the page's inputs and selects a dark background."""
    with options() as driver:
        driver.execute_cdp_cmd("Emulation.setEmulatedMedia",
                               {"features": [{"name": "prefers-color-scheme", "value": "dark"}]})
        WebDriverWait(driver, 10).until(lambda d: d.execute_script("return matchMedia('(prefers-color-scheme: dark)').matches"))
        SHOTS.mkdir(parents=True, exist_ok=True)
        driver.save_screenshot(str(SHOTS / "options-dark.png"))
        backgrounds = {id_: driver.execute_script("return getComputedStyle(document.getElementById(arguments[0])).backgroundColor", id_)
                       for id_ in ("port", "token", "llm-backend", "llm-embedded-model")}
    assert all(_luminance(bg) < 0.3 for bg in backgrounds.values()), backgrounds
