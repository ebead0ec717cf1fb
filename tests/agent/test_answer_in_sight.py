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

    # No column of the row is named by this question: the check is the verification call's, which refuses.
    server, result = _run(browser, pages, agent_llm, memory_dir, "Who handles order 117?", verify=verify,
                          choose=lambda text, labels: index_of(labels, r'^link "117"'))

    assert server.prompts("action_selection")  # the step went on to choose an action
    assert result.status == "done" and len(checks) == 1, result.explanation


def test_an_errand_naming_a_row_is_not_checked_first(browser, pages, agent_llm, memory_dir):
    server, result = _run(browser, pages, agent_llm, memory_dir, "Open order 117.", verify=lambda text: True,
                          choose=lambda text, labels: (index_of(labels, r"^end the task") if "Clicked" in text
                                                       else index_of(labels, r'^link "117"')))

    assert server.prompts("action_selection")
    assert not any("checked first" in e.text for e in result.events if e.kind == "note")


def test_a_question_the_named_rows_cells_answer_needs_no_verification_call(browser, pages, agent_llm, memory_dir):
    # The verification call would refuse (as the default model once did of a correct price): it is not asked, since
    # the observation states the row's cells under the columns the question names (Customer, Email).
    server, result = _run(browser, pages, agent_llm, memory_dir, QUESTION, verify=lambda text: False,
                          choose=lambda text, labels: index_of(labels, r"^end the task"))

    assert result.status == "done" and result.answer == "ann.lee@example.com", result.explanation
    assert not server.prompts("end_task_verification")


def test_a_named_rows_cell_the_observation_does_not_state_leaves_the_check_to_the_call():
    from companion.agent.finish import answered_by_named_row
    from companion.pagemem.divide import divide_page
    from tests.support.htmlsnap import snapshot_from_html

    rows = "".join(f"<tr><td>{n}</td><td>{c}</td><td>{e}</td></tr>" for n, c, e in
                   [("117", "Ann Lee", "ann@example.com"), ("118", "Bo Chen", "bo@example.com"), ("119", "Cy Diaz", "cy@example.com")])
    page = f"<table><thead><tr><th>Number</th><th>Customer</th><th>Email</th></tr></thead><tbody>{rows}</tbody></table>"
    pm = divide_page(snapshot_from_html(f"<html><body>{page}</body></html>", url="http://127.0.0.1/orders/", title="Orders"))
    assert answered_by_named_row(QUESTION, pm, "Order 117 was placed by Ann Lee, ann@example.com.")
    assert not answered_by_named_row(QUESTION, pm, "Order 117 was placed by Ann Lee.")  # the email is not stated
    assert not answered_by_named_row(QUESTION, pm, "Order 118 was placed by Bo Chen, bo@example.com.")  # another row
    assert not answered_by_named_row("How many orders did Ann Lee place?", pm, "Ann Lee placed order 117.")
