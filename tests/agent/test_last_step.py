"""An episode does not end without a single action: on the step budget's last step, with nothing done in the whole
task, end task is refused (agent/finish.py unacted_at_last_step) and the last choice is among the page's actions.
Real headless Chromium, the real extension, the scripted LLM."""

from __future__ import annotations

from companion.agent.loop import run_task
from tests.support.agent_llm import index_of


def end_whenever_offered(text: str, labels: list[str]) -> int:
    end = index_of(labels, r"^end the task")
    return end if end is not None else index_of(labels, r'^button "Like"')


def test_the_last_step_of_a_task_that_did_nothing_acts_before_it_ends(browser, pages, agent_llm, memory_dir):
    agent_llm(choose=end_whenever_offered)
    result = browser.run(run_task("Like the post by Ada", session=browser.session, start_url=pages.url("last_step.html"),
                                  memory_dir=memory_dir, max_steps=1), timeout=240)

    assert browser.driver.execute_script("return window.liked") == ["Ada"]
    assert result.actions == ['Clicked button "Like" (for "Ada: the kettles are in.")']  # its post tells it apart
    assert result.status == "done", result.explanation
