"""Paging through a long list of options for one choice (SelectListItems' chunking, WebChallenger App. A.3,
applied to DropdownAction's revealed options and the search workflow's suggestions, A.5).

A list that fits one prompt is asked about in one call, exactly as before. A longer one is shown a page at a
time, one call per page: the model picks an option of the page or answers -1 ("none here"), and its pick so
far is carried into the next page as option [0], so a better option further down can still replace it. The
answer is the pick after the last page. Pages hold at most `per_page` options and fewer when the prompt would
pass the token bound, so every option is seen, the calls grow only with the list's length, and a prompt never
grows with it.
"""

from __future__ import annotations

from pydantic import BaseModel, Field

from companion import llm
from companion.observe.budget import Budget, pack, prompt_tokens, shrink_to_fit

# The act prompts keep to the observation prompts' bound (observe/budget.py), which the server is sized for.
PAGE_BUDGET = Budget()
CARRIED = " (your choice from the earlier options)"


class Paging(BaseModel):
    """What a page's prompt says about where it is in the list (None for a list shown whole)."""

    total: int = Field(description="options in the whole list")
    first: int = Field(description="1-based position of the page's first option in the list")
    last: int = Field(description="1-based position of the page's last option")
    after: int = Field(description="options after this page")
    carried: bool = Field(description="option [0] is the pick carried over from the earlier pages")


class PagedChoice(BaseModel):
    index: int = Field(description="position in the full list; -1: none of the options")
    calls: int = 0
    pages: int = 0


def option_pages(prompt: str, variables: dict, labels: list[str], key: str, per_page: int,
                 budget: Budget = PAGE_BUDGET) -> list[list[int]]:
    """Consecutive groups of option positions, each at most per_page long and within the prompt bound
    (with room for the carried option and the paging line)."""
    longest = max(labels, key=len, default="") + CARRIED  # room for the pick carried into a page

    def build(idx: list[int]) -> dict:
        return {**variables, key: [longest] + [labels[i] for i in idx],
                "paging": Paging(total=len(labels), first=len(labels), last=len(labels), after=len(labels), carried=True)}

    if len(labels) <= per_page and prompt_tokens(prompt, {**variables, key: labels, "paging": None}) <= budget.usable:
        return [list(range(len(labels)))]
    pages: list[list[int]] = []
    for group in pack(labels, prompt_tokens(prompt, build([])), budget.usable, max_count=per_page):
        pages.extend(shrink_to_fit(build, group, prompt, budget))
    return pages


async def choose_paged(prompt: str, variables: dict, labels: list[str], *, key: str, per_page: int,
                       max_tokens: int, budget: Budget = PAGE_BUDGET) -> PagedChoice:
    """One option of `labels` (or -1) through `prompt`, which shows `variables[key]` numbered, takes `paging`
    (a Paging or None) and is answered with llm.choose(allow_none=True)."""
    out = PagedChoice(index=-1)
    if not labels:
        return out
    pages = option_pages(prompt, variables, labels, key, per_page, budget)
    out.pages = len(pages)
    for page in pages:
        carried = out.index >= 0
        shown = ([labels[out.index] + CARRIED] if carried else []) + [labels[i] for i in page]
        paging = None if len(pages) == 1 else Paging(total=len(labels), first=page[0] + 1, last=page[-1] + 1,
                                                     after=len(labels) - page[-1] - 1, carried=carried)
        reply = await llm.decided_twice(lambda v: llm.choose(prompt, v, n=len(shown), allow_none=True, max_tokens=max_tokens),
                                        {**variables, key: shown, "paging": paging}, prompt=prompt)
        out.calls += 1
        picked = reply.answer.index
        if picked < 0:
            out.index = -1  # none of what this page showed, the carried pick included, helps
        elif not (carried and picked == 0):
            out.index = page[picked - 1] if carried else page[picked]
    return out


__all__ = ["Paging", "PagedChoice", "choose_paged", "option_pages", "CARRIED"]
