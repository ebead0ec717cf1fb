"""Continuation phase: say in words what an action changed on the page, from the PageMem diff.

The paper asks a VLM to compare screenshots; we have the structural diff, which names exactly the elements
that appeared, disappeared or changed state, so a text model describes it. No change at all needs no call.
"""

from __future__ import annotations

from companion import llm
from companion.llm.answers import ChangeDescription
from companion.pagemem.model import Element
from companion.pagemem.update import PageUpdate

CHANGE_MAX_TOKENS = 90
MAX_LINES = 12  # per list: the description needs the gist, not every option of a long menu
NO_CHANGE = "No visible change on the page."


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


def diff_lines(update: PageUpdate) -> tuple[list[str], list[str], list[str]]:
    added = [e.line() for e in update.added_elements]
    removed = [e.line() for d in update.diffs.values() for e in d.removed]
    removed += [f"section {s.purpose or s.id}" for s in update.removed_sections]
    changed = [f"{c.after.line()}: {_state(c.before)} -> {_state(c.after)}" for d in update.diffs.values() for c in d.modified]
    return added[:MAX_LINES], removed[:MAX_LINES], changed[:MAX_LINES]


async def describe_change(action: str, update: PageUpdate) -> str:
    added, removed, changed = diff_lines(update)
    if not (added or removed or changed):
        return NO_CHANGE
    reply = await llm.ask("change_description", {"action": action, "added": added, "removed": removed, "changed": changed},
                          ChangeDescription, max_tokens=CHANGE_MAX_TOKENS)
    return reply.answer.description.strip() or NO_CHANGE
