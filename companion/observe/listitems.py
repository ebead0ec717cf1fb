"""SelectListItems (WebChallenger Appendix A.3): pick the task-relevant items of a list or table section
chunk by chunk, with an early-stop call after each chunk, then rebuild the section from the picks.

Chunks hold at most `Budget.list_chunk` items (default 25), fewer when their previews would not fit the
prompt bound. After each chunk but the last, a separate call sees how many items were scanned, the
items selected so far and the first remaining ones, and decides whether to stop. A list of thousands
of items therefore costs a bounded prompt per call, and usually a few calls when the answer is near
the top. The selection is reported (Observation.list_items) rather than written into the PageMem: the
paper overwrites the section's items, but dropping elements from the PageMem would renumber them at the
next refresh (indices are kept only for elements the PageMem still holds). A chunk the model gave no valid
pick for keeps its first FIRST_ITEMS items, and a stop call with no valid answer stops once something is
picked (calls.Fallback).
"""

from __future__ import annotations

from pydantic import BaseModel, Field

from companion.llm.answers import EarlyStop
from companion.llm.fit import declare, declare_subset
from companion.observe.abstraction import plain_lines
from companion.observe.budget import Budget, pack, preview, prompt_tokens, shrink_to_fit
from companion.observe.outline import parse_outline, read_table
from companion.observe.rows import section_rows
from companion.observe.calls import Caller, Fallback
from companion.pagemem.model import PageSection
from companion.pagemem.tokens import count_tokens

EARLY_STOP_MAX_TOKENS = 60  # a reason of 60 characters and a boolean (llm/fit.py)
UPCOMING_SHOWN = 5
ONE_LINE_CHARS = 140
FIRST_ITEMS = 5  # a chunk's stand-in pick: its first items
declare("list_early_stop", EarlyStop, EARLY_STOP_MAX_TOKENS)
declare_subset("list_item_selection")  # Caller.choose_many: the budget the longest subset needs


class ListScan(BaseModel):
    """What SelectListItems did on one list section."""

    selected: list[int] = Field(default_factory=list, description="positions in the full item list")
    scanned: int = 0
    total: int = 0
    chunks: int = 0
    stopped_early: bool = False
    by_rule: bool = Field(False, description="the rows the task names by a value they hold (rows.py), with no call")
    whole: bool = Field(False, description="a list this short is shown with every item, with no call")


def item_preview(item: PageSection, max_tokens: int) -> str:
    """One item as the selection call sees it: its content on one line when short, else its start."""
    lines = plain_lines(item.details)
    flat = " | ".join(lines)
    if count_tokens(flat) <= max_tokens:
        return flat
    return preview("\n".join(lines), max_tokens, "lines in this item").replace("\n", " | ")


def table_rows(section: PageSection) -> list[str] | None:
    """A table's items as their cells' values ("SO-1050 | Nico Romano | Paid | 631.95"), the headers being in the
    list's purpose; None for a list whose items are not one table row each. The rows' outlines (cell, columnheader,
    the row checkbox's line) were three times as long: 2,200 prompt tokens for the admin's 20 orders."""
    _, rows = section_rows(section)
    if len(rows) != len(section.items) or not all(read_table(parse_outline(it.details)) for it in section.items):
        return None
    return [" | ".join(v for v in row if v)[:ONE_LINE_CHARS * 2] for row in rows]


def one_line(item: PageSection) -> str:
    flat = " | ".join(plain_lines(item.details))
    return flat if len(flat) <= ONE_LINE_CHARS else flat[: ONE_LINE_CHARS - 1] + "…"


async def select_list_items(caller: Caller, budget: Budget, task: str, history: str, section: PageSection) -> ListScan:
    items = section.items
    scan = ListScan(total=len(items))
    if not items:
        return scan
    purpose = section.purpose or "list"
    previews = table_rows(section) or [item_preview(it, budget.item_preview_tokens) for it in items]

    def chunk_vars(idx: list[int]) -> dict:
        return {"task": task, "history": history, "list_purpose": purpose, "items": [previews[i] for i in idx]}

    fixed = prompt_tokens("list_item_selection", chunk_vars([]))
    chunks: list[list[int]] = []
    for g in pack(previews, fixed, budget.usable, max_count=budget.list_chunk):
        chunks.extend(shrink_to_fit(chunk_vars, g, "list_item_selection", budget))
    for n, idx in enumerate(chunks):
        first = Fallback(f"the chunk's first {FIRST_ITEMS} items", lambda idx=idx: range(min(FIRST_ITEMS, len(idx))))
        picks = await caller.choose_many("list_item_selection", chunk_vars(idx), len(idx), section_id=section.id,
                                         fallback=first)
        scan.selected.extend(idx[p] for p in picks if idx[p] not in scan.selected)
        scan.scanned = idx[-1] + 1
        scan.chunks += 1
        if n + 1 == len(chunks):
            break
        if await _should_stop(caller, budget, task, history, purpose, items, scan, chunks[n + 1:], section.id):
            scan.stopped_early = True
            break
    scan.selected.sort()
    return scan


async def _should_stop(caller: Caller, budget: Budget, task: str, history: str, purpose: str,
                       items: list[PageSection], scan: ListScan, rest: list[list[int]], section_id: str) -> bool:
    remaining = len(items) - scan.scanned
    upcoming = [one_line(items[i]) for group in rest for i in group][:UPCOMING_SHOWN]
    selected = [one_line(items[i]) for i in scan.selected]

    def variables(shown: list[str]) -> dict:
        return {"task": task, "history": history, "list_purpose": purpose, "searched": scan.scanned,
                "remaining": remaining, "selected": shown, "upcoming": upcoming}

    # Many selected items: show the most recent ones that fit and say how many are not shown.
    shown = list(selected)
    while len(shown) > 1 and prompt_tokens("list_early_stop", variables(shown)) > budget.usable:
        drop = max(1, len(shown) // 4)
        shown = shown[drop:]
    if len(shown) < len(selected):
        shown = [f"({len(selected) - len(shown)} earlier selected items not shown)"] + shown
    stop = EarlyStop.model_construct(reason="", stop=bool(scan.selected))
    answer = await caller.ask("list_early_stop", variables(shown), EarlyStop, max_tokens=EARLY_STOP_MAX_TOKENS,
                              section_id=section_id, fallback=Fallback("a stop once items are picked", lambda: stop))
    return bool(answer.stop)
