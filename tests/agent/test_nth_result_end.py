"""An end while the task asks for the Nth result, counted over the list's pages, and it was not clicked is refused
once a page, and the step takes the way the refusal names: the page link toward it, then the result
(agent/finish.py, act/nth_result.py). Real headless Chromium, the real extension, the scripted LLM."""

from __future__ import annotations

from selenium.webdriver.common.by import By

from tests.support.agent_llm import end_or, run_from
from tests.support.task_events import notes


def test_an_end_before_the_5th_result_was_clicked_is_refused_and_its_way_taken(browser, pages, agent_llm, memory_dir):
    # The default model pressed Search again and again and ended saying it had clicked the 6th result.
    agent_llm(choose=end_or(r'^link "Result 5"'), answer=lambda text: "clicked it")
    result = run_from(browser, pages, memory_dir, "Find and click the 5th search result.", "result_pages.html", 4)

    refusals = [n for n in notes(result) if "the 5th search result" in n]
    assert any("is on page 2" in n for n in refusals) and any('is "Result 5"' in n for n in refusals), refusals
    assert result.actions[0] == 'Clicked link "2"' and result.actions[1].startswith('Clicked link "Result 5"'), result.actions
    assert browser.driver.find_element(By.ID, "did").text == "Result 5"


def test_the_counted_result_on_the_lists_last_page_is_found_by_the_page_size_read_before(
        browser, pages, agent_llm, memory_dir):
    # The last page may hold fewer results: its size is the one read on page 1 (the rule said nothing there before).
    agent_llm(choose=end_or(r'^link "Result 7"'), answer=lambda text: "clicked it")
    result = run_from(browser, pages, memory_dir, "Find and click the 7th search result.", "result_pages.html", 4)

    assert result.actions[0] == 'Clicked link "3"' and result.actions[1].startswith('Clicked link "Result 7"'), result.actions
    assert browser.driver.find_element(By.ID, "did").text == "Result 7"
