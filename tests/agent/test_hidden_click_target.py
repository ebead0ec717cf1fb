"""An end while the name the task asks to click is on no element of the page and a tab was never opened is refused
once a tab, the step opening that tab (agent/finish.py hidden_click_target); once the name is in sight, an end
before it was clicked is refused with it (unclicked_named). Real headless Chromium, the real extension, the
scripted LLM, on a fixture of three tabs."""

from __future__ import annotations

from selenium.webdriver.common.by import By

from companion.agent.loop import run_task
from tests.support.agent_llm import index_of
from tests.support.task_events import notes


def test_an_end_before_the_quoted_link_was_found_opens_the_tabs_not_opened_yet(browser, pages, agent_llm, memory_dir):
    # The default model opened one tab of three, did not find "Nisl" there and ended with "Clicked tab 'Tab #2'".
    def choose(text: str, labels: list[str]) -> int:  # the end; refused with no way named, the tab "Two"
        found = index_of(labels, r"^end the task")
        return found if found is not None else index_of(labels, r'^tab "Two"')

    agent_llm(choose=choose, answer=lambda text: "clicked it")
    result = browser.run(run_task('Switch between the tabs to find and click on the link "Tiber".', session=browser.session,
                                  start_url=pages.url("tabbed_links.html"), memory_dir=memory_dir, max_steps=3),
                         timeout=300)

    assert any('"Tiber", which no element on this page bears; tab "Three"' in n for n in notes(result)), notes(result)
    assert result.actions[0] == 'Clicked tab "Two"' and result.actions[1].startswith('Clicked tab "Three"'), result.actions
    assert browser.driver.find_element(By.ID, "did").text == "clicked Tiber"
