"""Half the calls: a page small enough to show whole goes to action selection with no observation call,
and after an in-page action the actor reads the page as it is now. Real Chromium + extension, scripted LLM."""

from __future__ import annotations

import re

from companion.agent.loop import run_task
from tests.support.agent_llm import index_of

TASK = 'Enter "Tora" into the Name field and press Save.'
PIPELINE = {"section_summary", "section_selection", "page_summary", "list_item_selection", "list_early_stop",
            "detail_extraction", "page_task_summary", "change_description"}


def current_page(prompt: str) -> str:
    return prompt.split("Current page:", 1)[1].split("Possible actions:", 1)[0]


def step_so_far(prompt: str) -> str:
    """What the step did and was told since the observation: said after the candidates (agent/decide.py)."""
    return prompt.split("In this step so far:", 1)[1] if "In this step so far:" in prompt else ""


def choose(text: str, labels: list[str]) -> int:
    page = current_page(text) + step_so_far(text)
    if "Saved: Tora" in page:
        return index_of(labels, r"^end the task")
    if 'value="Tora"' in page:
        return index_of(labels, r'button "Save"')
    return index_of(labels, r'textbox "Name"')


def guestbook_task(browser, pages, agent_llm, memory_dir):
    server = agent_llm(choose=choose, verify=lambda text: "Saved: Tora" in text, answer=lambda text: "Saved",
                       overrides={"input_value": lambda text: {"value": "Tora"}})
    result = browser.run(run_task(TASK, session=browser.session, start_url=pages.url("whole_guestbook.html"),
                                  memory_dir=memory_dir), timeout=180)
    assert result.status == "done", result.explanation
    return server, result


def test_a_small_page_goes_to_action_selection_with_no_observation_call(browser, pages, agent_llm, memory_dir):
    server, result = guestbook_task(browser, pages, agent_llm, memory_dir)

    prompts = [r.prompt for r in server.requests]
    assert prompts[0] == "action_selection", prompts  # the first call of the task picks the first action
    assert not PIPELINE & set(prompts), prompts
    first = current_page(server.prompts("action_selection")[0])
    assert pages.url("whole_guestbook.html") in first and "Write your name in the field, then press Save." in first
    assert result.usage.calls == len(server.requests)


def test_after_typing_the_actor_reads_the_field_as_filled(browser, pages, agent_llm, memory_dir):
    server, result = guestbook_task(browser, pages, agent_llm, memory_dir)

    assert result.actions[:2] == ['Typed "Tora" into textbox "Name"', 'Clicked button "Save"'], result.actions
    after_typing = current_page(server.prompts("action_selection")[1])
    assert 'textbox "Name" value="Tora"' in after_typing
    # The page as it is now, not a summary written before the action next to a note of what changed.
    assert not re.search(r'- \[\d+\] textbox "Name"(?! value="Tora")', after_typing), after_typing


def test_a_small_page_costs_one_task_summary_and_its_changes_are_listed(browser, pages, agent_llm, memory_dir, monkeypatch):
    # The product default: not shown whole, but a small page (observe/whole.py, Budget.small_page_tokens).
    monkeypatch.setenv("WEBCHALLENGER_WHOLE_PAGE_TOKENS", "0")
    monkeypatch.setenv("WEBCHALLENGER_SMALL_PAGE_TOKENS", "600")
    server, result = guestbook_task(browser, pages, agent_llm, memory_dir)

    prompts = [r.prompt for r in server.requests]
    assert prompts[0] == "page_task_summary", prompts  # the one observation call, over the page's own text
    assert not (PIPELINE - {"page_task_summary"}) & set(prompts), prompts
    assert 'textbox "Name"' in server.prompts("page_task_summary")[0]
    # After typing, the actor is told the changed line itself, with no change_description call.
    after_typing = step_so_far(server.prompts("action_selection")[1])
    assert 'After "Typed "Tora" into textbox "Name"": Now: ' in after_typing and 'value="Tora"' in after_typing


def test_a_continuation_repeats_the_last_prompt_up_to_what_the_step_did(browser, pages, agent_llm, memory_dir, monkeypatch):
    # A page neither shown whole nor small: its observation is not written again after an in-page action.
    monkeypatch.setenv("WEBCHALLENGER_WHOLE_PAGE_TOKENS", "0")
    monkeypatch.setenv("WEBCHALLENGER_SMALL_PAGE_TOKENS", "0")
    server, result = guestbook_task(browser, pages, agent_llm, memory_dir)

    first, second = server.prompts("action_selection")[:2]
    # History, observation and the list's heading are the same text, so the server's cache holds them ...
    assert second.startswith(first.split("Possible actions:", 1)[0] + "Possible actions:")
    assert "In this step so far" not in first
    # ... and what the typing changed is said after the candidates, not inside the observation before them.
    assert step_so_far(second).startswith(' After "Typed "Tora" into textbox "Name""')
    assert "After " not in current_page(second)
