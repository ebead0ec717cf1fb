"""Form membership: which <form> each element of a snapshot belongs to, as the browser reads it, and each form's
label. Sections do not always follow forms (a small page is one section; a big form spans several), so the
action layer asks this, not the PageMem, which fields a submit sends. Walked once per snapshot (PageState)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, TypeVar

from companion.protocol import FrameSnapshot, Snapshot, SnapshotElement

Key = tuple[int, int]  # (frame, element id)
V = TypeVar("V")


def nearest(frame: FrameSnapshot, own: Callable[[SnapshotElement], V | None]) -> dict[int, V | None]:
    """Each element's own value, else its nearest ancestor's (None: neither it nor an ancestor has one)."""
    by_id = {e.id: e for e in frame.elements}
    memo: dict[int, V | None] = {}
    for el in frame.elements:
        chain: list[SnapshotElement] = []
        node: SnapshotElement | None = el
        while node is not None and node.id not in memo:
            chain.append(node)
            node = by_id.get(node.parent) if node.parent is not None else None
        inherited = memo[node.id] if node is not None else None
        for n in reversed(chain):  # from the top down
            mine = own(n)
            inherited = mine if mine is not None else inherited
            memo[n.id] = inherited
    return memo


def form_owners(frame: FrameSnapshot) -> dict[int, int]:
    """Element id -> id of the <form> it belongs to, as the browser reads it: a control's form owner as the
    extension sent it (`form`: a form= attribute can name a form anywhere in the document), else its nearest
    enclosing <form> (a link or a scripted div belongs to the form it sits in). Forms themselves are left out."""
    forms = {e.id for e in frame.elements if e.tag == "form"}
    enclosing = nearest(frame, lambda e: e.id if e.tag == "form" else None)
    owners: dict[int, int] = {}
    for el in frame.elements:
        owner = el.form if el.form in forms else enclosing.get(el.id)
        if owner is not None and el.tag != "form":
            owners[el.id] = owner
    return owners


@dataclass(frozen=True)
class FormMembership:
    """Every element of a <form> in a snapshot -> that form, and each form's label."""

    owners: dict[int, dict[int, int]] = field(default_factory=dict)  # frame -> form_owners(frame)
    members: dict[Key, Key] = field(default_factory=dict)  # (frame, id) -> (frame, id) of its form
    labels: dict[Key, str] = field(default_factory=dict)  # form -> its aria-label, title, name or id
    targets: dict[Key, str] = field(default_factory=dict)  # form -> where it is sent, as the browser resolved it

    @classmethod
    def of(cls, snapshot: Snapshot) -> FormMembership:
        owners: dict[int, dict[int, int]] = {}
        members: dict[Key, Key] = {}
        labels: dict[Key, str] = {}
        targets: dict[Key, str] = {}
        for frame in snapshot.frames:
            by_id = {e.id: e for e in frame.elements}
            owners[frame.frame] = mine = form_owners(frame)
            for eid, form in mine.items():
                members[(frame.frame, eid)] = (frame.frame, form)
            for form in set(mine.values()):
                a = by_id[form].attrs
                labels[(frame.frame, form)] = a.get("aria-label") or a.get("title") or a.get("name") or a.get("id") or ""
                targets[(frame.frame, form)] = by_id[form].url or ""
        return cls(owners, members, labels, targets)

    def form_of(self, key: Key) -> Key | None:
        """The form an element belongs to (None: it is in none)."""
        return self.members.get(key)
