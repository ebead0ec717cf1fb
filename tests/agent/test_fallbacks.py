"""One bad model answer never costs the task, in real Chromium with the real extension and the scripted LLM over
real HTTP: an observation call with no valid answer gets its stand-in, named in the step's notes, and the task
goes on; a decision with no valid answer (asked again without the history) ends its step as a no-op with the
reason in the history, and the second such step stops the task with a checkpoint."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.agent.checkpoint import load_checkpoint
from companion.agent.loop import run_task
from companion.llm.scripted_server import ScriptedReply
from tests.agent.test_run_command import choose_kettles_then_end
from tests.agent.test_task_flow import PRICE_TASK, _blue_price

pytestmark = [pytest.mark.paper_pipeline, pytest.mark.selection("all")]


def run_price_task(browser, pages, memory_dir):
    return browser.run(run_task(PRICE_TASK, session=browser.session, start_url=pages.url("agent_shop.html"),
                                memory_dir=memory_dir), timeout=240)


def fallback_notes(result) -> list[str]:
    return [e.text for e in result.events if e.kind == "note" and e.text.startswith("Fallback: ")]


def test_a_section_summary_never_valid_is_stood_in_for_by_its_structure_and_the_task_finishes(browser, pages, agent_llm,
                                                                                             memory_dir):
    server = agent_llm(choose=choose_kettles_then_end, answer=_blue_price,
                       overrides={"section_summary": lambda text: {"summary": "no state given"}})
    result = run_price_task(browser, pages, memory_dir)

    assert result.status == "done", result.explanation
    assert result.answer == "$24.50"
    assert server.prompts("section_summary")  # the pipeline did ask
    assert any("section_summary" in n and "structural description" in n for n in fallback_notes(result))
    assert result.usage.fallbacks >= 1


def test_an_extraction_always_cut_at_max_tokens_is_stood_in_for_by_the_sections_text(browser, pages, agent_llm, memory_dir):
    cut = ScriptedReply(content='{"details": "The Blue kettle costs', finish_reason="length")
    server = agent_llm(choose=choose_kettles_then_end, answer=_blue_price,
                       rules=[{"prompt": "detail_extraction", "responses": [cut]}])
    result = run_price_task(browser, pages, memory_dir)

    assert result.status == "done", result.explanation
    assert result.answer == "$24.50"  # read from the section's own text, which stood in for its extraction
    assert server.prompts("detail_extraction")
    assert any("detail_extraction" in n and "section's own text" in n for n in fallback_notes(result))


def test_a_section_selection_naming_a_missing_index_selects_every_section_and_the_task_finishes(browser, pages, agent_llm,
                                                                                               memory_dir):
    server = agent_llm(choose=choose_kettles_then_end, answer=_blue_price,
                       rules=[{"prompt": "section_selection", "responses": ['{"indices": [99]}']}])
    result = run_price_task(browser, pages, memory_dir)

    assert result.status == "done", result.explanation
    assert result.answer == "$24.50"
    assert server.prompts("section_selection")
    assert any("section_selection" in n and "every section" in n for n in fallback_notes(result))


def test_a_decision_never_valid_ends_two_steps_as_no_ops_then_stops_the_task_with_a_checkpoint(browser, pages, agent_llm,
                                                                                               memory_dir):
    server = agent_llm(choose=choose_kettles_then_end, answer=_blue_price,
                       rules=[{"prompt": "action_selection", "responses": ['{"reason": "no index"}']}])
    result = run_price_task(browser, pages, memory_dir)

    assert result.status == "failed" and "NoDecision" in result.explanation, result.explanation
    assert result.llm_error and result.steps == 2 and result.actions == []
    no_ops = [e for e in result.events if e.kind == "note" and "ends with no action" in e.text]
    assert [e.step for e in no_ops] == [1, 2]  # and the second such step stops the task
    assert "Step 1 ended with no action: the model gave no valid answer" in result.history
    # Each step asked twice (each ask is 3 attempts), the second time without the history.
    asked = server.prompts("action_selection")
    assert len(asked) == 12
    assert "History so far: none" not in asked[6] and "History so far: none" in asked[9]
    path = Path(result.checkpoint)
    assert any(e.kind == "note" and f"--resume {path}" in e.text for e in result.events)
    checkpoint = load_checkpoint(path)
    assert checkpoint.status == "failed" and "NoDecision" in checkpoint.explanation
