"""A follow-up task: once a task finished, the next one continues in the same tab with the previous task and its
result in view, and the LLM is told them (they come first in its history)."""

from __future__ import annotations

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from tests.support.agent_llm import index_of
from tests.support.sidepanel import PRICE_TASK, WAIT_S, Hold, blue_price, finished, shop_choice, type_task, wait_done

FOLLOW_UP = "How much do two of them cost?"
EARLIER = f"the previous task was: {PRICE_TASK}\nIts result: $24.50"


def test_a_follow_up_task_is_told_the_previous_result(browser, pages, services, llm, panel):
    def choose(text, labels):
        if FOLLOW_UP in text:
            return index_of(labels, r"^end the task")  # the answer is known from the history
        return shop_choice(text, labels)

    def answer(text):
        return "Two cost $49.00." if EARLIER in text else blue_price(text)

    server = llm(choose=choose, answer=answer)
    with panel(pages.url("agent_shop.html")) as driver:
        type_task(driver, PRICE_TASK)
        wait_done(driver)
        assert driver.find_element(By.ID, "followup").is_displayed()
        assert driver.find_element(By.ID, "followup-task").text == PRICE_TASK
        assert driver.find_element(By.ID, "followup-answer").text == "Result: $24.50"
        type_task(driver, FOLLOW_UP)
        WebDriverWait(driver, WAIT_S).until(lambda d: d.find_element(By.ID, "current-task").text == FOLLOW_UP)
        # The previous task and its result stay in view above the follow-up's steps, said once: as the
        # conversation's earlier turn, not again in a "Follow-up to" line.
        WebDriverWait(driver, WAIT_S).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#conversation > li.turn"))
        assert driver.find_element(By.ID, "conversation").text == f"{PRICE_TASK}\nResult: $24.50"
        assert not driver.find_element(By.ID, "current-previous").is_displayed()
        wait_done(driver)
        assert driver.find_element(By.ID, "answer").text == "Two cost $49.00."
    selections = [p for p in server.prompts("action_selection") if FOLLOW_UP in p]
    assert selections and EARLIER in selections[0]  # the LLM saw it before the follow-up's first step
    assert browser.driver.current_url == pages.url("agent_kettles.html")  # same tab, where the first task left it


def test_new_task_runs_without_the_previous_result(browser, pages, services, llm, panel):
    server = llm(choose=shop_choice, answer=blue_price)
    with panel(pages.url("agent_shop.html")) as driver:
        type_task(driver, PRICE_TASK)
        wait_done(driver)
        driver.find_element(By.ID, "followup-clear").click()
        assert not driver.find_element(By.ID, "followup").is_displayed()
        type_task(driver, "What is the price of the Red kettle?")
        wait_done(driver)
        assert not driver.find_element(By.ID, "current-previous").is_displayed()
    second = [p for p in server.prompts("action_selection") if "Red kettle?" in p]
    assert second and "the previous task was" not in second[0]


def test_a_stopped_task_is_not_offered_as_the_follow_up(browser, pages, services, llm, panel):
    """A task that ended stopped (or failed) has no result to go on from: the next task is a new one."""
    hold = Hold()

    def choose(text, labels):
        hold()
        return shop_choice(text, labels)

    llm(choose=choose, answer=blue_price)
    with panel(pages.url("agent_shop.html")) as driver:
        type_task(driver, PRICE_TASK)
        hold.wait_reached()
        driver.find_element(By.ID, "stop").click()
        wait_done(driver)
        hold.released.set()
        assert finished(driver).startswith("Finished: stopped")
        assert not driver.find_element(By.ID, "followup").is_displayed()
        assert driver.find_element(By.ID, "task-label").text == "Task for the current tab"
