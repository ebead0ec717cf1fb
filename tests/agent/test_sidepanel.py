"""The side panel in the browser: type a task, watch the steps and the answer appear; the irreversible-action
confirmation appears there and blocks the task until answered; Stop ends a task at once."""

from __future__ import annotations

import time

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from tests.support.agent_llm import index_of
from tests.support.price_task import PRICE_TASK, blue_price
from tests.support.sidepanel import steps
from tests.support.sidepanel_task import PANEL_URL, enter_task, side_panel


def _page_text(browser, page_handle_index: int = 0) -> str:
    """Read the controlled page without disturbing the panel tab."""
    driver = browser.driver
    panel = driver.current_window_handle
    driver.switch_to.window(driver.window_handles[page_handle_index])
    try:
        return driver.find_element(By.TAG_NAME, "body").text
    finally:
        driver.switch_to.window(panel)


def test_side_panel_runs_a_task_and_shows_steps_and_answer(browser, pages, agent_llm, task_service):
    def choose(text: str, labels: list[str]) -> int:
        if "agent_kettles.html" in text.split("Current page:", 1)[1].split("\n", 1)[0]:
            return index_of(labels, r"^end the task")
        return index_of(labels, r'link "Kettles"')

    agent_llm(choose=choose, answer=blue_price)
    with side_panel(browser, pages.url("agent_shop.html")) as driver:
        assert driver.find_element(By.ID, "pairing").get_attribute("hidden") is not None  # connected: no pairing help
        enter_task(driver, PRICE_TASK)
        wait = WebDriverWait(driver, 120)
        wait.until(lambda d: d.find_element(By.ID, "answer").text == "$24.50")
        wait.until(lambda d: d.find_element(By.ID, "task-status").text.startswith("Finished: done"))
        # Read once the task has finished, in one script call: the panel redraws its steps while a task reports
        # (an element found before a redraw is stale when read after it).
        shown = steps(driver)
        assert len(shown) == 2
        assert "agent_shop.html" in shown[0] and 'Clicked link "Kettles"' in shown[0] and "Reason:" in shown[0]
        observation = driver.execute_script("return document.querySelector('#steps > li .obs').innerText")
        assert "Kettle Shop" in observation  # the observation summary
        assert "agent_kettles.html" in shown[1]
        assert driver.find_element(By.ID, "stop").get_attribute("disabled") is not None
    assert browser.driver.current_url == pages.url("agent_kettles.html")  # the task ran in the page's tab


def test_irreversible_action_asks_in_the_panel_and_blocks_until_allowed(browser, pages, agent_llm, task_service):
    def choose(text: str, labels: list[str]) -> int:
        if "Account deleted" in text.split("Current page:", 1)[1].split("Possible actions:", 1)[0]:
            return index_of(labels, r"^end the task")
        return index_of(labels, r'button "Delete account"')

    server = agent_llm(choose=choose, answer=lambda text: "The account was deleted.")
    with side_panel(browser, pages.url("agent_account.html")) as driver:
        enter_task(driver, "Delete my account")
        wait = WebDriverWait(driver, 120)
        wait.until(lambda d: d.find_element(By.ID, "confirm").is_displayed())
        assert "Delete account" in driver.find_element(By.ID, "confirm-text").text
        # Blocked: while the question is open, nothing was clicked and no further LLM call is made.
        calls = len(server.requests)
        time.sleep(1.0)
        assert "Account active" in _page_text(browser)
        assert len(server.requests) == calls
        driver.find_element(By.ID, "confirm-yes").click()
        wait.until(lambda d: d.find_element(By.ID, "task-status").text.startswith("Finished: done"))
        assert not driver.find_element(By.ID, "confirm").is_displayed()
        assert "Account deleted" in _page_text(browser)
        steps = driver.find_elements(By.CSS_SELECTOR, "#steps > li")
        # One step: the click kept the URL, so the continuation phase described the change and chose again
        # (the page is shown whole, observe/whole.py: the change is listed by rule, with no call).
        assert len(steps) == 1
        assert "Approved" in steps[0].text and "Page change: Appeared: text: Account deleted" in steps[0].text


def test_stop_while_waiting_for_confirmation_ends_the_task_without_acting(browser, pages, agent_llm, task_service):
    agent_llm(choose=lambda text, labels: index_of(labels, r'button "Delete account"'))
    with side_panel(browser, pages.url("agent_account.html")) as driver:
        enter_task(driver, "Delete my account")
        wait = WebDriverWait(driver, 120)
        wait.until(lambda d: d.find_element(By.ID, "confirm").is_displayed())
        driver.find_element(By.ID, "stop").click()
        wait.until(lambda d: d.find_element(By.ID, "task-status").text.startswith("Finished: stopped"))
        assert not driver.find_element(By.ID, "confirm").is_displayed()
        assert "Account active" in _page_text(browser)
    assert task_service.finished  # the companion side ended too


def test_without_a_connection_the_panel_guides_pairing(browser):
    driver = browser.driver
    page_handle = driver.current_window_handle
    driver.switch_to.new_window("tab")
    try:
        driver.get(PANEL_URL)
        # Simulate the state the worker writes when the companion is unreachable (newer than the one shown).
        driver.execute_script("chrome.storage.session.set({connection: {status: 'error', detail: 'companion not running on port 1', at: Date.now()}})")
        WebDriverWait(driver, 10).until(lambda d: d.find_element(By.ID, "pairing").is_displayed())
        assert driver.find_element(By.ID, "conn").text == "not connected"
        assert "companion not running" in driver.find_element(By.ID, "conn-detail").text
        assert driver.find_element(By.ID, "options-link").get_attribute("href").endswith("/options.html")
        assert driver.find_element(By.ID, "start").get_attribute("disabled") is not None
    finally:
        driver.execute_script("chrome.runtime.sendMessage({type: 'status'}).then((s) => chrome.storage.session.set({connection: {status: 'connected', detail: 'connected', at: Date.now()}}))")
        driver.close()
        driver.switch_to.window(page_handle)
