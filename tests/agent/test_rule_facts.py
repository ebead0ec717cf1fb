"""When no sentence of a page task summary holds, the rows the observation read by rule are the observation
(agent/step.py _grounded): the default model wrote "the email address of the customer who placed order SO-1010 is
Daniel Ricci" over the order's row, the sentence was rightly dropped, and the row's "Customer: Daniel Ricci", the
way on to the customer, went with it. Real Chromium, the real extension, the scripted LLM."""

from __future__ import annotations

import pytest

from companion.agent.loop import run_task
from tests.support.agent_llm import index_of
from tests.support.task_events import notes

TASK = "What is the email address of the customer who placed order SO-1010?"


@pytest.mark.paper_pipeline  # the page summarised by the model, not shown whole
def test_a_summary_giving_a_name_as_the_email_leaves_the_named_row_as_the_observation(
        browser, pages, agent_llm, memory_dir):
    server = agent_llm(choose=lambda text, labels: index_of(labels, r'^link "SO-1010"'),
                       overrides={"page_task_summary": lambda text: {
                           "summary": "The email address of the customer who placed order SO-1010 is Daniel Ricci."}})
    browser.run(run_task(TASK, session=browser.session, start_url=pages.url("order_rows.html"), memory_dir=memory_dir,
                         max_steps=1), timeout=180)

    first = server.prompts("action_selection")[0]
    current = first.split("Current page:", 1)[1].split("Possible actions:", 1)[0]
    assert "is Daniel Ricci" not in current
    assert "Customer: Daniel Ricci" in current and "SO-1010" in current  # the row, read by rule
    assert "Daniel Ricci is no email address" in current


def test_the_row_the_tasks_record_leads_to_is_checked_for_the_answer_before_any_action(
        browser, pages, agent_llm, memory_dir):
    # The order's row names its customer (step 1); on the customer list his row holds the email (step 2). A model
    # that would go on searching (the default model searched for him three more times on the held-out admin).
    server = agent_llm(choose=lambda text, labels: index_of(labels, r'^link "(Customers|Orders)"'),
                       answer=lambda text: "daniel.ricci@example.com")
    result = browser.run(run_task(TASK, session=browser.session, start_url=pages.url("order_rows.html"),
                                  memory_dir=memory_dir, max_steps=3), timeout=240)

    assert result.actions == ['Clicked link "Customers"'], result.actions
    assert result.status == "done" and result.answer == "daniel.ricci@example.com"
    assert any("record leads to is on this page: checked first" in n for n in notes(result)), notes(result)
    # On the order list, where his name was read, the order list is not searched for him.
    first = server.prompts("action_selection")[0]
    assert 'searchbox "Search orders"' in first and 'for "Daniel Ricci"' not in first
