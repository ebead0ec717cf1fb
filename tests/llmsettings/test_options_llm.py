"""The options page's LLM section, used as a person would: choose a backend and model, Check it (the companion
runs `llm check` on it and the page shows the answer time), Save it (the companion keeps it in llm.toml and its
tasks use it from then on). A spec the companion refuses, and a server that is not there, are said plainly."""

from __future__ import annotations

import re
import socket
import stat

import pytest
import tomllib
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from companion import llm as llm_module
from tests.support.llmsettings import PANEL_URL, PROBE_MODEL, WAIT_S, choose_url, in_use, result, wait_result

pytestmark = pytest.mark.browser


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_check_shows_the_answer_time_and_the_model(options, probe_server):
    with options() as driver:
        choose_url(driver, probe_server.base_url)  # no model typed: the server's first listed model is used
        driver.find_element(By.ID, "llm-check").click()
        text = wait_result(driver, lambda t: t.startswith("answered in"))
        assert re.fullmatch(rf"answered in \d+\.\d\d s \(model {PROBE_MODEL}, context unknown, structured mode json_schema\)", text)
        assert driver.find_element(By.ID, "llm-result").get_attribute("data-model") == PROBE_MODEL
    assert [r.prompt for r in probe_server.requests] == ["choice_probe"]  # the one timed choice of `llm check`


def test_save_keeps_the_choice_in_llm_toml_and_the_side_panel_shows_its_model(browser, options, probe_server, config):
    (config / "llm.toml").write_text("# my settings\ntimeout_s = 33.0\n")
    spec = f"openai:{probe_server.base_url}#{PROBE_MODEL}"
    with options() as driver:
        choose_url(driver, probe_server.base_url, PROBE_MODEL)
        driver.find_element(By.ID, "llm-save").click()
        assert wait_result(driver, lambda t: t.startswith(("Saved", "Not saved"))) == f"Saved: the companion's tasks now use {spec}."
        assert in_use(driver) == f"In use: {spec}"
        driver.get(PANEL_URL)
        WebDriverWait(driver, WAIT_S, poll_frequency=0.1).until(lambda d: d.find_element(By.ID, "model").text == PROBE_MODEL)
    path = config / "llm.toml"
    assert tomllib.loads(path.read_text()) == {"spec": spec, "timeout_s": 33.0}  # the other key stays
    assert "# my settings" in path.read_text()
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


def test_a_url_without_a_scheme_shows_the_parse_error_and_changes_nothing(options, config):
    before = "spec = \"ollama\"\n"
    (config / "llm.toml").write_text(before)
    client = llm_module.get_client()
    with options() as driver:
        choose_url(driver, "127.0.0.1:8080/v1")
        driver.find_element(By.ID, "llm-save").click()
        text = wait_result(driver, lambda t: t.startswith(("Saved", "Not saved")))
        assert text == ("Not saved: openai: needs a URL, e.g. openai:http://127.0.0.1:8080/v1#model "
                        "(got 'openai:127.0.0.1:8080/v1')")
        assert in_use(driver) == "In use: ollama"
    assert (config / "llm.toml").read_text() == before
    assert llm_module.get_client() is client


def test_a_dead_server_is_a_clear_error(options):
    url = f"http://127.0.0.1:{_free_port()}/v1"
    with options() as driver:
        choose_url(driver, url)
        driver.find_element(By.ID, "llm-check").click()
        text = wait_result(driver, lambda t: t and not t.startswith("Checking"))
        assert text.startswith(f"cannot connect to the LLM server at {url}")
        assert "nothing is listening there (connection refused)" in text
        assert driver.find_element(By.ID, "llm-result").get_attribute("data-ok") == "false"


def test_a_server_on_another_host_is_said_to_receive_the_page_text(options):
    with options() as driver:
        choose_url(driver, "http://192.0.2.7:8000/v1")
        warning = driver.find_element(By.ID, "llm-remote")
        assert warning.is_displayed()
        assert warning.text.startswith("192.0.2.7 is not this computer: the text of the pages your tasks read")
        choose_url(driver, "http://127.0.0.1:8000/v1")
        assert not warning.is_displayed()
