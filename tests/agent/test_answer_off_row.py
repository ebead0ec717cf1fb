"""A lookup's answer whose values are all outside the row the question names, that row in sight, is refused once
(agent/finish.py off_row, observe/rows.py off_named_row): the record's own page may hold what the list does not
show. Real headless Chromium, the real extension, the scripted LLM."""

from __future__ import annotations

from companion.agent.loop import run_task
from tests.support.agent_llm import index_of
from tests.support.task_events import notes


def _run(browser, pages, agent_llm, memory_dir, task: str, answers: list[str]):
    asked: list[str] = []

    def answer(text: str) -> str:  # the answers in turn, the last one again after them
        asked.append(text)
        return answers[min(len(asked), len(answers)) - 1]

    def choose(text: str, labels: list[str]) -> int:
        if "not in the row of 102" in text and 'Clicked link "102"' not in text:
            return index_of(labels, r'^link "102"')
        return index_of(labels, r"^end the task")

    agent_llm(choose=choose, verify=lambda text: True, answer=answer)
    return browser.run(run_task(task, session=browser.session, start_url=pages.url("orders_list.html"),
                                memory_dir=memory_dir, max_steps=3), timeout=300)


def test_an_answer_the_named_row_does_not_hold_is_refused_once_and_the_record_opened(
        browser, pages, agent_llm, memory_dir):
    # The order list's row 102 shows no quantity; "1" was read off the list's "1 result" on the held-out admin.
    result = _run(browser, pages, agent_llm, memory_dir, "What is the total quantity of items in order 102?",
                  ["1", "3"])
    refusal = next(n for n in notes(result) if "not in the row of 102" in n)
    assert "1" in refusal and "own page" in refusal, refusal
    assert result.actions == ['Clicked link "102"'] and result.answer == "3", (result.actions, result.answer)


def test_an_answer_the_named_row_holds_ends_the_task(browser, pages, agent_llm, memory_dir):
    result = _run(browser, pages, agent_llm, memory_dir, "What is the total of order 102?", ["$21.50"])
    assert result.status == "done" and result.answer == "$21.50" and result.actions == []
    assert not any("not in the row" in n for n in notes(result))
