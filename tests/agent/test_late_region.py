"""In real Chromium with the real extension and the scripted LLM: a region added after page
entry has its elements offered as candidates, and the agent clicks one, without view_all.

The shop searches in the page: its results are appended at the end of the document (after every section that
existed at page entry, beyond the first five unselected ones) and the URL stays the same. Nothing remembers
them as a trigger's menu, so only the observation's added group can bring them to the action selection: right
after the search (the continuation) and on later steps of the page."""

from __future__ import annotations

import re

from companion.agent.loop import run_task
from tests.support.agent_llm import index_of

TASK = "What is the price of the Moka Express pot? Use the shop's search."
PRICE = "$34.90"


def _price(text: str) -> str:
    match = re.search(r"Price: (\$\d+\.\d\d)", text)
    return match.group(1) if match else "(none)"


def test_search_results_added_to_the_page_after_entry_are_offered_and_one_is_clicked(
        browser, pages, agent_llm, memory_dir):
    searched: list[str] = []

    def choose(text: str, labels: list[str]) -> int:
        result = index_of(labels, r'^link "Moka Express pot"')
        if PRICE in text or (result is None and searched):
            return index_of(labels, r"^end the task")
        if result is not None:
            return result
        searched.append(text)
        return index_of(labels, r'^searchbox "Search the shop"')

    server = agent_llm(choose=choose, answer=_price, overrides={"search_query": lambda text: {"value": "moka pot"}})
    result = browser.run(run_task(TASK, session=browser.session, start_url=pages.url("late_results.html"),
                                  memory_dir=memory_dir, max_steps=3), timeout=300)

    assert 'Clicked link "Moka Express pot"' in result.actions, result.actions
    assert result.status == "done" and result.answer == PRICE, (result.status, result.explanation)
    first, after_search = server.prompts("action_selection")[:2]
    assert 'link "Moka Express pot"' not in first
    assert 'link "Moka Express pot"' in after_search  # offered in the step the results appeared in
    assert not any("view all" in a for a in result.actions)
