"""Keyboard: Enter in the task box runs the task (Shift+Enter is a new line); Esc stops the running task."""

from __future__ import annotations

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

from tests.support.sidepanel import PRICE_TASK, WAIT_S, Hold, blue_price, finished, shop_choice, wait_done


def test_enter_runs_the_task(browser, pages, services, llm, panel):
    llm(choose=shop_choice, answer=blue_price)
    with panel(pages.url("agent_shop.html")) as driver:
        box = driver.find_element(By.ID, "task")
        box.send_keys("What is the price", Keys.SHIFT, Keys.ENTER, Keys.SHIFT, "of the Blue kettle?")
        assert box.get_attribute("value") == "What is the price\nof the Blue kettle?"  # Shift+Enter: a new line
        assert driver.find_element(By.ID, "current").get_attribute("hidden") is not None  # nothing started
        box.send_keys(Keys.ENTER)
        WebDriverWait(driver, WAIT_S).until(lambda d: d.find_element(By.ID, "answer").text == "$24.50")
        assert driver.find_element(By.ID, "current-task").text.replace("\n", " ") == PRICE_TASK


def test_escape_stops_the_running_task(browser, pages, services, llm, panel):
    hold = Hold()

    def choose(text, labels):
        hold()
        return shop_choice(text, labels)

    llm(choose=choose, answer=blue_price)
    with panel(pages.url("agent_shop.html")) as driver:
        driver.find_element(By.ID, "task").send_keys(PRICE_TASK, Keys.ENTER)
        hold.wait_reached()
        driver.find_element(By.TAG_NAME, "body").send_keys(Keys.ESCAPE)
        wait_done(driver)
        assert finished(driver).startswith("Finished: stopped")
        hold.released.set()
    assert browser.driver.current_url == pages.url("agent_shop.html")  # the held step never clicked
