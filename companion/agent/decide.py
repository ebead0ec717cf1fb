"""Action selection: the numbered candidates, one constrained choice with a reason (prompts/action_selection.j2).
With no valid answer it is asked once more without the history, then llm.NoDecision (llm/fallback.py)."""

from __future__ import annotations

from pydantic import BaseModel

from companion import llm
from companion.llm.fit import declare_choice

SELECTION_MAX_TOKENS = 65  # {"reason": <=15 words, "index": n}: the reason gets what is left, about 100 characters
# (llm/fit.py); each generated token costs about 60 ms on 2 cores, and the reason is kept in every later prompt
declare_choice("action_selection", SELECTION_MAX_TOKENS)
# A candidate that cannot be chosen now keeps its number, so the others keep theirs (a small model that answered
# "3" answers "3" again, and "3" must not have become another action), but its line leaves the list and is said
# after it with why: a continuation's prompt is then the last one with lines taken out, and llama.cpp's chunk reuse
# (LLMSettings.cache_reuse) keeps the rest of the list from its cache, where a line changed in place cost the list
# again (550 to 1,180 new prompt tokens a retry on the held-out admin's list pages). Why, said after its label:
# it was tried in this step;
TRIED = "(tried in this step: not available now)"
# the user declined it (on the page it was declined on, for the rest of the task);
DECLINED = "(declined by the user: not offered again in this task)"
# it was done on this same page state and changed nothing (loopguard.py);
CHANGED_NOTHING = "(done before on this same page: it changed nothing, so it is not offered again)"
# it was done on this page state before and took the page back to how it was earlier.
CAME_BACK = "(done before on this same page: it took the page back to how it was earlier, so it is not offered again)"


class Decision(BaseModel):
    index: int
    reason: str


async def select_action(task: str, history: str, observation: str, labels: list[str], nudge: str = "",
                        unavailable: frozenset[int] | dict[int, str] = frozenset(), parts: list[str] | None = None,
                        since: str = "") -> Decision:
    """Choose among `labels`; those at `unavailable` positions cannot be chosen: listed after the others with TRIED,
    or with the text a dict gives for them (trailing ones are left out: no other number moves). parts: a compound task's
    parts, the done ones ticked (act/task_parts.py), so the actor sees which part is next. since: what this step
    did and was told after `observation`, shown after the candidates (the prompt's changing part comes last)."""
    why = unavailable if isinstance(unavailable, dict) else dict.fromkeys(unavailable, TRIED)
    n = max((i for i in range(len(labels)) if i not in why), default=-1) + 1
    shown = {i: labels[i] for i in range(n) if i not in why}
    variables = {"task": task, "history": history, "observation": observation, "candidates": shown, "nudge": nudge,
                 "parts": parts or [], "since": since.strip(),
                 "not_offered": [f"[{i}] {labels[i]} {why[i]}" for i in sorted(why) if i < n]}
    exclude = frozenset(i for i in why if i < n)
    reply = await llm.decided_twice(lambda v: llm.choose("action_selection", v, n=n, max_tokens=SELECTION_MAX_TOKENS,
                                                         exclude=exclude), variables, prompt="action_selection")
    return Decision(index=reply.answer.index, reason=reply.answer.reason.strip())
