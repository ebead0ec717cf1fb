"""Loop detection: the same action chosen on the same page state again and again.

The page state is the URL plus every element's identity and state (value, checked, selected, expanded,
disabled, the selected option), not the page's rendered text: a ticking clock or a rotating banner changes
the text on every look, so a click that changes nothing would never repeat "the same state". Elements are
taken by what they are (identity_key), not by their ids, so a re-rendered but unchanged widget is the same.
Three times on one state puts a nudge line into the action-selection prompt; five times ends the task
with an explanation.

A cycle over pages (the shop, its kettles page, the shop again, with the price on the kettles page) repeats no
action on one state, so it is caught by arrivals instead: a step that starts on a page state and text it started
on twice before gets a nudge line saying so (RETURN_NUDGE_AT).

Before that, an action seen to change nothing is a known no-op on that state (the pre-filter's rule, learnt by
trying): done on a state, it left the same state and the same page text, so choosing it there again cannot
help and it is not offered there again (a small model re-ran the search whose results it was reading, and
re-clicked a consent button that left its dialog open, until the guard stopped the task). Here the text does
count, on the safe side: a click whose only effect is text (a counter, a message) is not a no-op, and on a
page whose text changes by itself (a ticking clock) nothing is learnt and the counts above still apply.

An action that failed on a state (the page refused it: an element gone, a menu that did not show the entry) is
not offered again on that state in a later step either: the held-out admin's default-model run retried the same
three failing entries in each of seven steps, each step ending on the retry bound.

An action that took the page back to a state (the same elements in the same states, the same text) it had shown
before the one the action was done on undoes what led there: a toggle closed after it was opened. It is not offered
on that state again (came_back), so a toggle goes round once, not five times; the action that led forward stays.

Known no-ops, failures and cycles expire when the agent is on a different URL: another scheme, host, path or query (the fragment does
not count: "#reviews" is the same document, as for the PageMem). A form that a first try left unsubmitted, or a
button clicked before its fields were filled, changed nothing then; back on that page later, the same action on the
same state may be the right one (the default model, refused "Log in" on a log-in page, never logged in). The loop
counts above do not expire: five times on one state still stops the task.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from urllib.parse import urldefrag

from companion.llm.prompts import untrusted
from companion.observe.grounding import page_content
from companion.pagemem.model import Element, PageMem

NUDGE_AT = 3
STOP_AT = 5
RETURN_NUDGE_AT = 3  # the third step that starts on the same page, unchanged


MOVE_PX = 8  # the grid a draggable element's or resize handle's place is read on: a pixel or two is no move


def element_state(el: Element) -> tuple:
    """What the element is and the state an action can change (a secret's value only as "filled or not"); for what a
    drag moves (a draggable element, a resize handle) its place too: a box dragged into another changes no text, and
    the drag that did it read as a no-op, so the default model dragged both boxes again."""
    value = None if el.is_password else el.value
    where = (round(el.box.x / MOVE_PX), round(el.box.y / MOVE_PX)) if (el.drag or el.resize) and el.box else None
    return (el.identity_key(), value, el.has_value, el.checked, el.selected, el.expanded, el.disabled, el.selected_option,
            tuple(el.selected_options), where)


def page_text(pagemem: PageMem) -> str:
    """A fingerprint of the page's rendered text (every section's details), without our element numbers: a page
    that re-creates the same results on every search (an in-page search) numbers them anew each time."""
    digest = hashlib.sha256()
    for section in pagemem.sections:
        digest.update(b"\0" + page_content(section.details).encode())
    return digest.hexdigest()[:16]


def page_state(pagemem: PageMem) -> str:
    digest = hashlib.sha256(pagemem.url.encode())
    for el in pagemem.all_elements():
        digest.update(b"\0" + repr(element_state(el)).encode())
    return digest.hexdigest()[:16]


class LoopGuard:
    def __init__(self, nudge_at: int = NUDGE_AT, stop_at: int = STOP_AT):
        self.nudge_at = nudge_at
        self.stop_at = stop_at
        self.counts: Counter[tuple[str, str]] = Counter()
        self.noops: dict[str, set[str]] = {}  # state -> actions done there that changed nothing
        self.failures: dict[str, set[str]] = {}  # state -> actions that failed there
        self.seen: dict[tuple[str, str], int] = {}  # (state, text) -> the order it was first seen in (this URL)
        self.backs: dict[tuple[str, str], set[str]] = {}  # (state, text) -> actions that led back to an earlier one
        self.noops_url = ""  # the document URL (no fragment) the known no-ops and failures were learnt on
        self._last: tuple[str, str, str] | None = None  # (state, text, action) of the last action done
        self.arrivals: dict[tuple[str, str], list[int]] = {}  # (state, text) -> the steps that started on it

    def record(self, state: str, action: str, text: str = "") -> int:
        """Count one execution of `action` on `state` (whose page text is `text`); returns how often that pair
        has happened now."""
        self.counts[(state, action)] += 1
        self._last = (state, text, action)
        self.seen.setdefault((state, text), len(self.seen))
        return self.counts[(state, action)]

    def at(self, url: str) -> None:
        """The agent is on `url`: the no-ops learnt on another URL (path and query; not the fragment) expire."""
        document = urldefrag(url)[0]
        if document != self.noops_url:
            self.noops.clear()
            self.failures.clear()
            self.seen.clear()
            self.backs.clear()
            self.noops_url = document

    def look(self, state: str, text: str) -> None:
        """The page as it is after the last action done: the same state and text make that action a known no-op there."""
        if self._last is not None and self._last[:2] == (state, text):
            self.noops.setdefault(state, set()).add(self._last[2])
        elif (self._last is not None and self._last[:2] in self.seen  # (a URL change since forgot it)
              and self.seen.get((state, text), len(self.seen)) < self.seen[self._last[:2]]):
            self.backs.setdefault(self._last[:2], set()).add(self._last[2])  # back to a state seen before it
        self.seen.setdefault((state, text), len(self.seen))
        self._last = None

    def changed_nothing(self, state: str) -> set[str]:
        """The actions known to change nothing on this state."""
        return self.noops.get(state, set())

    def came_back(self, state: str, text: str) -> set[str]:
        """The actions that, done on this very state and text, brought the page back to a state it had shown before
        this one: done again they undo what led here (a filter panel's toggle closed and opened five times a
        step on the held-out admin, each click looking new to the counts). The action that led here stays
        offered where it was done: a section expanded, collapsed by mistake, can be expanded again."""
        return self.backs.get((state, text), set())

    def failed(self, state: str, action: str) -> None:
        """`action` failed on this state: not offered there again (until the agent is on another URL)."""
        self.failures.setdefault(state, set()).add(action)

    def failed_here(self, state: str) -> set[str]:
        """The actions that failed on this state, in this step or an earlier one."""
        return self.failures.get(state, set())

    def repeated(self, state: str) -> list[tuple[str, int]]:
        """Actions done at least nudge_at times on this state, most repeated first."""
        hits = [(action, n) for (s, action), n in self.counts.items() if s == state and n >= self.nudge_at]
        return sorted(hits, key=lambda x: -x[1])

    def arrive(self, state: str, text: str, step: int) -> None:
        """A step starts on this page state and text."""
        steps = self.arrivals.setdefault((state, text), [])
        if step not in steps:
            steps.append(step)

    def returned(self, state: str, text: str) -> list[int]:
        """The steps that started on this same page, unchanged, when it is at least the RETURN_NUDGE_AT-th."""
        steps = self.arrivals.get((state, text), [])
        return steps if len(steps) >= RETURN_NUDGE_AT else []

    def nudge(self, state: str, text: str | None = None) -> str:
        """The line for the action-selection prompt ("" when nothing repeats)."""
        lines = []
        hits = self.repeated(state)
        if hits:
            # The actions quote element names (page text): they go between the page-content markers.
            listed = untrusted("; ".join(f"{action} ({n} times)" for action, n in hits))
            lines.append(f"Warning: on this same page state you already did: {listed}, and the page did not change. "
                         "Doing it again will not help: choose a different action, or end the task if it is complete or its answer is known.")
        back = self.returned(state, text) if text is not None else []
        if back:
            lines.append(f"Warning: steps {', '.join(map(str, back[:-1]))} and this one all started on this same page, "
                         "unchanged: going away and back shows nothing new. If what it shows answers the task, end the "
                         "task; otherwise choose an action not taken here before.")
        return "\n".join(lines)

    def should_stop(self, state: str, action: str) -> bool:
        return self.counts[(state, action)] >= self.stop_at

    def explanation(self, state: str, action: str) -> str:
        return (f"Stopped: the agent repeated the same action ({action}) {self.counts[(state, action)]} times "
                "on an unchanged page, so it was stuck in a loop.")
