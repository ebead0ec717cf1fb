"""Controls told apart by the text around them (pure; part of building a PageTree, tree.py).

Two passes, both "the text of the box a control sits in, the controls' own text left out":

- near_labels, before names are made: a form field with no accessible name (no <label>, aria-label, title or
  placeholder) is named by the text of its nearest ancestor that has text and holds no other field, when that
  text is short enough to be a label. `<p><span>Genre:</span><input></p>`, `<tr><th>Year</th><td><input></td></tr>`:
  a person reads "Genre" and "Year"; the default model saw three `textbox` lines and typed the year into each.
- mark_contexts, after names are made: for every group of controls that share role and name, each member's
  context is the text of its widest ancestor holding no other member (its row, its card). Three "Odd" buttons,
  one beside each number; an "Edit" link in each table row: `button "Odd" (1 of 3)` left a small model to guess
  which is which (it pressed Submit instead); `button "Odd" (for "3")` does not. A row with no text but other
  controls is told by their names (an admin index's `link "Add" (for "Categories")`). Two controls side by side
  in one container have no such ancestor: no context (their position still tells them apart, act/candidates.py).
  Names that differ only in their numbers are alike too: a results list's "Book for $1476" and "Book for $520"
  are one control per card, and the card's "Duration: 8h 37m" is what a task ranking them by duration reads
  (observe/ranked.ranked_controls).
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from typing import TYPE_CHECKING, Callable, Iterable

from companion.pagemem.render import own_text

if TYPE_CHECKING:  # tree.py runs these passes while it builds the tree
    from companion.pagemem.tree import Node, PageTree

CONTEXT_CHARS = 60
# A results card ("Depart: … Arrives: … Duration: 5h 3m"): what a superlative ranks may come last.
CARD_CHARS = 240
LABEL_CHARS = 40  # longer text around a field is prose, not its label
# A group with more members than this (a feed of 500 "Like" buttons) is not walked: their position still tells
# them apart, and the walk is per member.
MAX_GROUP = 200
MAX_NODES_READ = 200  # nodes read below one ancestor: a whole column would be read otherwise
_NOT_FIELDS = frozenset({"submit", "button", "reset", "image", "hidden", "file"})
_FIELD_ROLES = frozenset({"textbox", "searchbox", "combobox", "spinbutton", "slider", "checkbox", "radio", "switch"})


def is_field(node: "Node") -> bool:
    el = node.el
    if el.tag == "input":
        return el.attrs.get("type", "").lower() not in _NOT_FIELDS
    return el.tag in ("textarea", "select") or (el.interactive and el.attrs.get("role", "").lower() in _FIELD_ROLES)


def _holds(members: Iterable["Node"]) -> Counter[int]:
    """How many of `members` each ancestor holds, by id()."""
    holds: Counter[int] = Counter()
    for m in members:
        p = m.parent
        while p is not None:
            holds[id(p)] += 1
            p = p.parent
    return holds


def _alone_in(node: "Node", holds: Counter[int]) -> Iterable["Node"]:
    """The node's ancestors that hold it alone of its kind, nearest first."""
    p = node.parent
    while p is not None and holds[id(p)] == 1:
        yield p
        p = p.parent


def near_labels(tree: "PageTree", has_name: Callable[["Node"], bool]) -> dict[tuple[int, int], str]:
    """A label for each kept field without a name of its own (see the module docstring), by node key."""
    fields = [n for n in tree.nodes.values() if n.kept and is_field(n)]
    nameless = [n for n in fields if not has_name(n)]
    if not nameless:
        return {}
    holds = _holds(fields)
    out: dict[tuple[int, int], str] = {}
    for field in nameless:
        for box in _alone_in(field, holds):
            text = text_outside_controls(box, LABEL_CHARS + 1)
            if text:
                if len(text) <= LABEL_CHARS:
                    out[field.key] = text.rstrip(" :*")
                break
    return out


_NUMBER = re.compile(r"\d[\d,.]*")


def alike_key(role: str, name: str) -> tuple[str, str]:
    """What alike controls share: role and name, the name's numbers aside when it has words too ("Book for $#");
    a bare number ("1" ... "31" of a calendar) stays itself."""
    masked = _NUMBER.sub("#", name)
    return (role, masked if re.search(r"[^\W\d_]", masked) else name)


def mark_contexts(tree: "PageTree") -> None:
    """Set Node.context on the members of every group of alike controls (see the module docstring)."""
    groups: dict[tuple[str, str], list["Node"]] = defaultdict(list)
    for node in tree.nodes.values():
        if node.kept and node.el.interactive and (node.name or node.hint):
            groups[alike_key(node.role, node.name or node.hint)].append(node)
    alike = {key for key, members in groups.items() if len(members) > 1}
    for members in groups.values():
        if not 2 <= len(members) <= MAX_GROUP:
            continue
        holds = _holds(members)
        for m in members:
            widest = None
            for widest in _alone_in(m, holds):
                pass
            if widest is not None:
                m.context = text_outside_controls(widest, CONTEXT_CHARS) or other_controls(widest, alike, CONTEXT_CHARS)
                if len({n.name or n.hint for n in members}) > 1:  # names alike but for a number: a card per control
                    m.card = text_outside_controls(widest, CARD_CHARS)


def other_controls(root: "Node", alike: set[tuple[str, str]], limit: int) -> str:
    """The names of the controls under `root` that no other control shares (`alike`: the repeated role and name
    pairs): an admin index's row has no text but its model's link, "Categories", beside its "Add" and "Change"."""
    names: list[str] = []
    stack = [root]
    read = 0
    while stack and read < MAX_NODES_READ and sum(len(n) + 1 for n in names) < limit:
        node = stack.pop()
        read += 1
        if node.el.interactive:
            if node.name and alike_key(node.role, node.name) not in alike:
                names.append(node.name)
            continue
        stack.extend(c for c in reversed(node.children) if c.kept)
    text = " ".join(" ".join(names).split())
    return text if len(text) <= limit else text[:limit - 1].rstrip() + "…"


def text_outside_controls(root: "Node", limit: int) -> str:
    """The visible text under `root` (itself included) that no control holds, in document order, cut to `limit`."""
    parts: list[str] = []
    size = 0
    stack = [root]
    read = 0
    while stack and size < limit and read < MAX_NODES_READ:
        node = stack.pop()
        read += 1
        if node.el.interactive:
            continue
        text = own_text(node).strip()
        if text:
            parts.append(text)
            size += len(text) + 1
        stack.extend(c for c in reversed(node.children) if c.kept)
    text = " ".join(" ".join(parts).split())
    return text if len(text) <= limit else text[:limit - 1].rstrip() + "…"
