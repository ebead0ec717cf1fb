"""A part of the task that asks to scroll is ticked by the scroll the step did, so the next part is the one held
pending (act/task_parts.py, agent/step.py). Real headless Chromium, the real extension, the scripted LLM."""

from __future__ import annotations

from selenium.webdriver.common.by import By

from companion.agent.loop import run_task
from tests.support.agent_llm import index_of

TASK = 'Scroll to the bottom of the textarea, enter the name "Karrie" then press "Agree"'


def scroll_name_agree(text: str, labels: list[str]) -> int:
    """A model that scrolls, types the name, then agrees, each once."""
    if 'Clicked button "Agree"' in text:
        return index_of(labels, r"^end the task")
    if "Scrolled" not in text:
        return index_of(labels, r"^scroll")
    if 'Typed "Karrie"' not in text:
        return index_of(labels, r'^textbox "Name"')
    return index_of(labels, r'^button "Agree"')


def test_the_scroll_ticks_its_part_and_the_name_is_not_held_back_for_it(browser, pages, agent_llm, memory_dir):
    # The default model's scroll left part 1 unticked: typing the name was refused as "part 1 comes first".
    server = agent_llm(choose=scroll_name_agree, overrides={"input_value": lambda text: {"value": "Karrie"}})
    result = browser.run(run_task(TASK, session=browser.session, start_url=pages.url("scroll_to_enable.html"),
                                  memory_dir=memory_dir, max_steps=2), timeout=300)

    assert browser.driver.find_element(By.ID, "did").text == "pressed Agree as Karrie", result.actions
    assert not any("comes first" in e.text for e in result.events if e.kind == "note")
    assert "[x] 1. Scroll to the bottom of the textarea" in server.prompts("action_selection")[-1]
