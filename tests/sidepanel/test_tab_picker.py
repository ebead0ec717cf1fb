"""The tab picker: the panel lists the window's web pages by title, and a task runs in the one the user picked
instead of the default (the active tab, or the most recently used page when the panel itself is a tab)."""

from __future__ import annotations

from selenium.webdriver.common.by import By
from selenium.webdriver.support.select import Select
from selenium.webdriver.support.ui import WebDriverWait

from tests.support.agent_llm import index_of
from tests.support.sidepanel import WAIT_S, type_task, wait_done


def _end_at_once(text, labels):
    return index_of(labels, r"^end the task")


def test_the_task_runs_in_the_tab_picked_not_the_default(browser, pages, services, llm, panel):
    server = llm(choose=_end_at_once, answer=lambda text: "seen")
    with panel(pages.url("agent_shop.html")) as driver:
        panel_tab = driver.current_window_handle
        driver.switch_to.new_window("tab")  # a second page, used last: the default target
        driver.get(pages.url("agent_kettles.html"))
        driver.switch_to.window(panel_tab)
        picker = Select(driver.find_element(By.ID, "tab-pick"))
        WebDriverWait(driver, WAIT_S).until(
            lambda d: {"Kettle Shop", "Kettles - Kettle Shop"} <= {o.text for o in picker.options})
        assert picker.first_selected_option.get_attribute("value") == ""  # the default
        picker.select_by_visible_text("Kettle Shop")
        type_task(driver, "What is this page about?")
        wait_done(driver)
    first = server.prompts("action_selection")[0]
    current = first.split("Current page:", 1)[1].split("\n", 1)[0]
    assert pages.url("agent_shop.html") in current and "agent_kettles" not in current
