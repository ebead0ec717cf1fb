"""The end-task gate (agent/finish.py EndGate) as a function: its rule checks refuse an end before any LLM call,
each saying how the refusal is told."""

from __future__ import annotations

import asyncio

from companion.agent.finish import EndFacts, EndGate, Refused
from companion.agent.seen_text import SeenText


def facts(observation: str, done: list[str] | None = None) -> EndFacts:
    def no_history(notes: bool) -> str:
        raise AssertionError("a rule refusal reads no history: it makes no LLM call")

    return EndFacts(observation=observation, done=done or [], already_so=[], pagemem=None, typed_secrets=set(),
                    parts=[], visited=[], history=no_history)


def test_an_observation_stating_a_number_no_page_showed_is_refused_as_unseen():
    gate = EndGate("What is the price of the blue kettle?", SeenText("What is the price of the blue kettle?"))
    verdict = asyncio.run(gate.decide(facts("The blue kettle costs $42.")))
    assert verdict == Refused("the value(s) 42 appear on no page visited so far", "unseen")
    assert not gate.verified  # the one verification is not spent on a refused end


def test_a_task_asking_for_an_action_none_did_is_refused_by_rule():
    gate = EndGate("Click the Submit button", SeenText("Click the Submit button"))
    verdict = asyncio.run(gate.decide(facts("The form was submitted.")))
    assert isinstance(verdict, Refused) and verdict.by == "rule" and '"click"' in verdict.why
    assert not gate.verified
