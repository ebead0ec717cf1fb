"""Action selection: the numbered candidates, one constrained choice with a reason (prompts/action_selection.j2)."""

from __future__ import annotations

from pydantic import BaseModel

from companion import llm

SELECTION_MAX_TOKENS = 90  # {"reason": <=15 words, "index": n}
# What a candidate tried in this step is shown as: it keeps its number, so the others keep theirs (a small
# model that answered "3" answers "3" again, and "3" must not have become another action).
TRIED = "(tried in this step: not available now)"


class Decision(BaseModel):
    index: int
    reason: str


async def select_action(task: str, history: str, observation: str, labels: list[str], nudge: str = "",
                        unavailable: frozenset[int] = frozenset()) -> Decision:
    """Choose among `labels`; those at `unavailable` positions are shown as TRIED and cannot be chosen (trailing
    ones are left out: no other number moves)."""
    last = max((i for i in range(len(labels)) if i not in unavailable), default=-1)
    shown = [TRIED if i in unavailable else label for i, label in enumerate(labels[:last + 1])]
    variables = {"task": task, "history": history, "observation": observation, "candidates": shown, "nudge": nudge}
    reply = await llm.choose("action_selection", variables, n=len(shown), max_tokens=SELECTION_MAX_TOKENS,
                             exclude=frozenset(i for i in unavailable if i < len(shown)))
    return Decision(index=reply.answer.index, reason=reply.answer.reason.strip())
