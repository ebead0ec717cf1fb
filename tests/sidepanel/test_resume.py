"""Resume in the side panel: a panel task stopped after a step goes on from its checkpoint (its history and step
count) in the same tab and ends as one task; its checkpoint names the page it started on, and a resume attempt
that fails before a step of its own leaves the checkpoint as it was."""

from __future__ import annotations

import threading

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from companion.agent.checkpoint import load_checkpoint, tasks_dir
from tests.support.sidepanel import (
    PRICE_TASK, WAIT_S, Hold, blue_price, finished, on_kettles_page, shop_choice, steps, type_task, wait_done,
)


def _stop_after_first_step(driver, llm):
    """Run the price task and stop it while its second step's choice is under way; returns the scripted server.
    Only the first choice on the kettles page is held: a resumed task goes through."""
    hold = Hold()
    held = threading.Event()

    def choose(text, labels):
        if on_kettles_page(text) and not held.is_set():
            held.set()
            hold()
        return shop_choice(text, labels)

    server = llm(choose=choose, answer=blue_price)
    type_task(driver, PRICE_TASK)
    hold.wait_reached()
    driver.find_element(By.ID, "stop").click()
    wait_done(driver)
    hold.released.set()
    assert finished(driver).startswith("Finished: stopped")
    return server


def _task_id(driver) -> str:
    return driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "chrome.storage.session.get('task').then(({task}) => done(task.task_id));")


def _history_ids(driver) -> list:
    return driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "chrome.storage.local.get('history').then(({history = []}) => done(history));")


def test_resume_finishes_a_stopped_panel_task_as_the_same_task(browser, pages, services, llm, panel):
    with panel(pages.url("agent_shop.html")) as driver:
        server = _stop_after_first_step(driver, llm)
        task_id = _task_id(driver)
        shop_choices = len([p for p in server.prompts("action_selection") if not on_kettles_page(p)])
        resume = driver.find_element(By.ID, "resume-task")
        assert resume.is_displayed()
        resume.click()
        WebDriverWait(driver, WAIT_S, poll_frequency=0.2).until(lambda d: finished(d).startswith("Finished: done"))
        assert driver.find_element(By.ID, "answer").text == "$24.50"
        assert not driver.find_element(By.ID, "resume-task").is_displayed()
        # One task, resumed: the same id, alone in the history; step 1 kept, then the stopped step 2, the note
        # that it went on, and step 2 run again to the end.
        assert _task_id(driver) == task_id
        assert _history_ids(driver) == [task_id]
        shown = steps(driver)
        assert 'Clicked link "Kettles"' in shown[0]
        notes = driver.find_elements(By.CSS_SELECTOR, "#steps .resume-note")
        assert len(notes) == 1 and "resumed after step 1" in notes[0].text
        assert "resumed after step 1" not in shown[-1] and "agent_kettles.html" in shown[-1]
    # Step 1 was not asked of the LLM again, and the resumed task started on the page step 1 reached.
    assert len([p for p in server.prompts("action_selection") if not on_kettles_page(p)]) == shop_choices
    assert browser.driver.current_url == pages.url("agent_kettles.html")
    assert load_checkpoint(tasks_dir() / f"{task_id}.json").status == "done"


def test_a_failed_resume_attempt_leaves_the_panel_task_checkpoint_as_it_was(browser, pages, services, llm, panel):
    with panel(pages.url("agent_shop.html")) as driver:
        _stop_after_first_step(driver, llm)
        task_id = _task_id(driver)
        path = tasks_dir() / f"{task_id}.json"
        before = load_checkpoint(path)
        assert before.start_url == pages.url("agent_shop.html")  # the tab's page when the task started
        assert (before.status, before.step) == ("stopped", 1)
        # Resume into a tab that does not exist: the attempt fails before its first step.
        driver.execute_async_script(
            "const done = arguments[arguments.length - 1];"
            "chrome.runtime.sendMessage({type: 'resume_task', task_id: arguments[0], tab_id: 987654321})"
            ".then(done, (e) => done(String(e)));", task_id)
        WebDriverWait(driver, WAIT_S, poll_frequency=0.2).until(lambda d: finished(d).startswith("Finished: failed"))
        after = load_checkpoint(path)
        assert (after.status, after.explanation, after.step, after.url) == (
            "stopped", before.explanation, 1, before.url)
