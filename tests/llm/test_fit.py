"""Replies that fit: every prompt's answer fits its max_tokens at start-up, an answer that cannot fit is refused
(by the start-up check and before a call is sent), and the bounds are in the schema the server receives."""

from __future__ import annotations

import pytest
from pydantic import Field

from companion.llm import LLMClient, PageSummary
from companion.llm.fit import ReplyBudgetError, check_declared, fitted_choice, fitted_subset
from tests.support.scripted_server import ScriptedLLMServer
from companion.llm.structured import StrictAnswer, json_schema_for


class Oversized(StrictAnswer):
    """A summary allowed far more characters than 120 tokens can hold (the cut reply of the 1.5B model)."""

    purpose: str = Field(max_length=80)
    summary: str = Field(max_length=400)


def test_every_prompt_has_a_declared_answer_that_fits_its_max_tokens():
    import companion.agent.loop  # noqa: F401  (imports every stage, which declares its prompts' answers)

    check_declared()


def test_an_answer_bound_the_budget_cannot_hold_fails_the_check_naming_the_prompt():
    with pytest.raises(ReplyBudgetError, match=r"prompt 'section_summary': its answer may take \d+ tokens.*max_tokens=120"):
        check_declared({"section_summary": [(Oversized, 120)]}, prompts=["section_summary"])


def test_a_prompt_without_a_declared_answer_fails_the_check():
    with pytest.raises(ReplyBudgetError, match="prompt 'new_prompt': no answer model declared"):
        check_declared({}, prompts=["new_prompt"])


async def test_a_call_whose_answer_cannot_fit_is_refused_before_anything_is_sent():
    with ScriptedLLMServer(script=['{"purpose": "p", "summary": "s"}']) as server:
        client = LLMClient(spec=server.spec)
        with pytest.raises(ReplyBudgetError, match="section_summary"):
            await client.ask("section_summary", {"page_title": "t", "url": "u", "content": "c", "purpose": ""}, Oversized,
                             max_tokens=120)
        await client.aclose()
    assert server.requests == []


async def test_the_string_bounds_reach_the_server_in_the_schema_it_is_sent():
    with ScriptedLLMServer(script=['{"summary": "A shop."}']) as server:
        client = LLMClient(spec=server.spec)
        await client.ask("page_summary", {"page_title": "t", "url": "u", "sections": ["nav: links"]}, PageSummary,
                         max_tokens=100)
        await client.aclose()
    schema = server.requests[0].body["response_format"]["json_schema"]["schema"]
    assert schema["properties"]["summary"]["maxLength"] == 160


def test_a_choice_reason_and_a_subset_are_sized_to_the_budget_given():
    choice, budget = fitted_choice(30, 60)
    assert budget == 60 and json_schema_for(choice)["properties"]["reason"]["maxLength"] < 200
    subset, budget = fitted_subset(60, 40)
    assert budget == 40 and json_schema_for(subset)["properties"]["indices"]["maxItems"] < 60
