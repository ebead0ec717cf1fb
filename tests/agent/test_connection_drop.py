"""The extension's worker restarts in the middle of a task (MV3 stops idle workers): the task waits for the
extension to come back, tells the user, and goes on to its answer. Real Chromium, real extension."""

from __future__ import annotations

import pytest

from companion.agent.loop import run_task
from tests.support.agent_llm import index_of
from tests.support.worker import restart_worker

pytestmark = pytest.mark.browser


def test_a_worker_restart_mid_task_is_noted_and_the_task_goes_on(browser, pages, agent_llm, memory_dir):
    session = browser.session
    restarted: list = []

    def choose(text: str, labels: list[str]) -> int:
        if "agent_kettles.html" in text.split("Current page:", 1)[1].split("\n", 1)[0]:
            return index_of(labels, r"^end the task")
        if not restarted:  # the worker goes away while the LLM thinks and is back only after the click is due
            restarted.append(restart_worker(browser, session, start_after=3.0))
        return index_of(labels, r'link "Kettles"')

    agent_llm(choose=choose, verify=lambda text: True, answer=lambda text: "$24.50")
    result = browser.run(run_task("What is the price of the Blue kettle?", session=session,
                                  start_url=pages.url("agent_shop.html"), memory_dir=memory_dir), timeout=180)
    restarted[0].join()  # the timer that starts the worker must not outlive the test

    assert result.status == "done", result.explanation
    assert result.actions == ['Clicked link "Kettles"']
    notes = [e.text for e in result.events if e.kind == "note"]
    # Whether the extension was back before the click was due or only after, the user is told once.
    assert any("browser connection" in n and "lost" in n for n in notes), notes
    assert browser.session is not session and browser.driver.current_url == pages.url("agent_kettles.html")
