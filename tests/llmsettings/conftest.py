"""LLM settings tests: the real extension's options page in real headless Chromium (tests/conftest.py), the
companion's LLM settings service and task service (for the status line) on the suite's companion, and the
scripted OpenAI-compatible server (tests/support/scripted_server.py) as the "any OpenAI-compatible URL" backend.

Fixtures
--------
``config``: this test's own config directory (llm.toml goes there), no LLM choice from the environment, and the
            process LLM reset before and after (nothing leaks into the tests after).
``settings_service``: the LLM settings service and the task service on the browser's hub, removed after.
``probe_server``: a started scripted server whose model is "probe-model" and that answers choice_probe.
``options``: options() -> a context manager: the options page in a second tab, once it shows the LLM in use;
             yields the driver on that tab.
"""

from __future__ import annotations

import contextlib
from pathlib import Path

import pytest
from selenium.webdriver.support.ui import WebDriverWait

from companion import llm as llm_module
from companion.agent.service import install_task_service
from companion.bridge.auth import EXTENSION_ID
from companion.panel.llm_settings import install_llm_settings
from tests.support.scripted_server import ScriptedLLMServer
from companion.paths import private_dir
from tests.support.llmsettings import PROBE_MODEL, WAIT_S, in_use

OPTIONS_URL = f"chrome-extension://{EXTENSION_ID}/options.html"


@pytest.fixture
def config(tmp_path: Path, monkeypatch) -> Path:
    directory = private_dir(tmp_path / "config")
    monkeypatch.setenv("WEBCHALLENGER_CONFIG_DIR", str(directory))  # the companion runs in this process
    monkeypatch.delenv("WEBCHALLENGER_LLM", raising=False)
    llm_module.set_client(None)
    yield directory
    llm_module.set_client(None)


@pytest.fixture
def settings_service(browser, config):
    service = install_llm_settings(browser.hub)
    install_task_service(browser.hub)
    yield service
    service.uninstall()
    for name in ("start_task", "stop_task", "pause_task", "confirm_answer", "companion_status_get"):
        browser.hub.message_handlers.pop(name, None)


@pytest.fixture
def probe_server():
    server = ScriptedLLMServer(model=PROBE_MODEL, rules=[{"prompt": "choice_probe", "responses": ['{"index": 1}']}]).start()
    yield server
    server.stop()


@pytest.fixture
def options(browser, settings_service):
    @contextlib.contextmanager
    def open_options():
        driver = browser.driver
        original = driver.current_window_handle
        driver.switch_to.new_window("tab")
        try:
            driver.get(OPTIONS_URL)
            WebDriverWait(driver, WAIT_S, poll_frequency=0.1).until(
                lambda d: in_use(d).startswith("In use: ") and in_use(d) != "In use: …")
            yield driver
        finally:
            for handle in driver.window_handles:
                if handle != original:
                    driver.switch_to.window(handle)
                    driver.close()
            driver.switch_to.window(original)

    return open_options
