"""An end while the task asks for the Nth result, counted over the list's pages, and it was not clicked is refused
once a page, and the step takes the way the refusal names: the page link toward it, then the result
(agent/finish.py, act/nth_result.py). Real headless Chromium, the real extension, the scripted LLM."""

from __future__ import annotations

from selenium.webdriver.common.by import By

from companion.agent.loop import run_task
from tests.support.agent_llm import index_of
from tests.support.task_events import notes


def test_an_end_before_the_5th_result_was_clicked_is_refused_and_its_way_taken(browser, pages, agent_llm, memory_dir):
    # The default model pressed Search again and again and ended saying it had clicked the 6th result.
    def choose(text: str, labels: list[str]) -> int:  # always the end; once it is refused for good, the result again
        found = index_of(labels, r"^end the task")
        return found if found is not None else index_of(labels, r'^link "Result 5"')

    agent_llm(choose=choose, answer=lambda text: "clicked it")
    result = browser.run(run_task("Find and click the 5th search result.", session=browser.session,
                                  start_url=pages.url("result_pages.html"), memory_dir=memory_dir, max_steps=4),
                         timeout=300)

    refusals = [n for n in notes(result) if "the 5th search result" in n]
    assert any("is on page 2" in n for n in refusals) and any('is "Result 5"' in n for n in refusals), refusals
    assert result.actions[0] == 'Clicked link "2"' and result.actions[1].startswith('Clicked link "Result 5"'), result.actions
    assert browser.driver.find_element(By.ID, "did").text == "Result 5"


def test_the_counted_result_on_the_lists_last_page_is_found_by_the_page_size_read_before(
        browser, pages, agent_llm, memory_dir):
    # The last page may hold fewer results: its size is the one read on page 1 (the rule said nothing there before).
    def choose(text: str, labels: list[str]) -> int:
        found = index_of(labels, r"^end the task")
        return found if found is not None else index_of(labels, r'^link "Result 7"')

    agent_llm(choose=choose, answer=lambda text: "clicked it")
    result = browser.run(run_task("Find and click the 7th search result.", session=browser.session,
                                  start_url=pages.url("result_pages.html"), memory_dir=memory_dir, max_steps=4),
                         timeout=300)

    assert result.actions[0] == 'Clicked link "3"' and result.actions[1].startswith('Clicked link "Result 7"'), result.actions
    assert browser.driver.find_element(By.ID, "did").text == "Result 7"
