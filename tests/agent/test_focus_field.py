"""A field chosen when the task gives no text for it ("Focus into the textbox"): the model's answers only name
the field or repeat the task, so nothing is typed and the field is clicked, which focuses it (MiniWoB's
focus-text; before, the attempt failed, and the default model went on to type a URL and reload the page).
A task that only asks to focus or click types nothing and asks for no text at all (act/routing.py).
Real headless Chromium, the real extension, the scripted LLM."""

from __future__ import annotations

from selenium.webdriver.common.by import By

from companion.agent.loop import run_task
from tests.support.agent_llm import index_of

TASK = "Focus into the textbox."


def field_then_end(text: str, labels: list[str]) -> int:
    if "Clicked textbox" in text:
        return index_of(labels, r"^end the task")
    return index_of(labels, r"^textbox")


def test_a_field_a_task_only_asks_to_focus_is_clicked_with_no_call(browser, pages, agent_llm, memory_dir):
    server = agent_llm(choose=field_then_end)
    result = browser.run(run_task(TASK, session=browser.session, start_url=pages.url("named_text.html"),
                                  memory_dir=memory_dir, max_steps=1), timeout=240)

    assert browser.driver.find_element(By.ID, "focused").text == "yes"
    assert browser.driver.execute_script("return document.getElementById('who').value") == ""
    assert result.actions == ['Clicked textbox "Write a name."'], result.actions  # named by the text of its box
    assert server.prompts("input_value") == []  # a focus or a click types nothing: no text is asked for


def test_a_field_the_task_gives_no_text_for_is_focused_not_typed_into(browser, pages, agent_llm, memory_dir):
    answers = iter(["textbox", "Put a name into the textbox"])  # the 1.5B model's two answers on focus-text
    server = agent_llm(choose=field_then_end, overrides={"input_value": lambda text: {"value": next(answers)}})
    result = browser.run(run_task("Put a name into the textbox.", session=browser.session,
                                  start_url=pages.url("named_text.html"), memory_dir=memory_dir, max_steps=1), timeout=240)

    assert browser.driver.find_element(By.ID, "focused").text == "yes"
    assert browser.driver.execute_script("return document.getElementById('who').value") == ""
    assert result.actions == ['Clicked textbox "Write a name."'], result.actions
    assert len(server.prompts("input_value")) == 2
    assert 'Not "textbox"' in server.prompts("input_value")[1]
