"""Pause and Resume: Pause during a step lets that step finish and holds the task before the next one (no LLM
call, no browser action); Resume goes on to the end."""

from __future__ import annotations

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from tests.support.sidepanel import (
    PRICE_TASK, WAIT_S, Hold, blue_price, finished, on_kettles_page, shop_choice, stays, steps, type_task, wait_done,
)


def test_pause_holds_the_task_before_its_next_step_and_resume_goes_on(browser, pages, services, llm, panel):
    hold = Hold()

    def choose(text, labels):
        if not on_kettles_page(text):
            hold()  # step 1's choice: the test pauses while the step is under way
        return shop_choice(text, labels)

    server = llm(choose=choose, answer=blue_price)
    with panel(pages.url("agent_shop.html")) as driver:
        wait = WebDriverWait(driver, WAIT_S, poll_frequency=0.1)
        type_task(driver, PRICE_TASK)
        hold.wait_reached()
        driver.find_element(By.ID, "pause").click()
        wait.until(lambda d: d.find_element(By.ID, "pause").text == "Pausing…")
        wait.until(lambda d: services.current is not None and services.current.gate.paused)  # the companion has it
        hold.released.set()  # step 1 goes on: its click happens, then the task holds
        wait.until(lambda d: d.find_element(By.ID, "pause").text == "Resume")
        assert "Paused before step 2" in driver.find_element(By.ID, "pause-state").text
        assert len(steps(driver)) == 1 and 'Clicked link "Kettles"' in steps(driver)[0]  # step 1 finished
        calls = len(server.requests)
        assert stays(lambda: len(server.requests) == calls and len(steps(driver)) == 1)  # nothing happens while paused
        assert not finished(driver)
        driver.find_element(By.ID, "pause").click()  # Resume
        wait.until(lambda d: d.find_element(By.ID, "answer").text == "$24.50")
        wait_done(driver)
        assert finished(driver).startswith("Finished: done")
        assert len(steps(driver)) == 2
        assert "Resumed: step 2" in steps(driver)[0]
        assert driver.find_element(By.ID, "pause").text == "Pause"
        assert not driver.find_element(By.ID, "pause-state").is_displayed()
