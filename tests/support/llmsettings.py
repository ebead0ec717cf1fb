"""LLM settings helpers: the options and panel URLs, choosing a server on the options page and reading its result."""

from __future__ import annotations

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

from companion.bridge.auth import EXTENSION_ID

PANEL_URL = f"chrome-extension://{EXTENSION_ID}/sidepanel.html"
WAIT_S = 120  # a loaded machine: generous, never a measure
PROBE_MODEL = "probe-model"


def in_use(driver) -> str:
    return driver.find_element(By.ID, "llm-current").text


def result(driver) -> str:
    return driver.find_element(By.ID, "llm-result").text


def choose_url(driver, url: str, model: str = "") -> None:
    """OpenAI-compatible URL as the backend, with this URL and model typed in as a person would."""
    Select(driver.find_element(By.ID, "llm-backend")).select_by_value("openai")
    for field, value in (("llm-url", url), ("llm-model", model)):
        element = driver.find_element(By.ID, field)
        element.clear()
        if value:
            element.send_keys(value)


def wait_result(driver, predicate) -> str:
    WebDriverWait(driver, WAIT_S, poll_frequency=0.1).until(lambda d: predicate(result(d)))
    return result(driver)
