"""Follow-ups read as one conversation: the follow-up shows the task it continued and that task's result above
it, and the history keeps a task and its follow-ups in one conversation entry, oldest turn first."""

from __future__ import annotations

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from tests.support.agent_llm import index_of
from tests.support.sidepanel import PANEL_URL, PRICE_TASK, WAIT_S, blue_price, shop_choice, type_task, wait_done

FOLLOW_UP = "How much do two of them cost?"
SHOTS = "/tmp/team"


def test_a_follow_up_is_shown_under_its_task_as_one_conversation(browser, pages, services, llm, panel):
    def choose(text, labels):
        return index_of(labels, r"^end the task") if FOLLOW_UP in text else shop_choice(text, labels)

    llm(choose=choose, answer=lambda text: "Two cost $49.00." if FOLLOW_UP in text else blue_price(text))
    with panel(pages.url("agent_shop.html")) as driver:
        driver.set_window_size(420, 900)  # a side panel's width
        type_task(driver, PRICE_TASK)
        wait_done(driver)
        type_task(driver, FOLLOW_UP)
        WebDriverWait(driver, WAIT_S).until(lambda d: d.find_element(By.ID, "current-task").text == FOLLOW_UP)
        wait_done(driver)
        # Live: the earlier turn (task and result) sits above the follow-up in the current task's card.
        turns = driver.find_elements(By.CSS_SELECTOR, "#current > #conversation > li.turn")
        assert [t.text for t in turns] == [f"{PRICE_TASK}\nResult: $24.50"]
        assert driver.execute_script(
            "return document.getElementById('conversation').compareDocumentPosition("
            "document.getElementById('current-task')) & Node.DOCUMENT_POSITION_FOLLOWING") != 0
        driver.save_screenshot(f"{SHOTS}/t25-conversation-live.png")
        # The history (the panel reopened after the session ended): one entry holding both turns, in order.
        driver.execute_async_script("const done = arguments[arguments.length - 1];"
                                    "chrome.storage.session.remove('task').then(() => done(true));")
        driver.get(PANEL_URL)
        WebDriverWait(driver, WAIT_S).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#history-list > li"))
        entries = driver.find_elements(By.CSS_SELECTOR, "#history-list > li")
        assert len(entries) == 1 and "conversation" in entries[0].get_attribute("class")
        asked = [t.text for t in entries[0].find_elements(By.CSS_SELECTOR, ":scope > ol.turns > li.past .h-task")]
        assert asked == [PRICE_TASK, FOLLOW_UP]
        # The follow-up's turn does not name the task it follows: that is the turn above it.
        assert not entries[0].find_elements(By.CSS_SELECTOR, ".h-previous")
        driver.save_screenshot(f"{SHOTS}/t25-conversation-history.png")
