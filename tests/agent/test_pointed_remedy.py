"""A step whose clicks are refused twice for the one element a rule points at (NotYet.remedy) takes that element
without asking the model again (agent/step.py), and once for a field the task names outright (NotYet.at_once). Real
headless Chromium, the real extension, the scripted LLM, fixture pages (fare cards, a forward form, boxes)."""

from __future__ import annotations

import re

from selenium.webdriver.common.by import By

from companion.agent.loop import run_task
from tests.support.agent_llm import index_of
from tests.support.task_events import notes


def _run(browser, pages, memory_dir, task: str, page: str | None):
    """The task run through the agent loop for two steps, from the fixture `page` (None: the page open now)."""
    return browser.run(run_task(task, session=browser.session, start_url=pages.url(page) if page else None,
                                memory_dir=memory_dir, max_steps=2), timeout=300)


def _wrong_cards_then_end(wrong: list[str]):
    """A model that picks each card of `wrong` in turn, then ends once a booking was made."""
    left = list(wrong)

    def choose(text: str, labels: list[str]) -> int:
        if "Clicked button" in text or not left:
            return index_of(labels, r"^end the task")
        return index_of(labels, re.escape(left.pop(0)))
    return choose


def test_a_card_pointed_at_by_two_refusals_is_taken_without_a_third_choice(browser, pages, agent_llm, memory_dir):
    # A model refused a dozen times for the one post's "like" chose every other control first, one call each.
    agent_llm(choose=_wrong_cards_then_end(["Book for $320", "Book for $1,210", "Book for $450"]),
                       answer=lambda text: "booked")
    result = _run(browser, pages, memory_dir, "Buy the ticket with the longest duration.", "fare_cards.html")

    refusals = [n for n in notes(result) if "the longest duration, which is 14h 0m" in n]
    assert len(refusals) == 2, notes(result)
    assert any("taken as it said" in n for n in notes(result))
    assert result.actions[0].startswith('Clicked button "Book for $95"'), result.actions
    assert not any("Book for $450" in a for a in result.actions)  # the third wrong choice was never asked for


def test_one_refusal_leaves_the_next_choice_to_the_model(browser, pages, agent_llm, memory_dir):
    agent_llm(choose=_wrong_cards_then_end(["Book for $320", "Book for $95"]), answer=lambda text: "booked")
    result = _run(browser, pages, memory_dir, "Buy the ticket with the longest duration.", "fare_cards.html")

    assert not any("taken as it said" in n for n in notes(result))
    assert result.actions[0].startswith('Clicked button "Book for $95"'), result.actions


def test_a_send_refused_for_the_one_empty_field_a_rule_fills_fills_it_at_once(browser, pages, agent_llm, memory_dir):
    # Told "textbox "to" is empty; fill in what the task gives first", the default model went back to the message
    # and forwarded it again, four times: the "to" a rule reads from the task ("forward it to Wanda") is filled.
    picked = []

    def choose(text: str, labels: list[str]) -> int:
        if "Typed" in text and "send" not in picked:
            picked.append("send")
            return index_of(labels, r'"send"')
        if picked:
            return index_of(labels, r"^end the task")
        picked.append("first send")
        return index_of(labels, r'"send"')
    agent_llm(choose=choose, answer=lambda text: "sent")
    result = _run(browser, pages, memory_dir, "Find the email by Kendre and forward it to Wanda.", "mail_forward_form.html")

    assert any('textbox "to" is empty' in n for n in notes(result)), notes(result)
    assert any("taken as it said" in n for n in notes(result)), notes(result)
    assert result.actions[0] == 'Typed "Wanda" into textbox "to"', result.actions


def test_a_submit_refused_for_the_one_box_the_task_names_ticks_it_at_once(browser, pages, agent_llm, memory_dir):
    # "Select m9KQex and click Submit": refused, the default model checked the radio its summary had named instead.
    def choose(text: str, labels: list[str]) -> int:
        if "Checked checkbox" in text and "Clicked button" not in text:
            return index_of(labels, r'^button "Submit"')
        if "Clicked button" in text:
            return index_of(labels, r"^end the task")
        return index_of(labels, r'^button "Submit"')
    agent_llm(choose=choose, answer=lambda text: "submitted")
    result = _run(browser, pages, memory_dir, "Select omega and click Submit.", "many_boxes.html")

    assert any('checkbox "omega" is not checked' in n for n in notes(result)), notes(result)
    assert result.actions[:2] == ['Checked checkbox "omega"', 'Clicked button "Submit"'], result.actions
    assert browser.driver.find_element(By.ID, "submitted").text == "delta omega"


def test_a_submit_refused_for_empty_fields_a_rule_fills_fills_them_one_refusal_each(browser, pages, agent_llm, memory_dir):
    # "Search for comedy movies directed by Bean from year 1973": the model typed the genre, was told the director
    # and the year were empty, and ended the task.
    def choose(text: str, labels: list[str]) -> int:
        found = index_of(labels, r'^generic "Submit"')
        return found if found is not None and "Clicked generic" not in text else index_of(labels, r"^end the task")
    agent_llm(choose=choose, answer=lambda text: "searched")
    browser.open(pages.url("empty_fields.html"))
    browser.driver.find_element(By.ID, "genre").send_keys("adventure")
    result = _run(browser, pages, memory_dir, "Search for adventure movies directed by Sullivan from year 2015.", None)

    assert result.actions[:3] == ['Typed "Sullivan" into textbox "Director"', 'Typed "2015" into textbox "Year"',
                                  'Clicked generic "Submit"'], result.actions
    assert browser.driver.find_element(By.ID, "submitted").text == "submitted [Sullivan|adventure|2015]"
