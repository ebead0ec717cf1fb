"""In real Chromium with the real extension and the scripted LLM: SubmitForm invokes ElementAction
on each field it fills (Algorithm 9), so a form's custom (ARIA) combobox is opened and its option picked, an
autocomplete field gets its value typed and a suggestion picked, and a native <select> goes to SelectOption;
a form left unsubmitted because the review ran out of rounds says so in the history the model reads.

The page (form_combo.html) counts a pot size or a city only when an option or suggestion is picked, as such
widgets do: typed text alone leaves them empty in the submitted order (form_combo_done.html)."""

from __future__ import annotations

import re

from selenium.webdriver.common.by import By

from companion.agent.loop import run_task
from tests.support.agent_llm import index_of, option_named, options
from tests.support.form_task import OVERRIDES, PAGE, TASK, field_value, fill_the_form


def order(browser, pages, memory_dir, max_steps: int = 2):
    result = browser.run(run_task(TASK, session=browser.session, start_url=pages.url(PAGE), memory_dir=memory_dir,
                                  max_steps=max_steps), timeout=300)
    placed = browser.driver.find_elements(By.ID, "done")
    return result, (placed[0].text if placed else "")


def test_a_custom_combobox_in_a_form_is_opened_and_its_option_picked(browser, pages, agent_llm, memory_dir):
    agent_llm(choose=fill_the_form, overrides=OVERRIDES)
    result, placed = order(browser, pages, memory_dir)

    assert "pot m," in placed, (placed, result.actions)
    assert 'Clicked combobox "Pot size"' in result.actions and 'Clicked option "Medium pot"' in result.actions
    assert not any(a.startswith("Typed") and "Pot size" in a for a in result.actions), result.actions


def test_the_form_prompts_show_what_a_custom_combobox_shows(browser, pages, agent_llm, memory_dir):
    server = agent_llm(choose=fill_the_form, overrides=OVERRIDES)
    order(browser, pages, memory_dir)

    # It has no value: its text is its state, unset before and the picked option after.
    assert 'combobox "Pot size" [collapsed] shows "Choose a pot"' in server.prompts("form_field_selection")[0]
    assert 'combobox "Pot size" [collapsed] shows "Medium pot"' in server.prompts("form_review")[0]


def test_an_autocomplete_field_in_a_form_gets_its_value_typed_and_the_one_suggestion_holding_it_picked(browser, pages, agent_llm, memory_dir):
    # The model would answer "none": the only suggestion holding the typed text is picked without asking it.
    server = agent_llm(choose=fill_the_form, overrides={**OVERRIDES, "search_suggestion": option_named(r"^$")})
    result, placed = order(browser, pages, memory_dir)

    assert "city LIS," in placed, (placed, result.actions)
    typed = result.actions.index('Typed "Lisbon" into combobox "Delivery city"')
    assert result.actions[typed + 1] == 'Clicked option "Lisbon, Portugal"'
    assert server.prompts("search_suggestion") == []


def test_an_autocomplete_field_whose_typed_text_several_suggestions_hold_asks_which(browser, pages, agent_llm, memory_dir):
    def typed_li(text: str) -> dict:
        return {"value": "Li"} if "Delivery city" in text.split("Field:", 1)[1].split("\n", 1)[0] else field_value(text)

    server = agent_llm(choose=fill_the_form, overrides={**OVERRIDES, "field_value": typed_li})
    result, placed = order(browser, pages, memory_dir)

    (asked,) = server.prompts("search_suggestion")[:1]
    assert "Lisbon, Portugal" in asked and "Lille, France" in asked and "Lima, Peru" in asked
    assert "city LIS," in placed, (placed, result.actions)


def test_a_native_select_in_a_form_goes_to_select_option(browser, pages, agent_llm, memory_dir):
    server = agent_llm(choose=fill_the_form, overrides=OVERRIDES)
    result, placed = order(browser, pages, memory_dir)

    assert "wrap cloth." in placed, (placed, result.actions)
    assert 'Selected "Cloth" in combobox "Gift wrap"' in result.actions
    asked = server.prompts("select_option")
    assert len(asked) == 1 and "Select: combobox \"Gift wrap\"" in asked[0]
    assert not any("Gift wrap" in p.split("Field:", 1)[1].split("\n", 1)[0] for p in server.prompts("field_value"))


def test_a_form_left_at_the_review_limit_says_so_in_the_history(browser, pages, agent_llm, memory_dir):
    def keep_editing(text: str) -> dict:  # a small model looping on "edit"
        return {"reason": "the name could be better", "index": index_of(options(text), r'^Edit field: textbox "Your name"')}

    names = iter(["Ada", "Ada L", "Ada Lo", "Ada Lov", "Ada Love"])

    def new_name_each_time(text: str) -> dict:  # each edit changes the field (one that would not ends the review)
        return {"value": next(names)} if "Your name" in text.split("Field:", 1)[1].split("\n", 1)[0] else field_value(text)

    def once(text: str, labels: list[str]) -> int:
        return index_of(labels, r"^end the task") if "Left the form" in text else fill_the_form(text, labels)

    server = agent_llm(choose=once, overrides={**OVERRIDES, "form_review": keep_editing, "field_value": new_name_each_time})
    result, placed = order(browser, pages, memory_dir)

    assert placed == ""  # never submitted
    left = [a for a in result.actions if a.startswith("Left the form")]
    assert len(left) == 1 and re.search(r"not submitted.*review ended after 3 edits", left[0]), result.actions
    assert left[0] in result.history
    assert left[0] in server.prompts("action_selection")[1]  # the model's next choice is told


def test_a_review_edit_that_changes_nothing_submits_the_form(browser, pages, agent_llm, memory_dir):
    """The default model re-picked the field the task names in every review round (selecting the option already
    selected) until the rounds ran out and the form was left: 65 calls and no submission. An edit that changes
    nothing says the model has nothing left to change."""
    def name_again(text: str) -> dict:
        return {"reason": "the task names the wrap", "index": index_of(options(text), r'^Edit field: combobox "Gift wrap"')}

    server = agent_llm(choose=fill_the_form, overrides={**OVERRIDES, "form_review": name_again})
    result, placed = order(browser, pages, memory_dir)

    assert "wrap cloth." in placed, (placed, result.actions)
    assert len(server.prompts("form_review")) == 1
    assert not any(a.startswith("Left the form") for a in result.actions)


def test_a_review_edit_of_a_custom_select_that_changes_nothing_submits_the_form(browser, pages, agent_llm, memory_dir):
    """The same on a custom (ARIA) combobox: re-picking the option it shows is two clicks that change no field."""
    def pot_again(text: str) -> dict:
        return {"reason": "the task names the pot", "index": index_of(options(text), r'^Edit field: combobox "Pot size"')}

    server = agent_llm(choose=fill_the_form, overrides={**OVERRIDES, "form_review": pot_again})
    result, placed = order(browser, pages, memory_dir)

    assert "pot m," in placed and "wrap cloth." in placed, (placed, result.actions)
    assert len(server.prompts("form_review")) == 1
    assert result.actions.count('Clicked option "Medium pot"') == 2  # filled, then re-picked in the review
