"""Continuation phase: say in words what an action changed on the page.

The paper asks a VLM to compare screenshots; we compare the page's text form instead: the sections'
rendered details before and after (which also catches plain text such as "Saved" or an error message,
not only interactive elements) plus the element state changes of the PageMem diff. A text model turns
that into a sentence. No change at all needs no call, nor does a page shown whole (the lines are listed); the
listed lines also stand in for a sentence the model gave no valid answer for (llm/fallback.py).
"""

from __future__ import annotations

import re

from companion import llm
from companion.llm.answers import ChangeDescription
from companion.llm.fit import declare
from companion.pagemem.model import Element, PageMem
from companion.pagemem.update import PageUpdate

CHANGE_MAX_TOKENS = 120  # ChangeDescription allows 200 characters (llm/fit.py)
declare("change_description", ChangeDescription, CHANGE_MAX_TOKENS)
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


_NUMBERED = re.compile(r"^\[(\d+)\] ")


def _number(line: str) -> str | None:
    match = _NUMBERED.match(line)
    return match.group(1) if match else None


def listed_change(added: list[str], removed: list[str], changed: list[str]) -> str:
    """The change as the lines themselves, for a page the actor sees whole again (observe/whole.py): the
    sentence a call would write adds nothing to the page it is shown next to. An element whose line changed
    in place (a field filled, a box ticked) is said once, as it is now: "gone: the empty field" misleads."""
    was = {_number(line) for line in removed} - {None}
    now = [line for line in added if _number(line) in was]
    moved = {_number(line) for line in now}
    added = [line for line in added if line not in now]
    removed = [line for line in removed if _number(line) not in moved]
    parts = [f"{what}: {'; '.join(lines)}." for what, lines in (("Now", now), ("Appeared", added), ("Gone", removed))
             if lines]
    if not now:  # states the lines do not show (the diff's element changes)
        parts += [f"Changed: {'; '.join(changed)}."] if changed else []
    return " ".join(parts) or NO_CHANGE


async def describe_change(action: str, before: dict[str, list[str]], after: dict[str, list[str]],
                          update: PageUpdate | None = None, *, by_rule: bool = False) -> str:
    """by_rule: list the changed lines instead of asking for a sentence (no call)."""
    added, removed, changed = diff_lines(before, after, update)
    if not (added or removed or changed):
        return NO_CHANGE
    if by_rule:
        return listed_change(added, removed, changed)
    asked = llm.ask("change_description", {"action": action, "added": added, "removed": removed, "changed": changed},
                    ChangeDescription, max_tokens=CHANGE_MAX_TOKENS)
    listed = listed_change(added, removed, changed)
    reply = await llm.or_stand_in(asked, lambda: None, prompt="change_description", what="the changed lines")
    return (reply.answer.description.strip() if reply else listed) or NO_CHANGE
