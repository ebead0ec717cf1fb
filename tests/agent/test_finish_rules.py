"""In real Chromium with the real extension and the scripted LLM: the actor is not shown the
earlier steps' reasons to copy; a task that asks for an action is not
complete before an action that could do it ran; an answer saying the information is not there is refused while
the site's search was not tried, and the model is told what is left (in the observation and the history)."""

from __future__ import annotations

from companion.agent.loop import run_task
from tests.support.agent_llm import candidates_of, index_of
from tests.support.price_task import PRICE_TASK, blue_price, choose_kettles_then_end
from tests.support.task_events import notes


def test_the_actor_sees_no_reasons_to_copy(browser, pages, agent_llm, memory_dir):
    calls = []

    def select(text: str) -> dict:
        calls.append(text)
        return {"reason": f"Reason number {len(calls)}", "index": choose_kettles_then_end(text, candidates_of(text))}

    server = agent_llm(choose=choose_kettles_then_end, answer=blue_price, overrides={"action_selection": select})
    result = browser.run(run_task(PRICE_TASK, session=browser.session, start_url=pages.url("agent_shop.html"),
                                  memory_dir=memory_dir), timeout=180)

    assert result.status == "done", result.explanation
    second = server.prompts("action_selection")[1]
    assert "Reason for Action:" not in second  # nothing to copy from
    assert "Reason number 1" not in second  # copied word for word by the default model, step after step
    assert "Reason for Action: Reason number 1" in result.history  # the history itself keeps the paper's format


def test_a_task_asking_for_an_action_is_not_done_without_one(browser, pages, agent_llm, memory_dir):
    def choose(text: str, labels: list[str]) -> int:
        for pattern in (r"^end the task", r'^textbox "Answer"$', r"^type a URL"):  # (a typed URL fails: not a URL)
            if index_of(labels, pattern) is not None:
                return index_of(labels, pattern)
        return 0  # the filled textbox again: a no-op, the third failed attempt ends the step

    server = agent_llm(choose=choose)
    result = browser.run(run_task("Focus into the textbox", session=browser.session, start_url=pages.url("finish_focus.html"),
                                  memory_dir=memory_dir, max_steps=2), timeout=180)

    assert result.status == "done", result.explanation
    assert result.actions and result.actions[0].startswith('Clicked textbox "Answer"')  # a focus types nothing
    refused = [n for n in notes(result) if n.startswith('Not done yet: the task asks to "focus"')]
    assert refused
    # The model is told in the next choice, and the history keeps it.
    assert 'Not done yet: the task asks to "focus"' in server.prompts("action_selection")[1]
    assert "Note: End task refused at step 1: the task asks to \"focus\"" in result.history
    # The verifier judges the actions, not the refusal: given it, the default model returned it as its verdict.
    verifications = server.prompts("end_task_verification")
    assert verifications and not any("End task refused" in v for v in verifications)


def test_not_provided_is_not_an_answer_while_the_search_was_not_tried(browser, pages, agent_llm, memory_dir):
    def choose(text: str, labels: list[str]) -> int:
        if "left to try: search the site" in text and index_of(labels, r"^searchbox") is not None:
            return index_of(labels, r"^searchbox")
        return index_of(labels, r"^end the task")

    def answer(text: str) -> str:
        return "The Teal kettle costs $31.00." if "finish_results.html" in text else "No price information available."

    agent_llm(choose=choose, answer=answer, overrides={"search_query": lambda text: {"value": "Teal kettle"}})
    result = browser.run(run_task("What is the price of the Teal kettle?", session=browser.session,
                                  start_url=pages.url("finish_shop.html"), memory_dir=memory_dir, max_steps=3), timeout=180)

    assert result.status == "done", result.explanation
    assert result.answer == "The Teal kettle costs $31.00."
    assert any("left to try: search the site with searchbox \"Search the shop\"" in n for n in notes(result))
    assert any(a.startswith('Typed "Teal kettle" into searchbox') for a in result.actions)


def test_an_invented_price_is_not_an_answer_while_a_link_the_task_names_was_not_opened(browser, pages, agent_llm,
                                                                                      memory_dir):
    """The default model answered "The Green kettle costs $5." on a page that only links to the price list."""
    def choose(text: str, labels: list[str]) -> int:
        if "which no page visited showed; left to try" in text and index_of(labels, r'^link "Kettles"') is not None:
            return index_of(labels, r'^link "Kettles"')
        return index_of(labels, r"^end the task")

    def answer(text: str) -> str:
        return "The Green kettle costs $31.00." if "agent_kettles.html" in text else "The Green kettle costs $5."

    server = agent_llm(choose=choose, answer=answer)
    result = browser.run(run_task("How much does the Green kettle cost?", session=browser.session,
                                  start_url=pages.url("agent_shop.html"), memory_dir=memory_dir, max_steps=3), timeout=180)

    assert result.answer == "The Green kettle costs $31.00.", result.explanation
    refused = [n for n in notes(result) if n.startswith("Not done yet: the answer states 5, which no page visited showed")]
    assert refused and 'open link "Kettles"' in refused[0]
    assert any(a.startswith('Clicked link "Kettles"') for a in result.actions)
    assert "Note: End task refused at step 1: the answer states 5" in result.history


def test_an_unseen_number_in_an_answer_is_given_with_a_note_when_nowhere_is_left_to_look():
    from companion.agent.finish import invented_answer

    assert invented_answer(["5"], "How much does the Green kettle cost?", None, [], []) is None  # no page: nowhere
    assert invented_answer(["5"], "Click the button 5 times", None, [], []) is None  # an action task
    assert invented_answer([], "How much does it cost?", None, [], []) is None


def test_the_action_rule_reads_imperatives_not_questions():
    from companion.agent.finish import missing_action, requested_actions, says_not_there

    assert requested_actions("Select Bob from the list and click Submit.") == ["click", "select"]
    assert requested_actions("What is the price of the Blue kettle?") == []
    assert requested_actions("Check whether the Blue kettle is in stock") == []  # a check that asks to look
    assert requested_actions("Check the Newsletter box") == ["check"]
    assert missing_action("Focus into the textbox", ['Clicked textbox "Answer"']) is None
    assert says_not_there("The email is not provided in the current page") and not says_not_there("It costs $5.")
