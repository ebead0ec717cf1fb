"""The options page's API key for a hosted OpenAI-compatible server: typed once, kept by the companion (0600, per
server URL), sent to that server as a bearer token, and never shown or logged again (only its last 4 characters)."""

from __future__ import annotations

import asyncio
import logging
import stat

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from companion import llm as llm_module
from tests.support.llmsettings import PROBE_MODEL, WAIT_S, choose_url, in_use, wait_result

pytestmark = pytest.mark.browser

KEY = "sk-test-0123456789abcdefWXYZ"
TEST_DRIVER_LOGGERS = ("selenium", "urllib3")  # the test typing the key, not the companion


def _save_with_key(driver, base_url: str) -> None:
    choose_url(driver, base_url, PROBE_MODEL)
    driver.find_element(By.ID, "llm-api-key").send_keys(KEY)
    driver.find_element(By.ID, "llm-save").click()
    assert wait_result(driver, lambda t: t.startswith(("Saved", "Not saved"))).startswith("Saved")


def test_a_saved_api_key_is_kept_0600_and_sent_to_its_server_as_a_bearer_token(options, probe_server, config):
    """Saved from the options page, the key goes to a 0600 file (not llm.toml), and the companion's LLM sends it
    to that server as `Authorization: Bearer <key>`."""
    with options() as driver:
        _save_with_key(driver, probe_server.base_url)
    keys = config / "llm-keys.json"
    assert KEY in keys.read_text() and stat.S_IMODE(keys.stat().st_mode) == 0o600
    assert KEY not in (config / "llm.toml").read_text()
    probe_server.requests.clear()
    asyncio.run(llm_module.get_client().choose("choice_probe", {"question": "Which?", "options": ["a", "b"]}, n=2,
                                               reason=False))
    assert [r.authorization for r in probe_server.requests] == [f"Bearer {KEY}"]


def test_a_saved_key_is_never_shown_by_the_page_nor_written_to_the_log(options, probe_server, config, caplog):
    """After a reload the page says a key is saved and how it ends, never the key; the companion logged no part
    of the flow with the key in it."""
    with caplog.at_level(logging.DEBUG):
        with options() as driver:
            _save_with_key(driver, probe_server.base_url)
            assert driver.find_element(By.ID, "llm-api-key").get_attribute("value") == ""
            driver.refresh()
            WebDriverWait(driver, WAIT_S, poll_frequency=0.1).until(
                lambda d: in_use(d).startswith("In use: openai:")
                and d.find_element(By.ID, "llm-key-state").text != "")
            assert driver.find_element(By.ID, "llm-key-state").text == \
                "An API key is saved for the server in use (ending in WXYZ)."
            assert driver.find_element(By.ID, "llm-api-key").get_attribute("value") == ""
            assert KEY not in driver.page_source
    companion_lines = [logging.Formatter().format(r) for r in caplog.records if not r.name.startswith(TEST_DRIVER_LOGGERS)]
    assert companion_lines and not [line for line in companion_lines if KEY in line]
