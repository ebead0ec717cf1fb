"""A click that changed nothing is not done a second time on the same page state (agent/loopguard.py known no-ops):
a clickable container whose own click does nothing is shown as done, not clicked again. Real headless Chromium,
the real extension, the scripted LLM."""

from __future__ import annotations

from companion.agent.decide import CHANGED_NOTHING
from companion.agent.loop import run_task
from tests.support.agent_llm import candidates_of, index_of


def always_the_bar(text: str, labels: list[str]) -> int:
    found = index_of(labels, r'^generic "Reply')  # the bar, or its first icon once the two are split
    return found if found is not None else index_of(labels, r"^end the task")


def test_a_container_click_that_changed_nothing_is_not_repeated(browser, pages, agent_llm, memory_dir):
    server = agent_llm(choose=always_the_bar)
    browser.run(run_task("Forward the message to Bo", session=browser.session, start_url=pages.url("dead_container.html"),
                         memory_dir=memory_dir, max_steps=3), timeout=240)

    first, second = (candidates_of(p) for p in server.prompts("action_selection")[:2])
    at = index_of(first, r'^generic "Reply')
    assert second[at] == CHANGED_NOTHING
    assert browser.driver.execute_script("return window.barClicks") == 1
