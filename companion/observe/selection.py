"""Section selection (WebChallenger §2.4 step 1, Region4Web §4.1): the LLM sees the task, the history and
one line per section (purpose, summary, state) and picks the relevant subset by number.

A page with more sections than fit one prompt is shown in consecutive groups, one call each, asked
concurrently; the picks are merged in document order. A group the model gave no valid answer for is selected
whole (calls.Fallback), up to max_selected: extraction reads more, but nothing relevant is left out.
"""

from __future__ import annotations

import asyncio

from companion.llm.fit import declare_subset
from companion.observe.abstraction import section_line
from companion.observe.budget import Budget, pack, prompt_tokens, shrink_to_fit
from companion.observe.calls import Caller, Fallback
from companion.pagemem.model import PageMem, PageSection

declare_subset("section_selection")  # Caller.choose_many: the budget the longest subset needs


async def select_sections(caller: Caller, budget: Budget, task: str, history: str, pagemem: PageMem,
                          sections: list[PageSection], max_selected: int | None = None) -> list[str]:
    """Ids of the sections the LLM judges relevant, in document order of the groups' answers."""
    if not sections:
        return []
    lines = [section_line(s) for s in sections]

    def variables(idx: list[int]) -> dict:
        return {"task": task, "history": history, "page_title": pagemem.title, "url": pagemem.url,
                "sections": [lines[i] for i in idx]}

    fixed = prompt_tokens("section_selection", variables([]))
    groups: list[list[int]] = []
    for g in pack(lines, fixed, budget.usable):
        groups.extend(shrink_to_fit(variables, g, "section_selection", budget))

    async def pick(idx: list[int]) -> list[int]:
        if len(idx) == 1 and prompt_tokens("section_selection", variables(idx)) > budget.usable:
            # A single section line cannot be over the bound (summaries are capped); defensive only.
            return [0]
        every = Fallback("every section of the group, up to the selection's bound", lambda: list(range(len(idx))))
        return await caller.choose_many("section_selection", variables(idx), len(idx), fallback=every)

    # The groups do not depend on each other: asked together (the server's slots), merged in page order.
    answers = await asyncio.gather(*(pick(idx) for idx in groups))
    chosen: list[str] = []
    for idx, picks in zip(groups, answers):
        for p in picks:
            sid = sections[idx[p]].id
            if sid not in chosen:
                chosen.append(sid)
    if max_selected is not None:
        chosen = chosen[:max_selected]
    return chosen
