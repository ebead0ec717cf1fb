"""The form review cannot undo what the task named: a "leave" on a form whose fields hold every value the task
names for them, while the task names what the form does ("Log in"), is refused once and the form is submitted
(companion/act/form.py leave_refused, named_fields.py). The default model filled a log-in form with the task's
credentials and left it, "the form does not provide any information about the product's stock": it judged the
question that followed the log-in, not the form. A compound task's review is shown its parts and the part the
form serves (task_parts.py). Real headless Chromium, the real extension, the scripted LLM."""

from __future__ import annotations

from selenium.webdriver.common.by import By

from companion.agent.loop import run_task
from tests.support.agent_llm import index_of, option_named, options

PAGE = "act_login.html"
LOGIN = 'Log in with the username "sergio" and the password "DYh-2024". What does the members area say then?'
leave = option_named(r"^Leave the form")


def open_the_form(text: str, labels: list[str]) -> int:
    """Open the form through its username field; once a result shows (or the form was tried), end the task."""
    if "Logged in as" in text or "the form" in text.split("History so far:", 1)[-1].split("Current page:", 1)[0]:
        return index_of(labels, r"^end the task")
    found = index_of(labels, r'^textbox "Username"')
    return found if found is not None else index_of(labels, r"^end the task")


def run(browser, pages, memory_dir, task: str):
    result = browser.run(run_task(task, session=browser.session, start_url=pages.url(PAGE), memory_dir=memory_dir,
                                  max_steps=2), timeout=300)
    return result, browser.driver.find_element(By.ID, "result").text


def test_a_leave_on_a_form_holding_the_tasks_values_is_refused_and_the_form_submitted(browser, pages, agent_llm, memory_dir):
    server = agent_llm(choose=open_the_form, overrides={"form_field_selection": lambda text: {"indices": [0, 1]},
                                                        "form_review": leave})
    result, shown = run(browser, pages, memory_dir, LOGIN)

    assert shown == "Logged in as sergio (password length 8)", result.actions
    assert len(server.prompts("form_review")) == 1  # refused by rule: no second question
    kept = [a for a in result.actions if a.startswith("Did not leave the form")]
    assert kept == ['Did not leave the form, submitted it instead: the task asks for "Log in" and textbox "Username" '
                    'holds "sergio", textbox "Password" is filled'], result.actions


def test_the_review_of_a_compound_task_is_shown_its_parts_and_the_part_the_form_serves(browser, pages, agent_llm, memory_dir):
    server = agent_llm(choose=open_the_form, overrides={"form_field_selection": lambda text: {"indices": [0, 1]},
                                                        "form_review": leave})
    run(browser, pages, memory_dir, LOGIN)

    review = server.prompts("form_review")[0]
    assert ('[ ] 1. Log in with the username "sergio" and the password "DYh-2024".\n'
            "[ ] 2. What does the members area say then?") in review
    assert 'This form serves the part "Log in with the username "sergio"' in review


def test_a_review_still_edits_a_field_holding_a_value_the_task_does_not_name(browser, pages, agent_llm, memory_dir):
    """The username is not next to its field's words, so the model is asked for it, and answers wrong first. The
    review edits it (a leave on the wrong value would be no refusal's); with the value right, its leave is refused."""
    typed = iter(["serg", "sergio"])

    def review(text: str) -> dict:
        if 'value="serg"' in text:
            return {"reason": "wrong username", "index": index_of(options(text), r'^Edit field: textbox "Username"')}
        return leave(text)

    server = agent_llm(choose=open_the_form, overrides={"form_field_selection": lambda text: {"indices": [0, 1]},
                                                        "field_value": lambda text: {"value": next(typed)},
                                                        "form_review": review})
    result, shown = run(browser, pages, memory_dir, 'Log in as "sergio" with the password "DYh-2024".')

    assert len(server.prompts("field_value")) == 2  # the edit asked again
    assert shown == "Logged in as sergio (password length 8)", result.actions


def test_a_form_the_task_does_not_name_is_left_as_the_review_says(browser, pages, agent_llm, memory_dir):
    """Every value is the task's, but the task asks to register, not to log in: the form is not the task's."""
    agent_llm(choose=open_the_form, overrides={"form_field_selection": lambda text: {"indices": [0, 1]},
                                               "form_review": leave})
    result, shown = run(browser, pages, memory_dir, 'Register the username "sergio" with the password "DYh-2024".')

    assert shown == "", result.actions
    assert "Left the form without submitting" in result.actions
