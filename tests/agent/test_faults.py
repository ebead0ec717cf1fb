"""Faults mid-task, in real Chromium with the real extension and the scripted LLM over real HTTP: an LLM
answer that stalls past the limit costs a retry, not the task; a task that cannot go on is checkpointed
(0600 in a 0700 directory) and resumes from its last step without asking the LLM for the earlier steps again."""

from __future__ import annotations

import re
import stat
from pathlib import Path

from companion import llm
from companion.agent.checkpoint import load_checkpoint
from companion.agent.loop import run_task
from companion.llm.client import LLMClient
from tests.support.scripted_server import Stall
from tests.support.price_task import PRICE_TASK, blue_price, choose_kettles_then_end

LIMIT_S = 4.0  # the LLM time limit in these tests; scripted answers take milliseconds


def current_page(prompt: str) -> str:
    return prompt.split("Current page:", 1)[1].split("\n", 1)[0]


def with_limit(server) -> None:
    llm.set_client(LLMClient(spec=server.spec, timeout_s=LIMIT_S))


def test_an_answer_stalling_past_the_limit_mid_task_costs_a_retry_not_the_task(browser, pages, agent_llm, memory_dir):
    # The second choice of the task (on the kettles page, after the first step's click) stalls.
    server = agent_llm(choose=choose_kettles_then_end, answer=blue_price,
                       stall=Stall(seconds=60, at=2, prompt="action_selection"))
    with_limit(server)
    result = browser.run(run_task(PRICE_TASK, session=browser.session, start_url=pages.url("agent_shop.html"),
                                  memory_dir=memory_dir), timeout=240)

    assert result.status == "done", result.explanation
    assert result.answer == "$24.50"
    selections = [r for r in server.requests if r.prompt == "action_selection"]
    stalled = server.stalled[0]
    assert stalled is selections[1] and "agent_kettles.html" in current_page(stalled.last_user)
    assert selections[2].body["messages"] == stalled.body["messages"]  # the same question, asked once more


def test_a_task_that_cannot_go_on_is_checkpointed_and_resumes_from_its_last_step(browser, pages, agent_llm, memory_dir):
    # The second choice stalls past the limit and past the longer limit of its retry: the task cannot go on.
    server = agent_llm(choose=choose_kettles_then_end, answer=blue_price,
                       stall=Stall(seconds=60, at=2, count=2, prompt="action_selection"))
    with_limit(server)
    failed = browser.run(run_task(PRICE_TASK, session=browser.session, start_url=pages.url("agent_shop.html"),
                                  memory_dir=memory_dir), timeout=240)

    assert failed.status == "failed" and "LLMTimeoutError" in failed.explanation
    assert failed.actions == ['Clicked link "Kettles"']  # the first step's work is in the result
    path = Path(failed.checkpoint)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600 and stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    assert any(e.kind == "note" and f"--resume {path}" in e.text for e in failed.events)
    checkpoint = load_checkpoint(path)
    assert (checkpoint.status, checkpoint.step, checkpoint.task) == ("failed", 1, PRICE_TASK)
    assert checkpoint.url == pages.url("agent_kettles.html")  # where the first step's click led
    assert [r.actions for r in checkpoint.history] == [['Clicked link "Kettles"']]

    before = len(server.requests)
    browser.open(pages.url("agent_about.html"))  # the browser moved on meanwhile: the resume must go back
    resumed = browser.run(run_task(checkpoint.task, session=browser.session, start_url=checkpoint.url,
                                   memory_dir=memory_dir, checkpoint=checkpoint), timeout=240)

    assert resumed.status == "done", resumed.explanation
    assert resumed.answer == "$24.50"
    assert resumed.actions == ['Clicked link "Kettles"']  # the history went on; nothing was done twice
    asked = [r for r in server.requests[before:] if r.prompt == "action_selection"]
    assert asked and all("agent_kettles.html" in current_page(r.last_user) for r in asked)  # step 1 not asked again
    # (the actor's history leaves the reasons out: history.render_for_actor)
    assert re.search(r'Step 1\nObservation: .*agent_shop\.html.*\nAction: Clicked link "Kettles"', asked[0].last_user)
    assert load_checkpoint(path).status == "done"
