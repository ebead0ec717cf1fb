"""A Submit chosen while a time input and a list that keeps several options, both named by the task, are unset is
refused once with what is left (act/named_fields.py): the model sets them, then submits. Real headless Chromium,
the real extension, the scripted LLM."""

from __future__ import annotations

from selenium.webdriver.common.by import By

from companion.agent.loop import run_task
from tests.support.agent_llm import index_of, options

TASK = "Enter 5:37 PM as the time, select Ada and Di from the list, then click Submit."


def eager_then_told(text: str, labels: list[str]) -> int:
    """A small model's habit: Submit first; once told what is unset, it sets the time and the names, then submits."""
    if 'Clicked button "Submit"' in text:
        return index_of(labels, r"^end the task")
    submit = index_of(labels, r'^button "Submit"')
    if "not clicked yet" not in text and submit is not None:
        return submit
    time = index_of(labels, r'"Time"(?!.*value=)')
    names = index_of(labels, r'"Names"')
    if time is not None:
        return time
    if names is not None and text.count("Selected ") < 2:
        return names
    return submit if submit is not None else index_of(labels, r"^end the task")


def ada_then_di():
    """The select_option call: Ada the first time, Di after."""
    picked: list[str] = []

    def answer(text: str) -> dict:
        want = "Ada" if not picked else "Di"
        picked.append(want)
        return {"reason": "scripted", "index": index_of(options(text), rf"^{want}$")}
    return answer


def test_submit_before_a_named_time_and_names_is_refused_with_what_is_left(browser, pages, agent_llm, memory_dir):
    agent_llm(choose=eager_then_told, overrides={"select_option": ada_then_di()})
    result = browser.run(run_task(TASK, session=browser.session, start_url=pages.url("named_controls.html"),
                                  memory_dir=memory_dir, max_steps=3), timeout=300)

    notes = [e.text for e in result.events if e.kind == "note"]
    refusal = next(n for n in notes if "not clicked yet" in n)
    assert '"5:37 PM" is not typed' in refusal and '"Ada", "Di" of' in refusal, refusal
    assert browser.driver.find_element(By.ID, "submitted").text == "17:37 Ada+Di", result.actions


def test_the_options_the_task_names_in_a_list_keeping_several_are_selected_together_without_a_call(
        browser, pages, agent_llm, memory_dir):
    server = agent_llm(choose=eager_then_told)
    result = browser.run(run_task(TASK, session=browser.session, start_url=pages.url("named_controls.html"),
                                  memory_dir=memory_dir, max_steps=3), timeout=300)

    assert server.prompts("select_option") == []
    selected = [a for a in result.actions if a.startswith("Selected ")]
    assert len(selected) == 2 and '"Ada"' in selected[0] and '"Di"' in selected[1], result.actions
    assert browser.driver.find_element(By.ID, "submitted").text == "17:37 Ada+Di", result.actions
