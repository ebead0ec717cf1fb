"""Side panel tests: the real extension's panel page in real headless Chromium (tests/conftest.py), the companion's
task service and site card installed on the suite's companion, and a scripted LLM over real HTTP
(tests/agent/agent_llm.py).

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
import threading
import time
from pathlib import Path

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from companion import llm as llm_module
from companion.agent.service import install_task_service
from companion.bridge.auth import EXTENSION_ID
from companion.panel.site_info import install_site_info
from companion.llm.client import LLMClient
from tests.agent.agent_llm import AgentLLM, index_of

PANEL_URL = f"chrome-extension://{EXTENSION_ID}/sidepanel.html"
WAIT_S = 120  # a loaded machine: generous, never a measure
PRICE_TASK = "What is the price of the Blue kettle?"


def blue_price(text: str) -> str:
    import re

    match = re.search(r"cell: Blue kettle\W+cell: (\$\d+\.\d\d)", text)  # the table row, as the page showed it
    return match.group(1) if match else "not found"


def on_kettles_page(text: str) -> bool:
    """The action prompt's current page is the kettles price list (its observation shows the table's rows)."""
    return "cell: Blue kettle" in text.split("Current page:", 1)[1].split("Possible actions:", 1)[0]


def shop_choice(text: str, labels: list[str]) -> int:
    """To the kettles page, then end the task there."""
    if on_kettles_page(text):
        return index_of(labels, r"^end the task")
    return index_of(labels, r'link "Kettles"')


class Hold:
    """Holds the scripted LLM inside one call until the test releases it (the task is then mid-step, for sure)."""

    def __init__(self) -> None:
        self.reached = threading.Event()
        self.released = threading.Event()

    def __call__(self) -> None:
        self.reached.set()
        if not self.released.wait(WAIT_S):
            raise AssertionError("the test never released the scripted LLM")

    def wait_reached(self) -> None:
        assert self.reached.wait(WAIT_S), "the task never reached the held LLM call"


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


def wait_connected(driver) -> WebDriverWait:
    wait = WebDriverWait(driver, WAIT_S, poll_frequency=0.1)
    wait.until(lambda d: d.find_element(By.ID, "conn").text == "connected")
    return wait


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


def type_task(driver, task: str, ask: bool = False) -> None:
    box = driver.find_element(By.ID, "task")
    box.clear()
    box.send_keys(task)
    checkbox = driver.find_element(By.ID, "ask")
    if checkbox.is_selected() != ask:
        checkbox.click()
    driver.find_element(By.ID, "start").click()


def steps(driver) -> list:
    return driver.find_elements(By.CSS_SELECTOR, "#steps > li")


def finished(driver) -> str:
    return driver.find_element(By.ID, "task-status").text


def wait_done(driver) -> None:
    WebDriverWait(driver, WAIT_S, poll_frequency=0.2).until(lambda d: finished(d).startswith("Finished:"))


def stays(predicate, seconds: float = 1.5) -> bool:
    """`predicate()` holds for `seconds` (checked every 0.1 s)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if not predicate():
            return False
        time.sleep(0.1)
    return True
