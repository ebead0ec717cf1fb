"""A number computed from seen numbers (a total of two prices) is kept, with its computation, from the
extraction through the observation to the end-task verification, the history and the answer: in real Chromium
with the real extension and the scripted LLM, whose extraction adds up the prices it reads as a model would."""

from __future__ import annotations

import re
from decimal import Decimal

import pytest

from companion.agent.loop import run_task
from tests.support.agent_llm import echo_details, index_of

TASK = "What is the total price of the Blue kettle and the Red kettle together?"
PRICE = re.compile(r"\$(\d+\.\d\d)")
COMPUTED = '(Computed: $55.50 = $25.50 + $30.00 (seen on "Two kettles").)'


@pytest.fixture(autouse=True)
def paper_pipeline(monkeypatch):
    """This small page through the paper's pipeline, not shown whole: an extraction is where a model states a total."""
    monkeypatch.setenv("WEBCHALLENGER_WHOLE_PAGE_TOKENS", "0")
    monkeypatch.setenv("WEBCHALLENGER_SMALL_PAGE_TOKENS", "0")


def _extract_with_a_total(text: str) -> dict:
    """The section's text as shown, and for a section with prices a sentence giving their total."""
    details = echo_details(text)["details"]
    prices = [Decimal(p) for p in PRICE.findall(details)]
    if len(prices) >= 2:
        details += f" Together they cost ${sum(prices):.2f}."
    return {"details": details}


def _total(text: str) -> str:
    match = re.search(r"Together they cost (\$\d+\.\d\d)", text)
    return match.group(1) if match else "not found"


def _end_or_look_on(labels: list[str]) -> int:
    """End the task; when that was refused (the total was left out), look on through a link."""
    end = index_of(labels, r"^end the task")
    return end if end is not None else index_of(labels, r'link "')


def _run(browser, pages, memory_dir):
    return browser.run(run_task(TASK, session=browser.session, start_url=pages.url("derived_total.html"),
                                memory_dir=memory_dir, max_steps=6), timeout=180)


def test_a_total_of_two_seen_prices_is_accepted_with_its_computation_as_evidence(browser, pages, agent_llm, memory_dir):
    server = agent_llm(choose=lambda text, labels: _end_or_look_on(labels),
                       verify=lambda text: "Together they cost $55.50" in text, answer=_total,
                       overrides={"detail_extraction": _extract_with_a_total})
    result = _run(browser, pages, memory_dir)

    assert result.status == "done", result.explanation
    assert result.answer == "$55.50"
    (verification,) = server.prompts("end_task_verification")
    assert f"Together they cost $55.50. {COMPUTED}" in verification
    assert '- 55.50: computed, $55.50 = $25.50 + $30.00 (seen on "Two kettles")' in verification
    assert not any(e.kind == "note" and ("Left out" in e.text or "no visited page" in e.text) for e in result.events)


def test_the_history_keeps_a_computed_total_with_its_computation(browser, pages, agent_llm, memory_dir):
    def choose(text: str, labels: list[str]) -> int:
        on_about = "agent_about.html" in text.split("Current page:", 1)[1].split("\n", 1)[0]
        return _end_or_look_on(labels) if on_about else index_of(labels, r'link "About us"')

    agent_llm(choose=choose, verify=lambda text: "Together they cost $55.50" in text, answer=_total,
              overrides={"detail_extraction": _extract_with_a_total})
    result = _run(browser, pages, memory_dir)

    assert result.status == "done", result.explanation
    assert re.search(r"Step 1\nObservation: Two kettles \(\S+derived_total\.html\) - Summary: .*"
                     + re.escape(f"Together they cost $55.50. {COMPUTED}"), result.history), result.history
    assert result.actions == ['Clicked link "About us"']
    assert result.answer == "$55.50"  # read from the history on another page
