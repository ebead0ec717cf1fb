"""A submit-like button outside any form, chosen while a box or an option the task names is unset, is refused
once with what is left (act/named_fields.py), as SubmitForm fills a form's fields before it submits: the
model sets them, then submits. Chosen again with nothing changed, the click goes through. Real headless
Chromium, the real extension, the scripted LLM."""

from __future__ import annotations

from selenium.webdriver.common.by import By

from companion.act.named_fields import names_in, unset_named
from companion.agent.loop import run_task
from companion.pagemem.model import Element
from companion.protocol import ElementRef
from tests.agent.agent_llm import candidates_of, index_of

PAGE = "named_fields.html"
TASK = "Select Iceland and blue, then click Submit."
PICK_ICELAND = {"select_option": lambda text: {"reason": "scripted", "index": 1}}  # Norway | Iceland | Chile


def submitted_text(text: str) -> bool:
    return 'Clicked button "Submit"' in text


def eager_then_told(text: str, labels: list[str]) -> int:
    """A small model's habit: Submit first; once told what is unset, it sets that, then submits."""
    if submitted_text(text):
        return index_of(labels, r"^end the task")
    told = "not clicked yet" in text
    submit = index_of(labels, r'^button "Submit"')
    if not told and submit is not None:
        return submit
    combo = index_of(labels, r'^combobox .*value="Norway"')
    if combo is not None:
        return combo
    blue = index_of(labels, r'^checkbox "blue"(?!.*\[checked\])')
    if blue is not None:
        return blue
    return submit if submit is not None else index_of(labels, r"^end the task")


def insists(text: str, labels: list[str]) -> int:
    """Submit; refused, it ticks red (Submit is offered again after an action), then Submit again."""
    if submitted_text(text):
        return index_of(labels, r"^end the task")
    submit = index_of(labels, r'^button "Submit"')
    if submit is not None:
        return submit
    return index_of(labels, r'^checkbox "red"')


def run(browser, pages, memory_dir):
    return browser.run(run_task(TASK, session=browser.session, start_url=pages.url(PAGE), memory_dir=memory_dir,
                                max_steps=3), timeout=300)


def test_submit_before_the_named_fields_is_refused_with_what_is_left(browser, pages, agent_llm, memory_dir):
    agent_llm(choose=eager_then_told, overrides=PICK_ICELAND)
    result = run(browser, pages, memory_dir)

    assert browser.driver.find_element(By.ID, "submitted").text == "Iceland blue", result.actions
    notes = [e.text for e in result.events if e.kind == "note"]
    refusal = next(n for n in notes if "not clicked yet" in n)
    assert '"Iceland" of combobox' in refusal and 'checkbox "blue" is not checked' in refusal
    assert "red" not in refusal and "green" not in refusal  # the task does not name them
    assert result.actions[-1] == 'Clicked button "Submit"'


def test_choosing_submit_again_after_another_action_clicks_it_anyway(browser, pages, agent_llm, memory_dir):
    server = agent_llm(choose=insists)
    result = run(browser, pages, memory_dir)

    # Refused once, left out until the next action, then the model's insistence wins: the task may name a label
    # for another reason.
    assert browser.driver.find_element(By.ID, "submitted").text == "Norway red", result.actions
    assert result.actions == ['Checked checkbox "red"', 'Clicked button "Submit"']
    assert sum("not clicked yet" in e.text for e in result.events if e.kind == "note") == 1
    told = server.prompts("action_selection")[1]
    assert "not clicked yet" in told and 'button "Submit"' not in candidates_of(told)


def test_a_quoted_value_no_field_holds_holds_back_the_submit(browser, pages, agent_llm, memory_dir):
    def eager(text: str, labels: list[str]) -> int:
        if submitted_text(text):
            return index_of(labels, r"^end the task")
        submit = index_of(labels, r'^button "Submit"')
        return submit if submit is not None else index_of(labels, r"^textbox")

    agent_llm(choose=eager, overrides={"input_value": lambda text: {"value": "Kasie"}})
    result = browser.run(run_task('Enter "Kasie" into the text field and press Submit.', session=browser.session,
                                  start_url=pages.url("named_text.html"), memory_dir=memory_dir, max_steps=2), timeout=300)

    assert browser.driver.find_element(By.ID, "submitted").text == "Kasie", result.actions
    assert any('"Kasie" is not typed into a field yet' in e.text for e in result.events if e.kind == "note")


def test_only_whole_words_of_the_task_count():
    reds = Element(ref=ElementRef(frame=0, id=1), index=1, tag="input", role="checkbox", name="red", attrs={"type": "checkbox"}, checked=False)
    assert names_in("Tick red and submit", "red") and not names_in("Show reduced prices", "red")
    assert unset_named("Show reduced prices", [reds]) == []
    assert unset_named("Tick red", [reds.model_copy(update={"checked": True})]) == []
    # A quoted phrase naming an element is a reference: 'Click the "Submit" button' next to an empty field.
    field = Element(ref=ElementRef(frame=0, id=2), index=2, tag="input", role="textbox", attrs={"type": "text"}, value="")
    submit = Element(ref=ElementRef(frame=0, id=3), index=3, tag="button", role="button", name="Submit")
    assert unset_named('Click the "Submit" button.', [field, submit]) == []
