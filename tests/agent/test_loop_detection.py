"""Loop detection in a real run: the same action on an unchanged page gets a nudge in the action-selection
prompt from the third repetition on, and the task ends with an explanation at the fifth. The page's text ticks
(a clock), so the click is never seen to change nothing and stays offered (test_known_noops.py has that rule)."""

from __future__ import annotations

from companion.agent.loop import run_task
from tests.support.agent_llm import index_of


def test_repeating_an_action_on_an_unchanged_page_nudges_then_stops(browser, pages, agent_llm, memory_dir):
    server = agent_llm(choose=lambda text, labels: index_of(labels, r'button "Check again"'),
                       answer=lambda text: "The report is still being prepared.")
    result = browser.run(run_task("Open the report", session=browser.session, start_url=pages.url("agent_stuck.html"),
                                  memory_dir=memory_dir, max_steps=4), timeout=180)

    assert result.status == "looping"
    assert 'Clicked button "Check again"' in result.explanation or "Check again" in result.explanation
    assert "5 times" in result.explanation
    assert result.actions == ['Clicked button "Check again"'] * 5
    prompts = server.prompts("action_selection")
    assert len(prompts) == 5
    nudged = ["Warning: on this same page state you already did" in p for p in prompts]
    assert nudged == [False, False, False, True, True]  # after 3 repetitions, before the 4th and 5th choice
    assert result.events[-1].kind == "finished" and result.events[-1].status == "looping"
    # What the history supports is still reported, marked as not verified; the status says it did not finish.
    assert result.answer == "The report is still being prepared."
    assert any(e.kind == "note" and e.text.startswith("Found before stopping (not verified)") for e in result.events)


def test_stop_event_ends_the_task_at_once_as_stopped(browser, pages, agent_llm, memory_dir):
    import asyncio

    stop = asyncio.Event()

    def choose(text: str, labels: list[str]) -> int:
        # The user presses Stop while the LLM is thinking about the first action.
        browser.companion.loop.call_soon_threadsafe(stop.set)
        return index_of(labels, r'button "Check again"')

    async def run():
        return await run_task("Open the report", session=browser.session, start_url=pages.url("agent_stuck.html"),
                              memory_dir=memory_dir, stop=stop)

    agent_llm(choose=choose)
    result = browser.run(run(), timeout=180)
    assert result.status == "stopped" and result.answer == ""  # no LLM call after the user's Stop
    assert len(result.actions) <= 1  # at most the action already on its way when Stop came
    assert result.events[-1].kind == "finished" and result.events[-1].status == "stopped"
