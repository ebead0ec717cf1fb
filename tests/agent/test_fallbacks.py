"""One bad model answer never costs the task, in real Chromium with the real extension and the scripted LLM over
real HTTP: an observation call with no valid answer gets its stand-in, named in the step's notes, and the task
goes on; a decision with no valid answer (asked again without the history) ends its step as a no-op with the
reason in the history (and the fills a form had done before it), and the second such step stops the task with a
checkpoint; a final answer with none is the latest observation's text, marked unverified."""

from __future__ import annotations

from pathlib import Path

import pytest
from selenium.webdriver.common.by import By

from companion.agent.checkpoint import load_checkpoint
from companion.agent.loop import run_task
from tests.support.scripted_server import ScriptedReply
from tests.support.form_task import OVERRIDES as FORM_OVERRIDES, PAGE as FORM_PAGE, TASK as FORM_TASK, fill_the_form
from tests.support.price_task import PRICE_TASK, blue_price, choose_kettles_then_end

pytestmark = [pytest.mark.paper_pipeline, pytest.mark.selection("all")]


def run_price_task(browser, pages, memory_dir):
    return browser.run(run_task(PRICE_TASK, session=browser.session, start_url=pages.url("agent_shop.html"),
                                memory_dir=memory_dir), timeout=240)


def fallback_notes(result) -> list[str]:
    return [e.text for e in result.events if e.kind == "note" and e.text.startswith("Fallback: ")]


def test_a_section_summary_never_valid_is_stood_in_for_by_its_structure_and_the_task_finishes(browser, pages, agent_llm,
                                                                                             memory_dir):
    server = agent_llm(choose=choose_kettles_then_end, answer=blue_price,
                       overrides={"section_summary": lambda text: {"summary": "no state given"}})
    result = run_price_task(browser, pages, memory_dir)

    assert result.status == "done", result.explanation
    assert result.answer == "$24.50"
    assert server.prompts("section_summary")  # the pipeline did ask
    assert any("section_summary" in n and "structural description" in n for n in fallback_notes(result))
    assert result.usage.fallbacks >= 1


def test_an_extraction_always_cut_at_max_tokens_is_stood_in_for_by_the_sections_text(browser, pages, agent_llm, memory_dir):
    cut = ScriptedReply(content='{"details": "The Blue kettle costs', finish_reason="length")
    server = agent_llm(choose=choose_kettles_then_end, answer=blue_price,
                       rules=[{"prompt": "detail_extraction", "responses": [cut]}])
    result = run_price_task(browser, pages, memory_dir)

    assert result.status == "done", result.explanation
    assert result.answer == "$24.50"  # read from the section's own text, which stood in for its extraction
    assert server.prompts("detail_extraction")
    assert any("detail_extraction" in n and "section's own text" in n for n in fallback_notes(result))


def test_a_section_selection_naming_a_missing_index_selects_every_section_and_the_task_finishes(browser, pages, agent_llm,
                                                                                               memory_dir):
    server = agent_llm(choose=choose_kettles_then_end, answer=blue_price,
                       rules=[{"prompt": "section_selection", "responses": ['{"indices": [99]}']}])
    result = run_price_task(browser, pages, memory_dir)

    assert result.status == "done", result.explanation
    assert result.answer == "$24.50"
    assert server.prompts("section_selection")
    assert any("section_selection" in n and "every section" in n for n in fallback_notes(result))


def test_a_decision_never_valid_ends_two_steps_as_no_ops_then_stops_the_task_with_a_checkpoint(browser, pages, agent_llm,
                                                                                               memory_dir):
    server = agent_llm(choose=choose_kettles_then_end, answer=blue_price,
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


def test_a_final_answer_never_valid_ends_the_task_with_the_observations_text_marked_unverified(browser, pages, agent_llm,
                                                                                              memory_dir):
    server = agent_llm(choose=choose_kettles_then_end, answer=blue_price,
                       rules=[{"prompt": "final_answer", "responses": ['{"reason": "no answer"}']}])
    result = run_price_task(browser, pages, memory_dir)

    assert result.status == "done" and not result.llm_error, result.explanation
    assert result.unverified and "not verified" in result.explanation
    assert "$24.50" in result.answer  # what the page showed for the task, not an answer made up
    assert any(e.kind == "note" and e.text.startswith("Answer not verified") for e in result.events)
    assert any("final_answer" in n for n in fallback_notes(result))
    assert len(server.prompts("final_answer")) == 6  # asked twice (3 attempts each), the second without the history


def order_plants(browser, pages, memory_dir, max_steps: int = 2):
    return browser.run(run_task(FORM_TASK, session=browser.session, start_url=pages.url(FORM_PAGE), memory_dir=memory_dir,
                                max_steps=max_steps), timeout=300)


def test_a_value_to_type_never_valid_ends_the_step_as_a_no_op_with_the_reason(browser, pages, agent_llm, memory_dir):
    server = agent_llm(choose=fill_the_form, overrides=FORM_OVERRIDES,
                       rules=[{"prompt": "field_value", "responses": ['{"text": "Ada"}']}])
    result = order_plants(browser, pages, memory_dir, max_steps=1)

    assert not result.llm_error and result.actions == [], (result.explanation, result.actions)
    assert "Step 1 ended with no action: the model gave no valid answer" in result.history
    assert any(e.kind == "note" and e.step == 1 and "ends with no action" in e.text and "field_value" in e.text
               for e in result.events)
    assert len(server.prompts("field_value")) == 6  # asked twice (3 attempts each)


def test_a_form_field_selection_never_valid_fills_the_form_from_its_stand_in(browser, pages, agent_llm, memory_dir):
    server = agent_llm(choose=fill_the_form, overrides=FORM_OVERRIDES,
                       rules=[{"prompt": "form_field_selection", "responses": ['{"indices": [99]}']}])
    result = order_plants(browser, pages, memory_dir)
    placed = browser.driver.find_elements(By.ID, "done")

    assert server.prompts("form_field_selection")
    assert placed and all(v in placed[0].text for v in ("pot m,", "city LIS,", "wrap cloth.")), result.actions
    assert 'Typed "Ada" into textbox "Your name"' in result.actions
    assert any("form_field_selection" in n and "every field" in n for n in fallback_notes(result))
    assert result.status == "done", result.explanation


def test_a_form_review_with_no_valid_answer_keeps_the_fills_in_the_steps_history(browser, pages, agent_llm, memory_dir):
    agent_llm(choose=fill_the_form, overrides=FORM_OVERRIDES,
              rules=[{"prompt": "form_review", "responses": ['{"reason": "no index"}']}])
    result = order_plants(browser, pages, memory_dir, max_steps=1)

    step = result.history.split("Step 1", 1)[1]
    assert 'Typed "Ada" into textbox "Your name"' in step and 'Selected "Cloth" in combobox "Gift wrap"' in step, step
    assert "Step 1 ended after these actions: the model gave no valid answer" in step
    assert 'Typed "Ada" into textbox "Your name"' in result.actions
    assert not browser.driver.find_elements(By.ID, "done")  # never submitted
