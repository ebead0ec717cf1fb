"""Continuation phase: say in words what an action changed on the page.

The paper asks a VLM to compare screenshots; we compare the page's text form instead: the sections'
rendered details before and after (which also catches plain text such as "Saved" or an error message,
not only interactive elements) plus the element state changes of the PageMem diff. A text model turns
that into a sentence. No change at all needs no call.
"""

from __future__ import annotations

from companion import llm
from companion.llm.answers import ChangeDescription
from companion.pagemem.model import Element, PageMem
from companion.pagemem.update import PageUpdate

CHANGE_MAX_TOKENS = 90
MAX_LINES = 12  # per list: the description needs the gist, not every option of a long menu
NO_CHANGE = "No visible change on the page."


def page_lines(pagemem: PageMem) -> dict[str, list[str]]:
    """Section id -> its details lines (stripped): the text form to compare before and after an action."""
    return {s.id: [line.strip().removeprefix("- ") for line in s.details.splitlines() if line.strip()] for s in pagemem.sections}


def _state(el: Element) -> str:
    parts = []
    if el.value:
        parts.append(f"value {el.value!r}")
    if el.checked is not None:
        parts.append("checked" if el.checked else "unchecked")
    if el.expanded is not None:
        parts.append("expanded" if el.expanded else "collapsed")
    if el.selected:
        parts.append("selected")
    if el.disabled:
        parts.append("disabled")
    return ", ".join(parts) or "no state"


def diff_lines(before: dict[str, list[str]], after: dict[str, list[str]], update: PageUpdate | None = None
               ) -> tuple[list[str], list[str], list[str]]:
    """(appeared, disappeared, changed) lines between two page_lines() views."""
    old = [line for lines in before.values() for line in lines]
    new = [line for lines in after.values() for line in lines]
    old_set, new_set = set(old), set(new)
    added = [line for line in dict.fromkeys(new) if line not in old_set]
    removed = [line for line in dict.fromkeys(old) if line not in new_set]
    changed = []
    if update is not None:
        changed = [f"{c.after.line()}: {_state(c.before)} -> {_state(c.after)}"
                   for d in update.diffs.values() for c in d.modified if _state(c.before) != _state(c.after)]
    return added[:MAX_LINES], removed[:MAX_LINES], changed[:MAX_LINES]


async def describe_change(action: str, before: dict[str, list[str]], after: dict[str, list[str]],
                          update: PageUpdate | None = None) -> str:
    added, removed, changed = diff_lines(before, after, update)
    if not (added or removed or changed):
        return NO_CHANGE
    reply = await llm.ask("change_description", {"action": action, "added": added, "removed": removed, "changed": changed},
                          ChangeDescription, max_tokens=CHANGE_MAX_TOKENS)
    return reply.answer.description.strip() or NO_CHANGE
