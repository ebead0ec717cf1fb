"""In real Chromium with the real extension and the scripted LLM: a long list is paged through,
never cut. A 100-option custom menu is shown a page at a time (the 87th option can be chosen), search suggestions
after the 20th are offered, and the candidate pool of the unselected sections is not cut at 60 elements.

The scripted model picks by the option's exact name when it is shown and answers -1 ("none here") otherwise."""

from __future__ import annotations

import re

from selenium.webdriver.common.by import By

from companion.agent.loop import run_task
from tests.support.agent_llm import candidates_of, index_of, options


def pick(pattern: str):
    """Choose the element matching `pattern` while it is offered, then end the task."""
    def choose(text: str, labels: list[str]) -> int:
        found = index_of(labels, pattern)
        return found if found is not None else index_of(labels, r"^end the task")
    return choose


def pick_option(name: str):
    """A choice prompt's answer: the option with exactly this name when the prompt shows it, else -1."""
    def answer(text: str) -> dict:
        found = index_of(options(text), rf'"{re.escape(name)}"')
        return {"reason": "scripted", "index": -1 if found is None else found}
    return answer


def run(browser, pages, memory_dir, page: str, task: str, max_steps: int = 2):
    return browser.run(run_task(task, session=browser.session, start_url=pages.url(page), memory_dir=memory_dir,
                                max_steps=max_steps), timeout=300)


def test_the_87th_option_of_a_100_option_menu_is_chosen(browser, pages, agent_llm, memory_dir):
    server = agent_llm(choose=pick(r'^button "Choose a group"'),
                       overrides={"dropdown_option": pick_option("Support team 87")})
    result = run(browser, pages, memory_dir, "long_menu.html", "Assign the incident to Support team 87")

    assert browser.driver.find_element(By.ID, "chosen").text == "Support team 87"
    assert 'Clicked option "Support team 87"' in result.actions
    asked = server.prompts("dropdown_option")
    shown = [label for text in asked for label in options(text)]
    assert len(asked) == 2 and 'option "Support team 100"' in shown  # two pages, every option seen
    assert "these are options 61 to 100" in asked[1]


def test_a_menu_showing_the_option_the_task_names_is_not_opened_again(browser, pages, agent_llm, memory_dir):
    # The default model set the group to team 87, opened the menu again and picked team 68.
    server = agent_llm(choose=pick(r'^button "(Choose a group|Support team \d+)"'),
                       overrides={"dropdown_option": pick_option("Support team 87")})
    result = run(browser, pages, memory_dir, "long_menu.html", "Assign the incident to Support team 87", max_steps=1)

    assert browser.driver.find_element(By.ID, "chosen").text == "Support team 87"
    assert result.actions.count('Clicked option "Support team 87"') == 1
    assert len(server.prompts("dropdown_option")) == 2  # one opening of the menu: its two pages
    after = server.prompts("action_selection")[2]
    assert 'Already so: button "Support team 87" already shows "Support team 87", the option the task names' in after


def test_the_option_the_task_quotes_is_taken_as_the_menu_opens_with_no_call(browser, pages, agent_llm, memory_dir):
    server = agent_llm(choose=pick(r'^button "Choose a group"'),
                       overrides={"dropdown_option": pick_option("Support team 12")})
    result = run(browser, pages, memory_dir, "long_menu.html", 'Assign the incident to "Support team 87"')

    assert browser.driver.find_element(By.ID, "chosen").text == "Support team 87"
    assert 'Clicked option "Support team 87"' in result.actions
    assert not server.prompts("dropdown_option")


def test_a_short_menu_is_still_one_call(browser, pages, agent_llm, memory_dir):
    server = agent_llm(choose=pick(r'^button "Choose a colour"'), overrides={"dropdown_option": pick_option("Ocean blue")})
    run(browser, pages, memory_dir, "act_dropdown.html", "Choose the Ocean blue paint")

    assert browser.driver.find_element(By.ID, "chosen").text == "Ocean blue"
    (asked,) = server.prompts("dropdown_option")
    assert "a page at a time" not in asked


def test_a_suggestion_after_the_20th_is_reachable(browser, pages, agent_llm, memory_dir):
    server = agent_llm(choose=pick(r'^searchbox "Search stations"'),
                       overrides={"input_value": lambda text: {"value": "Halt"},
                                  "search_suggestion": pick_option("Halt 25")})
    result = run(browser, pages, memory_dir, "long_suggestions.html", 'Look up the train times of "Halt 25"', max_steps=1)

    assert browser.driver.find_element(By.ID, "results").text == "Times for: Halt 25"
    assert 'Clicked button "Halt 25"' in result.actions
    assert len(server.prompts("search_suggestion")) == 2  # 30 suggestions: two pages


def main_only(text: str) -> dict:
    """Section selection keeping the last section only (the page's <main>): the 80-link archive navigation
    before it stays unselected, so its links reach the candidates through the pool of unselected sections."""
    return {"indices": [len(options(text)) - 1]}


def test_the_candidate_pool_is_not_cut_at_60_elements(browser, pages, agent_llm, memory_dir):
    server = agent_llm(choose=pick(r'^link "Report 75"'), overrides={"section_selection": main_only})
    run(browser, pages, memory_dir, "long_pool.html", 'Open "Report 75"', max_steps=1)

    filtered = [label for text in server.prompts("candidate_filtering") for label in options(text.split("Candidates from:", 1)[1])]
    assert 'link "Report 75"' in filtered  # the filter was asked about it
    offered = candidates_of(server.prompts("action_selection")[0])
    assert any(label.startswith('link "Report 75"') for label in offered)


def test_a_remembered_long_menu_says_how_many_entries_it_has_and_how_to_see_them(browser, pages, agent_llm, memory_dir):
    agent_llm(choose=pick(r'^button "Choose a group"'), overrides={"dropdown_option": pick_option("Support team 87")})
    run(browser, pages, memory_dir, "long_menu.html", 'Assign the incident to "Support team 87"', max_steps=1)
    # A later task on the page: the remembered entries are offered directly, the first ones only, and said so.
    server = agent_llm(choose=pick(r"^end the task"))
    run(browser, pages, memory_dir, "long_menu.html", "Which groups can the incident be assigned to?", max_steps=1)

    offered = candidates_of(server.prompts("action_selection")[0])
    (trigger,) = [label for label in offered if label.startswith('button "Choose a group"')]
    assert "opens a menu of 100 entries" in trigger and "open it to choose from all" in trigger
    assert any('option "Support team 1" (in the menu of' in label for label in offered)


def test_a_page_read_by_section_selection_costs_no_page_summary_in_a_task(browser, pages, agent_llm, memory_dir):
    # No step reads the one-sentence page summary: in a task it was ~600 prompt tokens per new page for memory only.
    server = agent_llm(choose=pick(r'^link "Report 75"'), overrides={"section_selection": main_only})
    run(browser, pages, memory_dir, "long_pool.html", 'Open "Report 75"', max_steps=1)

    assert server.prompts("section_selection")  # the page went through the pipeline, not shown whole
    assert server.prompts("page_summary") == []
