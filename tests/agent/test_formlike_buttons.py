"""A <button> without a type outside any <form> submits nothing: chosen in a form-like block of fields and
buttons (MiniWoB's click-button), it is clicked, not taken for the block's submit button (SubmitForm would fill
the fields and never press it). Real headless Chromium, the real extension, the scripted LLM."""

from __future__ import annotations

from selenium.webdriver.common.by import By

from companion.agent.loop import run_task
from tests.support.agent_llm import index_of

TASK = 'Click on the "previous" button.'


def press_previous(text: str, labels: list[str]) -> int:
    if "Clicked button" in text.split("Current page:", 1)[0]:
        return index_of(labels, r"^end the task")
    return index_of(labels, r'^button "previous"')


def test_a_typeless_button_beside_fields_is_clicked_not_submitted(browser, pages, agent_llm, memory_dir):
    server = agent_llm(choose=press_previous)
    result = browser.run(run_task(TASK, session=browser.session, start_url=pages.url("formlike_buttons.html"),
                                  memory_dir=memory_dir, max_steps=2), timeout=300)

    assert browser.driver.find_element(By.ID, "pressed").text == "previous", result.actions
    assert 'Clicked button "previous"' in result.actions
    assert not server.prompts("form_field_selection") and not server.prompts("form_review")
