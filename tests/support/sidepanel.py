"""Side panel helpers: the panel's URL, the scripted price task on the fixture shop, holding the scripted LLM mid-call,
and reading the panel's task state."""

from __future__ import annotations

import threading
import time

from selenium.common.exceptions import TimeoutException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from companion.bridge.auth import EXTENSION_ID
from tests.support.agent_llm import index_of
from tests.support.price_task import PRICE_TASK, blue_price  # noqa: F401 (the side panel tests' task)

PANEL_URL = f"chrome-extension://{EXTENSION_ID}/sidepanel.html"
WAIT_S = 120  # a loaded machine: generous, never a measure


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


def wait_connected(driver, timeout: float = WAIT_S) -> WebDriverWait:
    """The open panel page says "connected"; else the error names what it said instead (its badge and detail)."""
    wait = WebDriverWait(driver, timeout, poll_frequency=0.1)
    try:
        wait.until(lambda d: d.find_element(By.ID, "conn").text == "connected")
    except TimeoutException:
        said = driver.execute_script("return [document.getElementById('conn').textContent, "
                                     "document.getElementById('conn-detail').textContent]")
        raise AssertionError(f"the side panel never said connected in {timeout:g} s: it said {said}") from None
    return wait


def type_task(driver, task: str, ask: bool = False) -> None:
    box = driver.find_element(By.ID, "task")
    box.clear()
    box.send_keys(task)
    checkbox = driver.find_element(By.ID, "ask")
    if checkbox.is_selected() != ask:
        checkbox.click()
    driver.find_element(By.ID, "start").click()


def steps(driver) -> list[str]:
    """The shown steps' texts, read in one script call: the panel redraws the list as a task reports, so an element
    found first and read later may already be gone (a stale element)."""
    return driver.execute_script("return [...document.querySelectorAll('#steps > li')].map(li => li.innerText.trim())")


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
