"""An errand is not complete while a button it names is unpressed on the page, nor before anything was done in it
(agent/finish.py unpressed_at_end, nothing_done): each refused once, the model told why. Real headless Chromium,
the real extension, the scripted LLM."""

from __future__ import annotations

from selenium.webdriver.common.by import By

from companion.agent.loop import run_task
from tests.support.agent_llm import index_of
from tests.support.task_events import notes

TASK = "Mark the numbers below as odd or even and press submit when done."


def test_an_end_before_the_named_submit_is_pressed_is_refused_once(browser, pages, agent_llm, memory_dir):
    def choose(text: str, labels: list[str]) -> int:
        if "submitted after" in text:
            return index_of(labels, r"^end the task")
        if "not pressed yet" in text:
            return index_of(labels, r'^button "Submit"')
        if 'Clicked button "Odd"' in text:
            return index_of(labels, r"^end the task")  # the habit: ends with the marks made, Submit never pressed
        return index_of(labels, r'^button "Odd" \(for "7"\)')

    agent_llm(choose=choose, answer=lambda text: "7 is odd")
    result = browser.run(run_task(TASK, session=browser.session, start_url=pages.url("mark_rows.html"),
                                  memory_dir=memory_dir, max_steps=4), timeout=300)

    refusal = next(n for n in notes(result) if "not pressed yet" in n)
    assert 'button "Submit" is not pressed' in refusal, refusal
    assert browser.driver.find_element(By.ID, "submitted").text == "submitted after: 7=Odd", result.actions
    assert result.status == "done"


def test_an_errand_ended_before_any_action_is_refused_once(browser, pages, agent_llm, memory_dir):
    def choose(text: str, labels: list[str]) -> int:
        if "nothing was done in this task yet" in text and "Clicked" not in text:
            return index_of(labels, r'^button "Even" \(for "12"\)')
        return index_of(labels, r"^end the task")

    agent_llm(choose=choose, answer=lambda text: "done")
    result = browser.run(run_task("Make sure 12 is marked even.", session=browser.session,
                                  start_url=pages.url("mark_rows.html"), memory_dir=memory_dir, max_steps=3), timeout=300)

    assert sum("nothing was done in this task yet" in n for n in notes(result)) == 1, notes(result)
    assert result.status == "done" and result.actions == ['Clicked button "Even" (for "12")'], result.actions
