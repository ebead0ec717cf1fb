"""End to end in real Chromium with the real extension: the loop navigates, reads, verifies and answers;
a stale element on the first try is recovered by the retry rule."""

from __future__ import annotations

import re

import pytest

from companion.agent.decide import TRIED
from companion.agent.loop import run_task
from tests.support.agent_llm import candidates_of, index_of
from tests.support.price_task import PRICE_TASK, blue_price


def test_multi_page_task_navigates_reads_the_table_and_answers_after_verification(browser, pages, agent_llm, memory_dir):
    def choose(text: str, labels: list[str]) -> int:
        if "agent_kettles.html" in text.split("Current page:", 1)[1].split("\n", 1)[0]:
            return index_of(labels, r"^end the task")
        if index_of(labels, r"^end the task") is not None and "History so far: none" in text and not llm_server.prompts("end_task_verification"):
            return index_of(labels, r"^end the task")  # premature: the verification must refuse it
        return index_of(labels, r'link "Kettles"')

    llm_server = agent_llm(choose=choose, verify=lambda text: "agent_kettles.html" in text,
                           answer=blue_price)
    result = browser.run(run_task(PRICE_TASK, session=browser.session, start_url=pages.url("agent_shop.html"),
                                  memory_dir=memory_dir), timeout=180)

    assert result.status == "done", result.explanation
    assert result.answer == "$24.50", llm_server.prompts("final_answer")  # read through extraction -> summary -> answer
    assert browser.driver.current_url == pages.url("agent_kettles.html")
    assert result.actions == ['Clicked link "Kettles"']
    # One verification only: the premature end task was refused (and removed for that step); the later
    # end-task choice ended the task without a second check.
    assert len(llm_server.prompts("end_task_verification")) == 1
    assert len(llm_server.prompts("final_answer")) == 1
    # The history has exactly one step (the failed end task is not an action) in the paper's format.
    assert re.fullmatch(
        r'Step 1\nObservation: Kettle Shop \(http://127\.0\.0\.1:\d+/agent_shop\.html\) - Summary: .+\n'
        r'Reason for Action: .+\nAction: .*link "Kettles".*', result.history)
    # The refused end task was not offered again in the same step.
    second_prompt = llm_server.prompts("action_selection")[1]
    assert "end the task" not in second_prompt.split("Possible actions:", 1)[1]
    kinds = [e.kind for e in result.events]
    assert kinds[0] == "started" and kinds[-2:] == ["answer", "finished"]
    assert result.usage.calls == len(llm_server.requests)


def test_stale_element_on_first_try_is_recovered_by_the_retry_rule(browser, pages, agent_llm, memory_dir):
    replaced = []

    def choose(text: str, labels: list[str]) -> int:
        if "agent_kettles.html" in text.split("Current page:", 1)[1].split("\n", 1)[0]:
            return index_of(labels, r"^end the task")
        if not replaced:
            # The page re-creates the nav link after the snapshot: the chosen element is stale.
            browser.driver.execute_script(
                "const a = document.getElementById('nav-kettles'); a.replaceWith(a.cloneNode(true));")
            replaced.append(True)
        return index_of(labels, r'link "(Kettles|Browse all kettles)"')

    llm_server = agent_llm(choose=choose, verify=lambda text: True, answer=blue_price)
    result = browser.run(run_task(PRICE_TASK, session=browser.session, start_url=pages.url("agent_shop.html"),
                                  memory_dir=memory_dir), timeout=180)

    assert result.status == "done", result.explanation
    assert result.answer == "$24.50"
    selections = llm_server.prompts("action_selection")
    first, retry = candidates_of(selections[0]), candidates_of(selections[1])
    stale_label = next(label for label in first if 'link "Kettles"' in label)
    # Removed (shown as tried, its number kept), then the LLM re-prompted.
    assert retry == [TRIED if label == stale_label else label for label in first]
    assert result.actions == ['Clicked link "Browse all kettles"']  # the failed attempt is not logged
    assert any(e.kind == "note" and "Attempt failed" in e.text for e in result.events)


