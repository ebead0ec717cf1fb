"""Action selection: the numbered candidates, one constrained choice with a reason (prompts/action_selection.j2)."""

from __future__ import annotations

from pydantic import BaseModel

from companion import llm

SELECTION_MAX_TOKENS = 90  # {"reason": <=15 words, "index": n}


class Decision(BaseModel):
    index: int
    reason: str


async def select_action(task: str, history: str, observation: str, labels: list[str], nudge: str = "") -> Decision:
    variables = {"task": task, "history": history, "observation": observation, "candidates": labels, "nudge": nudge}
    reply = await llm.choose("action_selection", variables, n=len(labels), max_tokens=SELECTION_MAX_TOKENS)
    return Decision(index=reply.answer.index, reason=reply.answer.reason.strip())
