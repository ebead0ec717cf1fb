"""SortList: a list a person reorders by dragging, put in the order the task asks for, by rule and in one action.

"Sort the numbers in increasing order", "arrange the names alphabetically", "order the cards from highest to
lowest": the order is read from the task (asked_sort), the items' keys from their names (a number when every item
holds one, else the words), and the list is sorted by dragging, one item at a time, the item that belongs first of
those out of place onto the one in its place (a sortable list gives a dropped item the place of the one under it).
The page is read again after each drag; a drag that changes nothing, or a list that is not sorted after as many
drags as it has items, fails the action with the drags done. Asked to drag one item at a time, the default model
dragged "46" down by 403 pixels, off the list.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from companion.act.basic import browser
from companion.act.confirmation import confirm_action
from companion.act.context import AgentContext
from companion.act.errors import ActionFailed, NoOp
from companion.protocol import ElementRef

_SORT = re.compile(r"\b(sort|order|arrange|rank|reorder|rearrange|put)\w*\b", re.I)
_DESCENDING = re.compile(r"\b(decreasing|descending|reverse|highest to lowest|largest to smallest|biggest to smallest|"
                         r"greatest to least|most to least|newest to oldest|z to a|starting with the (highest|largest|"
                         r"biggest|greatest))\b", re.I)
_ASCENDING = re.compile(r"\b(increasing|ascending|alphabetical(ly)?|numerical(ly)?|lowest to highest|smallest to largest|"
                        r"least to greatest|oldest to newest|a to z|starting with the (lowest|smallest|least))\b", re.I)
_NUMBER = re.compile(r"[-−]?\d+(?:[.,]\d+)*")


class SortAsk(NamedTuple):
    descending: bool


def asked_sort(task: str) -> SortAsk | None:
    """The order a task asks a list put in, or None when it asks for none."""
    if not _SORT.search(task):
        return None
    if _DESCENDING.search(task):
        return SortAsk(descending=True)
    if _ASCENDING.search(task):
        return SortAsk(descending=False)
    return None


def sort_key(names: list[str]):
    """The key the names sort by: their one number each when every name holds exactly one, else their words."""
    numbers = [_NUMBER.findall(n) for n in names]
    if names and all(len(found) == 1 for found in numbers):
        return lambda name: float(_NUMBER.findall(name)[0].replace("−", "-").replace(",", ""))
    return lambda name: " ".join(name.split()).casefold()


def next_move(names: list[str], ask: SortAsk) -> tuple[int, int] | None:
    """(from, onto): the place of the item that belongs first of those out of place, and the place it belongs in;
    None when the list is in order."""
    key = sort_key(names)
    want = sorted(names, key=key, reverse=ask.descending)
    for at, (now, wanted) in enumerate(zip(names, want)):
        if key(now) != key(wanted):
            source = next(j for j in range(at + 1, len(names)) if key(names[j]) == key(wanted))
            return source, at
    return None


def ask_words(ask: SortAsk) -> str:
    return "decreasing" if ask.descending else "increasing"


async def sort_by_dragging(ctx: AgentContext, items: list[tuple[ElementRef, str]], ask: SortAsk) -> str:
    """Drag the items (refs and names, any order) until the list is in the asked order; the history line."""
    named = {(ref.frame, ref.id): name for ref, name in items}
    done: list[str] = []
    before: list[str] | None = None
    for _ in range(len(items) + 1):
        await ctx.refresh()
        order = _in_page_order(ctx, items)
        names = [named[(ref.frame, ref.id)] for ref in order]
        if len(order) != len(items):
            raise ActionFailed("the list's items are no longer all on the page", done)
        if before is not None and names == before:
            raise ActionFailed(f"the list did not change after {done[-1].lower()}", done)
        move = next_move(names, ask)
        if move is None:
            if not done:
                raise NoOp(f"the list is already in {ask_words(ask)} order", f"Sorted the list in {ask_words(ask)} order")
            return f"Sorted the list in {ask_words(ask)} order ({len(done)} drags: " + "; ".join(done) + ")"
        source, onto = move
        el = ctx.pagemem.element_by_ref(order[source]) if ctx.pagemem is not None else None
        if el is not None and not done:
            await confirm_action(ctx, "click", el)
        await browser(ctx, ctx.session.drag(order[source], order[onto], tab=ctx.tab), f'dragging "{names[source]}"')
        done.append(f'dragged "{names[source]}" onto "{names[onto]}"')
        before = names
    raise ActionFailed(f"the list is not in {ask_words(ask)} order after {len(done)} drags", done)


def _in_page_order(ctx: AgentContext, items: list[tuple[ElementRef, str]]) -> list[ElementRef]:
    """The items' refs in the order the page now holds them (a reorder moves the same nodes: their ids stay)."""
    snapshot = ctx.page.snapshot
    wanted = {(ref.frame, ref.id): ref for ref, _ in items}
    if snapshot is None:
        return []
    return [wanted[(f.frame, el.id)] for f in snapshot.frames for el in f.elements if (f.frame, el.id) in wanted]