def test_an_unreadable_error_page_is_left_and_noted_in_the_history(browser, pages, agent_llm, memory_dir):
    def choose(text: str, labels: list[str]) -> int:
        page = text.split("Current page:", 1)[1].split("\n", 1)[0]
        if "agent_kettles.html" in page:
            return index_of(labels, r"^end the task")
        if "Unreadable page" not in text:
            return index_of(labels, r"^type a URL")
        return index_of(labels, r'link "Kettles"')

    agent_llm(choose=choose, answer=blue_price, overrides={"input_value": lambda text: {"value": "http://127.0.0.1:1/"}})
    # Port 1 is another site than the shop's port: allowed here, as nobody is asked (act/sites.py). The task writes
    # the shop's address: only then is the address bar offered.
    result = browser.run(run_task(f"{PRICE_TASK} The shop is at 127.0.0.1.", session=browser.session, start_url=pages.url("agent_shop.html"),
                                  memory_dir=memory_dir, max_steps=6, allowed_domains=["127.0.0.1"]), timeout=180)

    assert result.status == "done", result.explanation
    assert result.answer == "$24.50"
    assert f"Went back to {pages.url('agent_shop.html')}" in result.actions
    assert "Observation: Unreadable page (" in result.history


def _invent_on_home(prompt_answer: dict, otherwise):
    def answer(text: str) -> dict:  # a small model inventing a price on a page that shows none
        page = text.split("Current page:", 1)[1].split("\n", 1)[0]
        return prompt_answer if "agent_shop.html" in page else otherwise(text)
    return answer


def _end_when_a_price_is_shown(text: str, labels: list[str]) -> int:
    page = text.split("Current page:", 1)[1].split("Possible actions:", 1)[0]
    if "$" in page or "agent_kettles.html" in page:
        return index_of(labels, r"^end the task")
    return index_of(labels, r'link "Kettles"')


def test_an_invented_extraction_value_never_reaches_the_observation(browser, pages, agent_llm, memory_dir):
    from tests.support.agent_llm import echo_details

    server = agent_llm(choose=_end_when_a_price_is_shown, verify=lambda text: True, answer=blue_price,
                       overrides={"detail_extraction": _invent_on_home({"details": "The Blue kettle costs $15."}, echo_details)})
    result = browser.run(run_task(PRICE_TASK, session=browser.session, start_url=pages.url("agent_shop.html"),
                                  memory_dir=memory_dir), timeout=180)

    assert result.status == "done", result.explanation
    assert result.answer == "$24.50"
    assert not any("$15" in p for p in server.prompts("page_task_summary") + server.prompts("action_selection"))
    assert result.actions == ['Clicked link "Kettles"']
    # The Blue kettle's row shows the price the observation states: verified by rule, with no verification call
    # (agent/finish.py answered_by_named_row), which would have read the invented $15 had it been let through.
    assert server.prompts("end_task_verification") == []


@pytest.mark.paper_pipeline
def test_an_invented_summary_value_is_left_out_of_the_observation_and_the_history(browser, pages, agent_llm, memory_dir):
    def summary(text: str) -> dict:
        page = re.search(r"Current page: (.*)", text).group(1)
        found = text.split("Relevant details found on the page:\n", 1)[-1].split("\n\n", 1)[0]
        return {"summary": f"{page}. " + " ".join(found.split())[:800]}

    server = agent_llm(choose=_end_when_a_price_is_shown, verify=lambda text: True, answer=blue_price,
                       overrides={"page_task_summary": _invent_on_home(
                           {"summary": "The shop sells kettles. The Blue kettle is priced at $15."}, summary)})
    result = browser.run(run_task(PRICE_TASK, session=browser.session, start_url=pages.url("agent_shop.html"),
                                  memory_dir=memory_dir), timeout=180)

    assert result.status == "done", result.explanation
    assert any(e.kind == "note" and "Left out of the observation" in e.text and "$15" in e.text for e in result.events)
    assert "$15" not in result.history and "The shop sells kettles." in result.history
    assert not any("$15" in p for p in server.prompts("action_selection"))
    assert result.actions == ['Clicked link "Kettles"']


def test_an_answer_stating_a_value_no_page_showed_comes_with_a_note(browser, pages, agent_llm, memory_dir):
    def choose(text: str, labels: list[str]) -> int:
        # Refused once as off the Blue kettle's row (finish.off_row), the end is chosen again on the next page.
        chosen = _end_when_a_price_is_shown(text, labels)
        return chosen if chosen is not None else 0

    agent_llm(choose=choose, verify=lambda text: True, answer=lambda text: "It costs $99.")
    result = browser.run(run_task(PRICE_TASK, session=browser.session, start_url=pages.url("agent_shop.html"),
                                  memory_dir=memory_dir), timeout=180)

    assert result.status == "done" and result.answer == "It costs $99."
    assert any(e.kind == "note" and "The answer states 99, which no visited page showed" in e.text for e in result.events)
