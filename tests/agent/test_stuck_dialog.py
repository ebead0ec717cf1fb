"""A consent dialog whose buttons do not close it does not trap the agent: once a step's action leaves the
modal exactly as it was, the page behind it is let back in (observation and candidates), so the price behind
the dialog is read and answered (real Chromium, real extension, scripted LLM over real HTTP)."""

from __future__ import annotations

import re

from companion.agent.loop import run_task
from tests.support.agent_llm import index_of

TASK = "What is the price of the Blue kettle?"
PRICE = "$24.50"


def _price(text: str) -> str:
    match = re.search(r"Price: (\$\d+\.\d\d)", text)
    return match.group(1) if match else "No price information available"


def test_a_dialog_whose_dismiss_does_nothing_lets_the_page_behind_it_back_in(browser, pages, agent_llm, memory_dir):
    rejected: list[str] = []

    def choose(text: str, labels: list[str]) -> int:
        if PRICE in text:
            return index_of(labels, r"^end the task")
        reject = index_of(labels, r'button "Reject all"')
        if reject is not None and not rejected:
            rejected.append(text)
            return reject  # the dismiss that does nothing
        for pattern in (r"^view all", r"^end the task", r'button "Reject all"'):
            i = index_of(labels, pattern)
            if i is not None:
                return i
        return 0

    llm_server = agent_llm(choose=choose, verify=lambda text: PRICE in text, answer=_price)
    result = browser.run(run_task(TASK, session=browser.session, start_url=pages.url("agent_cookie_wall.html"),
                                  memory_dir=memory_dir, max_steps=6), timeout=240)

    assert result.status == "done", result.explanation
    assert result.answer == PRICE
    assert result.actions == ['Clicked button "Reject all"']  # one dismiss, then the page behind it
    first, second = llm_server.prompts("action_selection")[:2]
    assert 'link "Kettles"' not in first  # while the dialog was fresh, only it was offered
    assert 'link "Kettles"' in second and PRICE in second
