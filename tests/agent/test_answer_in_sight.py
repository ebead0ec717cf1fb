"""A question whose row is in sight (copied by rule with its headers, observe/rows.py) is checked for its answer
first: no candidate filtering or action choice on that page when the check finds it answered (agent/step.py).
Refused, the step goes on as usual. Real headless Chromium, the real extension, the scripted LLM."""

from __future__ import annotations

from companion.agent.loop import run_task
from tests.support.agent_llm import index_of

QUESTION = "What is the email address of the customer who placed order 117?"


def _run(browser, pages, agent_llm, memory_dir, task, verify, choose):
    server = agent_llm(choose=choose, verify=verify, answer=lambda text: "ann.lee@example.com")
    result = browser.run(run_task(task, session=browser.session, start_url=pages.url("orders_list.html"),
                                  memory_dir=memory_dir, max_steps=2), timeout=300)
    return server, result


def test_a_question_whose_row_is_in_sight_is_answered_without_choosing_among_the_pages_actions(
        browser, pages, agent_llm, memory_dir):
    server, result = _run(browser, pages, agent_llm, memory_dir, QUESTION, verify=lambda text: "Number: 117" in text,
                          choose=lambda text, labels: index_of(labels, r"^end the task"))

    assert result.status == "done" and result.answer == "ann.lee@example.com", result.explanation
    assert not server.prompts("candidate_filtering") and not server.prompts("action_selection")
    assert any("checked first for the answer" in e.text for e in result.events if e.kind == "note")


def test_a_refused_check_leaves_the_step_to_the_pages_actions(browser, pages, agent_llm, memory_dir):
    checks: list[str] = []

    def verify(text: str) -> bool:
        checks.append(text)
        return False  # not yet, at the first look (the check runs once a task: the next end goes to the answer)

    server, result = _run(browser, pages, agent_llm, memory_dir, QUESTION, verify=verify,
                          choose=lambda text, labels: index_of(labels, r'^link "117"'))

    assert server.prompts("action_selection")  # the step went on to choose an action
    assert result.status == "done" and len(checks) == 1, result.explanation


def test_an_errand_naming_a_row_is_not_checked_first(browser, pages, agent_llm, memory_dir):
    server, result = _run(browser, pages, agent_llm, memory_dir, "Open order 117.", verify=lambda text: True,
                          choose=lambda text, labels: (index_of(labels, r"^end the task") if "Clicked" in text
                                                       else index_of(labels, r'^link "117"')))

    assert server.prompts("action_selection")
    assert not any("checked first" in e.text for e in result.events if e.kind == "note")
