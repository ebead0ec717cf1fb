"""A superlative question on a list of several pages whose rows are not sorted as it asks is refused once, and the
step takes the ranked column's sort link itself (agent/finish.py unsorted_extreme, Refused.remedy); sorted as
asked, the first row answers. Real headless Chromium, the real extension, the scripted LLM."""

from __future__ import annotations

from companion.agent.loop import run_task
from tests.support.agent_llm import index_of
from tests.support.task_events import notes


def _run(browser, pages, agent_llm, memory_dir, start: str):
    server = agent_llm(choose=lambda text, labels: index_of(labels, r"^end the task"), answer=lambda text: "Seed Kit")
    result = browser.run(run_task("Which product has the highest price?", session=browser.session,
                                  start_url=pages.url(start), memory_dir=memory_dir, max_steps=3), timeout=300)
    return server, result


def test_an_unsorted_list_of_several_pages_is_sorted_as_asked_before_the_answer(browser, pages, agent_llm, memory_dir):
    server, result = _run(browser, pages, agent_llm, memory_dir, "products_unsorted.html")

    refusal = next(n for n in notes(result) if "has more pages" in n)
    assert 'link "Price"' in refusal, refusal
    assert result.actions == ['Clicked link "Price"'] and result.answer == "Seed Kit", result.actions
    assert any("taken as it said" in n for n in notes(result))


def test_a_list_sorted_as_asked_is_answered_from_its_first_row(browser, pages, agent_llm, memory_dir):
    server, result = _run(browser, pages, agent_llm, memory_dir, "products_by_price.html")

    assert result.actions == [] and result.answer == "Seed Kit" and result.status == "done"
    assert not any("has more pages" in n for n in notes(result))


def test_a_list_sorted_the_other_way_is_sorted_by_the_columns_own_link(browser, pages, agent_llm, memory_dir):
    # Sorted, the admin's header shows a sort rank and a "Toggle sorting" link beside "Price": the remedy is the
    # link the task names, and it was not taken while those were counted as the column's sort links too.
    server, result = _run(browser, pages, agent_llm, memory_dir, "products_by_price_asc.html")

    refusal = next(n for n in notes(result) if "has more pages" in n)
    assert "sorted the other way" in refusal and 'link "Price"' in refusal, refusal
    assert result.actions == ['Clicked link "Price"'] and result.answer == "Seed Kit", result.actions


def test_a_list_sorted_as_asked_is_checked_for_the_answer_before_any_action(browser, pages, agent_llm, memory_dir):
    # A model that would sort the list again (the default model clicked sort links until its time ran out).
    server = agent_llm(choose=lambda text, labels: index_of(labels, r'^link "Name"'), answer=lambda text: "Seed Kit")
    result = browser.run(run_task("Which product has the highest price?", session=browser.session,
                                  start_url=pages.url("products_by_price.html"), memory_dir=memory_dir, max_steps=3),
                         timeout=300)

    assert result.actions == [] and result.answer == "Seed Kit" and result.status == "done", result.actions
    assert any("sorted as the question asks: checked first" in n for n in notes(result))


def test_an_unsorted_list_is_sorted_as_asked_even_by_a_model_that_never_ends(browser, pages, agent_llm, memory_dir):
    # The default model toggled the price sort for six steps and never chose the end the rule would have refused.
    server = agent_llm(choose=lambda text, labels: index_of(labels, r'^link "Name"'), answer=lambda text: "Seed Kit")
    result = browser.run(run_task("Which product has the highest price?", session=browser.session,
                                  start_url=pages.url("products_unsorted.html"), memory_dir=memory_dir, max_steps=3),
                         timeout=300)

    assert result.actions == ['Clicked link "Price"'] and result.answer == "Seed Kit", result.actions
    assert any(n.startswith("Not answerable here yet: the list has more pages") for n in notes(result)), notes(result)


def test_an_answer_naming_nothing_of_the_sorted_lists_first_row_is_asked_again_with_that_row(
        browser, pages, agent_llm, memory_dir):
    # The default model answered a row of the list sorted the other way, two steps earlier; here, a later row.
    answers = ["The Candle, at 97.99", "Seed Kit"]
    server = agent_llm(choose=lambda text, labels: index_of(labels, r"^end the task"),
                       answer=lambda text: answers.pop(0) if len(answers) > 1 else answers[0])
    result = browser.run(run_task("Which product has the highest price?", session=browser.session,
                                  start_url=pages.url("products_by_price.html"), memory_dir=memory_dir, max_steps=3),
                         timeout=300)

    assert result.answer == "Seed Kit" and result.status == "done" and result.actions == [], result.answer
    again = server.prompts("final_answer")[-1]
    assert len(server.prompts("final_answer")) == 2 and "its first row answers it (" in again, again
    assert "Name: Seed Kit | " in again and "Price: 204.99)" in again, again
