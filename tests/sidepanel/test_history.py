"""The task history: a task's steps and answer appear in the panel while it runs, and the task stays in the
history (chrome.storage.local, per profile) when the panel is closed and reopened and when the browser restarts."""

from __future__ import annotations

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from tests.support.sidepanel import (
    PANEL_URL, PRICE_TASK, WAIT_S, Hold, blue_price, finished, on_kettles_page, shop_choice, steps, type_task,
    wait_connected, wait_done,
)


def _history_entry(driver, task: str):
    for li in driver.find_elements(By.CSS_SELECTOR, "#history-list > li"):
        if li.find_element(By.CLASS_NAME, "h-task").text == task:
            return li
    return None


def test_steps_appear_while_the_task_runs_and_the_answer_when_it_ends(browser, pages, services, llm, panel):
    hold = Hold()

    def choose(text, labels):
        if on_kettles_page(text):
            hold()  # the second step's choice waits until the test saw the first step
        return shop_choice(text, labels)

    llm(choose=choose, answer=blue_price)
    with panel(pages.url("agent_shop.html")) as driver:
        type_task(driver, PRICE_TASK)
        hold.wait_reached()
        wait = WebDriverWait(driver, WAIT_S, poll_frequency=0.1)
        wait.until(lambda d: len(steps(d)) == 2)
        first = steps(driver)[0]
        assert "agent_shop.html" in first and 'Clicked link "Kettles"' in first
        assert not driver.find_element(By.ID, "answer-box").is_displayed()  # live: the task is still running
        assert "running" in driver.find_element(By.ID, "current-meta").text
        hold.released.set()
        wait.until(lambda d: d.find_element(By.ID, "answer").text == "$24.50")
        wait_done(driver)
        assert finished(driver).startswith("Finished: done")
        meta = driver.find_element(By.ID, "current-meta").text  # how it ended and what it cost
        assert meta.startswith("done · ") and " LLM calls · " in meta and meta.endswith(" tokens")


def test_a_finished_task_is_shown_again_when_the_panel_is_reopened(browser, pages, services, llm, panel):
    llm(choose=shop_choice, answer=blue_price)
    with panel(pages.url("agent_shop.html")) as driver:
        type_task(driver, PRICE_TASK)
        wait_done(driver)
        driver.close()  # the panel goes away...
        driver.switch_to.window(driver.window_handles[0])
        driver.switch_to.new_window("tab")
        driver.get(PANEL_URL)  # ...and comes back
        wait_connected(driver).until(lambda d: d.find_element(By.ID, "answer").text == "$24.50")
        assert driver.find_element(By.ID, "current-task").text == PRICE_TASK
        assert len(steps(driver)) == 2
        assert finished(driver).startswith("Finished: done")


def test_the_history_keeps_the_task_after_the_browser_restarts(browser, pages, services, llm, panel):
    llm(choose=shop_choice, answer=blue_price)
    with panel(pages.url("agent_shop.html")) as driver:
        type_task(driver, PRICE_TASK)
        wait_done(driver)
        calls = driver.find_element(By.ID, "current-meta").text
    restart_browser(browser)
    driver = browser.driver
    driver.switch_to.new_window("tab")
    try:
        driver.get(PANEL_URL)
        wait = wait_connected(driver)
        wait.until(lambda d: _history_entry(d, PRICE_TASK) is not None)
        entry = _history_entry(driver, PRICE_TASK)
        assert not driver.find_element(By.ID, "current").is_displayed()  # the live log went with the browser
        assert entry.find_element(By.CLASS_NAME, "h-answer").text == "Answer: $24.50"
        assert entry.find_element(By.CLASS_NAME, "h-meta").text == calls  # status, duration, calls and tokens
        # The newest task opens with its steps.
        shown = entry.find_elements(By.CSS_SELECTOR, "ol.steps > li")
        assert len(shown) == 2 and 'Clicked link "Kettles"' in shown[0].text
    finally:
        driver.close()
        driver.switch_to.window(driver.window_handles[0])


def restart_browser(browser) -> None:
    """Quit Chromium and start it again on the same profile: the extension reconnects with its saved pairing."""
    before = browser.hub.latest
    browser.driver.quit()
    browser.driver = browser._new_driver()
    browser.driver.set_page_load_timeout(browser.opts.page_load_timeout)
    browser.wait_for_session(90, newer_than=before)
    for handle in browser.driver.window_handles[1:]:  # one tab, as the suite expects
        browser.driver.switch_to.window(handle)
        browser.driver.close()
    browser.driver.switch_to.window(browser.driver.window_handles[0])
