"""Side panel tests: the real extension's panel page in real headless Chromium (tests/conftest.py), the companion's
task service and site card installed on the suite's companion, and a scripted LLM over real HTTP
(tests/support/agent_llm.py).

Fixtures
--------
``memory_dir``: a fresh WebsiteMem directory (the tasks' and the site card's).
``services``: the task service and the site card on the browser's hub, removed after (yields the TaskService).
``llm``: factory, llm(choose=..., answer=...) -> a started AgentLLM installed as the process LLM (selection "all").
``panel``: panel(url) -> a context manager: `url` in the first tab, the side panel page in a second one (as a user
           opens it), with the task history emptied first; yields the driver on the panel tab.
"""

from __future__ import annotations

import contextlib
from pathlib import Path

import pytest

from companion import llm as llm_module
from companion.agent.service import install_task_service
from companion.panel.site_info import install_site_info
from companion.llm.client import LLMClient
from tests.support.agent_llm import AgentLLM
from tests.support.sidepanel import PANEL_URL, wait_connected


@pytest.fixture
def memory_dir(tmp_path: Path) -> Path:
    path = tmp_path / "memory"
    path.mkdir()
    return path


@pytest.fixture
def services(browser, memory_dir):
    tasks = install_task_service(browser.hub, memory_dir=memory_dir)
    site = install_site_info(browser.hub, memory_dir=memory_dir)
    yield tasks
    running = tasks.current
    if running is not None and running.future is not None and not running.future.done():
        browser.run(_stop(running.future), 60)
    site.uninstall()
    for name in ("start_task", "stop_task", "pause_task", "confirm_answer", "companion_status_get"):
        browser.hub.message_handlers.pop(name, None)


async def _stop(future) -> None:
    future.cancel()
    try:
        await future
    except BaseException:  # cancelled: what was asked
        pass


@pytest.fixture
def llm():
    servers: list[AgentLLM] = []

    def start(**kwargs) -> AgentLLM:
        kwargs.setdefault("selection", "all")
        server = AgentLLM(**kwargs).start()
        servers.append(server)
        llm_module.set_client(LLMClient(spec=server.spec))
        return server

    yield start
    llm_module.set_client(None)
    for server in servers:
        server.stop()


def clear_history(driver) -> None:
    """Empty the task history and the current task (run on an extension page)."""
    driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "chrome.storage.local.get('history').then(({history = []}) =>"
        " chrome.storage.local.remove(['history', ...history.map((id) => 'task:' + id)]))"
        ".then(() => chrome.storage.session.remove('task')).then(() => done(true));")


@pytest.fixture
def panel(browser):
    @contextlib.contextmanager
    def open_panel(url: str, *, clear: bool = True):
        driver = browser.driver
        browser.open(url)
        page = driver.current_window_handle
        driver.switch_to.new_window("tab")
        try:
            driver.get(PANEL_URL)
            if clear:
                clear_history(driver)
                driver.get(PANEL_URL)
            wait_connected(driver)
            yield driver
        finally:
            for handle in driver.window_handles:
                if handle != page:
                    driver.switch_to.window(handle)
                    driver.close()
            driver.switch_to.window(page)

    return open_panel
