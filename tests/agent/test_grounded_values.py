"""A value a model states that the page does not support (an email no page shows, or the email of another row
than the one the task names) is left out of the observation, the actor is told it was not found, and an answer
stating one does not end the task: in real Chromium with the real extension and the scripted LLM."""

from __future__ import annotations

import pytest

from companion.agent.loop import run_task
from tests.support.agent_llm import echo_details, index_of
from tests.support.task_events import notes

TASK = "What is the email address of the customer who placed order #110?"
INVENTED = "The customer who placed order #110 has the email address bob@shop.test."


def _run(browser, pages, memory_dir, max_steps: int = 1):
    return browser.run(run_task(TASK, session=browser.session, start_url=pages.url("grounded_customers.html"),
                                memory_dir=memory_dir, max_steps=max_steps), timeout=180)


@pytest.mark.paper_pipeline
def test_a_summary_stating_another_rows_email_is_dropped_and_the_actor_told_it_was_not_found(
        browser, pages, agent_llm, memory_dir):
    def summary(text: str) -> dict:
        page = text.split("Current page: ", 1)[1].split("\n", 1)[0]
        return {"summary": f"{page}. {INVENTED}"}

    server = agent_llm(choose=lambda text, labels: index_of(labels, r'link "Orders"'),
                       overrides={"page_task_summary": summary})
    result = _run(browser, pages, memory_dir)

    (choice,) = server.prompts("action_selection")
    assert "bob@shop.test was not found with 110 on this page" in choice
    assert INVENTED not in choice
    assert any("Left out of the observation" in n and INVENTED in n for n in notes(result))
    assert result.usage.values_dropped == 1


@pytest.mark.paper_pipeline
def test_an_extraction_stating_another_rows_email_never_reaches_the_page_task_summary(
        browser, pages, agent_llm, memory_dir):
    listing = "Customers: Ann Lee (ann@shop.test), Bob Stone (bob@shop.test), Cara Diaz (cara@shop.test)."

    def extraction(text: str) -> dict:
        """A model's prose: the rows it read, then a sentence of its own."""
        return {"details": f"{listing} {INVENTED}" if "bob@shop.test" in text else echo_details(text)["details"]}

    server = agent_llm(choose=lambda text, labels: index_of(labels, r'link "Orders"'),
                       overrides={"detail_extraction": extraction})
    result = _run(browser, pages, memory_dir)

    (summary,) = server.prompts("page_task_summary")
    assert listing in summary and INVENTED not in summary
    assert result.usage.values_dropped == 1


@pytest.mark.parametrize("answer, refusal", [
    ("customer@example.com", "the answer states customer@example.com, which no page visited showed"),
    ("bob@shop.test", "its bob@shop.test was not found with 110 on any page visited"),
])
def test_an_answer_stating_a_value_the_pages_do_not_support_is_refused(browser, pages, agent_llm, memory_dir,
                                                                        answer, refusal):
    agent_llm(choose=lambda text, labels: index_of(labels, r"^end the task"), verify=lambda text: True,
              answer=lambda text: answer)
    result = _run(browser, pages, memory_dir)

    assert result.status != "done" and result.answer != answer
    assert any(n.startswith(f"Not done yet: {refusal}; left to try: open link \"Orders\"") for n in notes(result)), notes(result)
    assert result.usage.values_dropped == 1
