"""Before the task's first action, an observation sentence saying the user already did something is left out, and
the actor is told nothing was done yet (observe/grounding.claims_progress, agent/step.py): the default model wrote
"The user has already entered 'Dannie' into the textbox and pressed 'Search'" on a task's first page, and acted on
it. Real Chromium, the real extension, the scripted LLM; the sentence rule as a pure function."""

from __future__ import annotations

import pytest

from companion.agent.loop import run_task
from companion.observe.grounding import claims_progress
from tests.support.agent_llm import index_of
from tests.support.task_events import notes

TASK = "Select alpha and gamma, then click Submit."
CLAIM = "The user has already selected alpha and gamma."


@pytest.mark.paper_pipeline  # the page summarised by the model, not shown whole
def test_a_first_pages_summary_claiming_done_work_is_cut_and_the_actor_told_nothing_was_done(
        browser, pages, agent_llm, memory_dir):
    server = agent_llm(choose=lambda text, labels: index_of(labels, r'^checkbox "alpha"'),
                       overrides={"page_task_summary": lambda text: {"summary": f"Five boxes are listed. {CLAIM}"}})
    result = browser.run(run_task(TASK, session=browser.session, start_url=pages.url("many_boxes.html"),
                                  memory_dir=memory_dir, max_steps=1), timeout=180)

    first = server.prompts("action_selection")[0]
    assert CLAIM not in first and "Five boxes are listed." in first
    assert "(Nothing has been done in this task yet.)" in first
    assert any("nothing was done in this task yet" in n and CLAIM in n for n in notes(result))


def test_sentences_saying_the_user_did_something_claim_progress():
    assert claims_progress("The user has already entered 'Dannie' into the textbox.")
    assert claims_progress("You have chosen 5ft 11in from the dropdown.")
    # On a menu page before any action: "The user has already ordered these two items", then "Order!" was pressed.
    assert claims_progress("The user has already ordered these two items, so the next step is to order the rest.")
    # Odd or even, before any mark: "The task is already completed with the numbers marked as 'Even'".
    assert claims_progress("The task is already completed with the numbers marked as 'Even' and 'Even' respectively.")
    assert claims_progress("This task has been successfully completed.")


def test_what_is_left_to_do_and_the_pages_own_state_claim_nothing():
    assert not claims_progress("The user has not yet clicked the Yes button.")
    assert not claims_progress("The user has to select three boxes.")
    assert not claims_progress("Order #110 has been shipped to Ann Lee.")
    assert not claims_progress("The user has already found Ann Lee in the contact book, at 5550 Marsh Grove.")
    assert not claims_progress("The task is to mark each number as odd or even.")
    assert not claims_progress("Task 4 is completed in the tracker's list.")  # a record's state, not the user's task
