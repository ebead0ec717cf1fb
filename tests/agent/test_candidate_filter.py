"""In real Chromium with the real extension and the scripted LLM: the candidate filter never
drops what the task needs. So few candidates are not filtered at all; after a filtering call the field, option or
button the task names is put back, and the controls of the page's single form stay with their submit button.

The filtering answers here are scripted the way the default model answered on such pages: only the textbox."""

from __future__ import annotations

import pytest

from companion.act import candidates
from companion.agent.loop import run_task
from tests.support.agent_llm import candidates_of, index_of, options


@pytest.fixture(autouse=True)
def filter_from_thirteen(monkeypatch):
    """What survives a filtering call is tested here, on pages of 13 to 40 candidates, which the default bound
    (candidates.FEW_CANDIDATES) leaves unfiltered: the bound is lowered to where these pages are filtered."""
    monkeypatch.setattr(candidates, "FEW_CANDIDATES", 12)


def keep_only_the_textbox(text: str) -> dict:
    listed = options(text.split("Candidates from:", 1)[1])
    return {"indices": [i for i, label in enumerate(listed) if label.startswith("textbox")][:1]}


def end_then_give_up(text: str, labels: list[str]) -> int:
    """End the task at once; once that is refused, type a URL (which fails) until the step is over."""
    return index_of(labels, r"^end the task") if index_of(labels, r"^end the task") is not None else index_of(labels, r"^type a URL")


def first_choice(browser, pages, agent_llm, memory_dir, page: str, task: str) -> tuple[list[str], object]:
    server = agent_llm(choose=end_then_give_up, overrides={"candidate_filtering": keep_only_the_textbox})
    browser.run(run_task(task, session=browser.session, start_url=pages.url(page), memory_dir=memory_dir, max_steps=1),
                timeout=180)
    return candidates_of(server.prompts("action_selection")[0]), server


def test_a_page_with_few_candidates_is_not_filtered(browser, pages, agent_llm, memory_dir):
    offered, server = first_choice(browser, pages, agent_llm, memory_dir, "filter_few.html", "Enter your name and press Submit")

    assert server.prompts("candidate_filtering") == []  # 2 elements: nothing to narrow
    assert any(label.startswith('textbox "Your name"') for label in offered)
    assert any(label.startswith('button "Submit"') for label in offered)


def test_the_select_and_the_button_a_task_names_survive_the_filter(browser, pages, agent_llm, memory_dir):
    offered, server = first_choice(browser, pages, agent_llm, memory_dir, "filter_choose.html",
                                   "Select Bob from the list and click Submit")

    assert server.prompts("candidate_filtering")  # 15 elements: the filter was asked, and kept only the textbox
    assert len([label for label in offered if not label.startswith(("type a URL", "end the task"))]) > 1
    assert any(label.startswith('combobox "Name"') and "Bob" in label for label in offered)  # names option "Bob"
    assert any(label.startswith('button "Submit"') for label in offered)  # named: "click Submit"
    assert not any('link "Sport"' in label for label in offered)  # what the task does not need is still filtered


def test_the_controls_of_the_single_form_stay_together(browser, pages, agent_llm, memory_dir):
    # The task names none of the select's options nor the button: the form rule alone keeps them.
    offered, _ = first_choice(browser, pages, agent_llm, memory_dir, "filter_choose.html", "Fill in my nickname")

    assert any(label.startswith('textbox "Nickname"') for label in offered)
    assert any(label.startswith('combobox "Name"') for label in offered)
    assert any(label.startswith('button "Submit"') for label in offered)
    assert not any('link "Home"' in label for label in offered)


def keep_only_a_link(text: str) -> dict:
    listed = options(text.split("Candidates from:", 1)[1])
    return {"indices": [i for i, label in enumerate(listed) if label.startswith('link "Add product"')][:1]}


def first_offer(browser, pages, agent_llm, memory_dir, task: str) -> tuple[list[str], object]:
    server = agent_llm(choose=end_then_give_up, overrides={"candidate_filtering": keep_only_a_link})
    browser.run(run_task(task, session=browser.session, start_url=pages.url("list_with_search.html"),
                         memory_dir=memory_dir, max_steps=1), timeout=180)
    return candidates_of(server.prompts("action_selection")[0]), server


def test_a_search_for_what_no_row_shows_survives_the_filter(browser, pages, agent_llm, memory_dir):
    offered, server = first_offer(browser, pages, agent_llm, memory_dir, "What is the price of the Metronome?")

    assert server.prompts("candidate_filtering")  # the filter was asked, and kept only "Add product"
    assert offered[0].startswith("search ") and offered[0].endswith('for "Metronome"'), offered  # kept, and first
    assert not any(label.startswith('link "Orders"') for label in offered)  # the rest is still filtered



def test_the_link_of_the_row_an_errand_names_survives_the_filter_and_comes_first(browser, pages, agent_llm, memory_dir):
    # The held-out admin's customer list showed Bruno Smith's row; the filtering call kept only the bulk-action
    # button and a search, and the model never opened his record to change his city.
    offered, server = first_offer(browser, pages, agent_llm, memory_dir, "Set the price of the French Press to 30.")

    assert server.prompts("candidate_filtering")  # the filter was asked, and kept only "Add product"
    assert offered[0] == 'link "French Press"', offered
    assert not any(label.startswith('link "Kettle"') for label in offered)  # the other rows are still filtered
