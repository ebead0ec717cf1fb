"""End of a task: LLMVerifyEndTask (is it really complete?) and LLMFinalAnswer (what to tell the user)."""

from __future__ import annotations

from companion import llm
from companion.llm.answers import FinalAnswer, Verification

VERIFY_MAX_TOKENS = 80
ANSWER_MAX_TOKENS = 200


async def verify_end_task(task: str, history: str, observation: str, actions_done: list[str],
                          checked_values: list[str] | None = None) -> Verification:
    """actions_done: every basic action of the task so far; listing them (or "(none)") makes a claim of
    completion checkable even for a small model that would otherwise trust a hallucinated observation.
    checked_values: the observation's numbers found in a visited page's text, with the page (grounding.py)."""
    variables = {"task": task, "history": history, "observation": observation, "actions_done": actions_done,
                 "checked_values": checked_values or []}
    reply = await llm.ask("end_task_verification", variables, Verification, max_tokens=VERIFY_MAX_TOKENS)
    return reply.answer


async def final_answer(task: str, history: str, observation: str) -> str:
    reply = await llm.ask("final_answer", {"task": task, "history": history, "observation": observation},
                          FinalAnswer, max_tokens=ANSWER_MAX_TOKENS)
    return reply.answer.answer.strip()
