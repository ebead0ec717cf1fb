"""Alike controls on a page of rows: each "Odd" button says which number it stands beside, and a Submit chosen
before anything the task names was used is refused once, with those controls (act/premature.py
act/premature.py check_named_controls_used; chosen again, it is clicked: tests/act/test_refused_once.py). Real headless Chromium, the real extension, the scripted LLM."""

from __future__ import annotations

from selenium.webdriver.common.by import By

from companion.agent.loop import run_task
from tests.support.agent_llm import index_of

TASK = "Mark the numbers below as odd or even and press submit when done."


def submit_first_then_rows():
    """A small model's habit: Submit at once; told, it marks 7 odd and 12 even, then submits."""
    told: list[bool] = []

    def choose(text: str, labels: list[str]) -> int:
        if "submitted after" in text:
            return index_of(labels, r"^end the task")
        if "not clicked yet" in text:
            told.append(True)
        if not told:
            return index_of(labels, r'^button "Submit"')
        for want, done in ((r'^button "Odd" \(for "7"\)', 'Odd" (for "7")'), (r'^button "Even" \(for "12"\)', 'Even" (for "12")')):
            at = index_of(labels, want)
            if at is not None and f"Clicked button \"{done}" not in text:
                return at
        return index_of(labels, r'^button "Submit"')
    return choose


def test_submit_before_any_named_control_is_refused_once_and_rows_are_told_apart(browser, pages, agent_llm, memory_dir):
    agent_llm(choose=submit_first_then_rows())
    result = browser.run(run_task(TASK, session=browser.session, start_url=pages.url("mark_rows.html"),
                                  memory_dir=memory_dir, max_steps=4), timeout=300)

    notes = [e.text for e in result.events if e.kind == "note"]
    refusal = next(n for n in notes if "not clicked yet" in n)
    assert 'button "Odd"' in refusal and 'button "Even"' in refusal, refusal
    assert 'Clicked button "Odd" (for "7")' in result.actions and 'Clicked button "Even" (for "12")' in result.actions
    assert browser.driver.find_element(By.ID, "submitted").text == "submitted after: 7=Odd 12=Even", result.actions


def test_submit_before_what_the_task_asks_first_is_refused_once_with_that_request(browser, pages, agent_llm, memory_dir):
    def choose(text: str, labels: list[str]) -> int:
        if "submitted" in text:
            return index_of(labels, r"^end the task")
        if "not clicked yet" in text and 'Clicked button "Section' not in text:
            return index_of(labels, r'^button "Section #4"')
        return index_of(labels, r'^button "Submit"')
    agent_llm(choose=choose)
    result = browser.run(run_task("Expand the section below and click submit.", session=browser.session,
                                  start_url=pages.url("expand_then_submit.html"), memory_dir=memory_dir, max_steps=3),
                         timeout=300)

    refusal = next(e.text for e in result.events if e.kind == "note" and "not clicked yet" in e.text)
    assert 'asks to "Expand the section below" before it' in refusal, refusal
    assert browser.driver.find_element(By.ID, "result").text == "submitted expanded", result.actions
