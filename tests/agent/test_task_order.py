"""An order the task gives is a checklist the actor sees (act/task_parts.py): an action on the page ticks the first
part not done that names it, the action-selection prompt shows the parts with their ticks, and an element a later
part names is refused once while an earlier part naming another element of the page is not done. Real headless
Chromium, the real extension, the scripted LLM."""

from __future__ import annotations

from companion.agent.decide import TRIED
from companion.agent.loop import run_task
from tests.support.agent_llm import candidates_of, index_of

TASK = "Click button ONE, then click button TWO"


def two_first(text: str, labels: list[str]) -> int:
    """A model that reaches for TWO whenever it can, and ends once the prompt shows part 2 ticked."""
    if "[x] 2. click button TWO" in text:
        return index_of(labels, r"^end the task")
    two = index_of(labels, r'^button "TWO"')
    return two if two is not None else index_of(labels, r'^button "ONE"')


def run(browser, pages, memory_dir):
    return browser.run(run_task(TASK, session=browser.session, start_url=pages.url("ordered_clicks.html"),
                                memory_dir=memory_dir, max_steps=2), timeout=240)


def test_the_parts_are_clicked_in_the_order_the_task_gives(browser, pages, agent_llm, memory_dir):
    agent_llm(choose=two_first)
    result = run(browser, pages, memory_dir)

    assert browser.driver.execute_script("return window.clicks") == ["ONE", "TWO"]
    assert result.status == "done", result.explanation


def test_the_actor_sees_the_parts_with_the_done_ones_ticked(browser, pages, agent_llm, memory_dir):
    server = agent_llm(choose=two_first)
    run(browser, pages, memory_dir)

    prompts = server.prompts("action_selection")
    assert "[ ] 1. Click button ONE" in prompts[0] and "[ ] 2. click button TWO" in prompts[0]
    refused = prompts[1]  # TWO was refused: shown as tried, with the part that comes first
    assert TRIED in candidates_of(refused) and 'part 1, "Click button ONE", comes first' in refused
    assert any("[x] 1. Click button ONE" in p and "[ ] 2. click button TWO" in p for p in prompts)
