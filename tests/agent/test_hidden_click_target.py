"""An end while the name the task asks to click is on no element of the page and a tab was never opened is refused
once a tab, the step opening that tab (agent/finish.py hidden_click_target); once the name is in sight, an end
before it was clicked is refused with it (unclicked_named). Real headless Chromium, the real extension, the
scripted LLM, on a fixture of three tabs."""

from __future__ import annotations

from selenium.webdriver.common.by import By

from tests.support.agent_llm import end_or, run_from
from tests.support.task_events import notes


def test_an_end_before_the_quoted_link_was_found_opens_the_tabs_not_opened_yet(browser, pages, agent_llm, memory_dir):
    # The default model opened one tab of three, did not find "Nisl" there and ended with "Clicked tab 'Tab #2'".
    # The end is refused with no way named: the tab "Two".
    agent_llm(choose=end_or(r'^tab "Two"'), answer=lambda text: "clicked it")
    result = run_from(browser, pages, memory_dir, 'Switch between the tabs to find and click on the link "Tiber".',
                      "tabbed_links.html", 3)

    assert any('"Tiber", which no element on this page bears; tab "Three"' in n for n in notes(result)), notes(result)
    assert result.actions[0] == 'Clicked tab "Two"' and result.actions[1].startswith('Clicked tab "Three"'), result.actions
    assert browser.driver.find_element(By.ID, "did").text == "clicked Tiber"
