"""Action selection: the numbered candidates, one constrained choice with a reason (prompts/action_selection.j2).
With no valid answer it is asked once more without the history, then llm.NoDecision (llm/fallback.py)."""

from __future__ import annotations

from pydantic import BaseModel

from companion import llm
from companion.llm.fit import declare_choice

SELECTION_MAX_TOKENS = 65  # {"reason": <=15 words, "index": n}: the reason gets what is left, about 100 characters
# (llm/fit.py); each generated token costs about 60 ms on 2 cores, and the reason is kept in every later prompt
declare_choice("action_selection", SELECTION_MAX_TOKENS)
# What a candidate tried in this step is shown as: it keeps its number, so the others keep theirs (a small
# model that answered "3" answers "3" again, and "3" must not have become another action).
TRIED = "(tried in this step: not available now)"
# What an action the user declined is shown as, on the page it was declined on, for the rest of the task.
DECLINED = "(declined by the user: not offered again in this task)"
# What an action that was done on this same page state and changed nothing is shown as (loopguard.py).
CHANGED_NOTHING = "(done before on this same page: it changed nothing, so it is not offered again)"
# What an action is shown as on a page state where it was done before and took the page back to how it was earlier.
CAME_BACK = "(done before on this same page: it took the page back to how it was earlier, so it is not offered again)"


class Decision(BaseModel):
    index: int
    reason: str


async def select_action(task: str, history: str, observation: str, labels: list[str], nudge: str = "",
                        unavailable: frozenset[int] | dict[int, str] = frozenset(), parts: list[str] | None = None) -> Decision:
    """Choose among `labels`; those at `unavailable` positions cannot be chosen and are shown as TRIED, or as the
    text a dict gives for them (trailing ones are left out: no other number moves). parts: a compound task's
    parts, the done ones ticked (act/task_parts.py), so the actor sees which part is next."""
    shown_as = unavailable if isinstance(unavailable, dict) else dict.fromkeys(unavailable, TRIED)
    last = max((i for i in range(len(labels)) if i not in shown_as), default=-1)
    shown = [shown_as.get(i, label) for i, label in enumerate(labels[:last + 1])]
    variables = {"task": task, "history": history, "observation": observation, "candidates": shown, "nudge": nudge,
                 "parts": parts or []}
    exclude = frozenset(i for i in unavailable if i < len(shown))
    reply = await llm.decided_twice(lambda v: llm.choose("action_selection", v, n=len(shown), max_tokens=SELECTION_MAX_TOKENS,
                                                         exclude=exclude), variables, prompt="action_selection")
    return Decision(index=reply.answer.index, reason=reply.answer.reason.strip())
