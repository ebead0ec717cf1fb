"""PageDigest (Region4Web §4.2): the observation of one page, kept across the steps taken on it.

At page entry we record which elements exist (by their PageMem index, which survives re-rendered nodes)
and which sections were selected. On later steps of the same page nothing is rebuilt from scratch:
removed and modified elements are already applied to the existing sections by UpdatePageMem, under
their existing purposes; elements that did not exist at entry are taken OUT of their host sections and
shown as one separate "added" group (merging them could shift a section's purpose: a menu that opened
in the header is not the header). A URL change (or a page whose sections were mostly replaced) is a
new page: a new digest, a new selection.
"""

from __future__ import annotations

import re
from urllib.parse import urldefrag

from pydantic import BaseModel, Field

from companion.pagemem.model import PageMem, PageSection, hash_text
from companion.pagemem.render import STRUCTURAL_ROLES

_INDEX = re.compile(r"^\s*- \[(\d+)\] ")
_INDEX_ANYWHERE = re.compile(r"\[\d+\] ")
_STRUCTURE = re.compile(r"^\s*- (%s)(?=$| |:)" % "|".join(sorted(STRUCTURAL_ROLES)))
_BARE_STRUCTURE = re.compile(r"^\s*- [a-z]+(?: \"[^\"]*\")?$")  # "- list", "- listitem", "- menu \"Account\""


class ListSelection(BaseModel):
    content_hash: str
    item_roots: list[tuple[int, int]] = Field(description="(frame, id) of the selected items' roots")

    def pick(self, section: PageSection) -> list[tuple[int, PageSection]]:
        """(1-based position, item) of the selected items in the section as it is now."""
        wanted = set(map(tuple, self.item_roots))
        return [(pos, it) for pos, it in enumerate(section.items, 1)
                if it.roots and (it.roots[0].frame, it.roots[0].id) in wanted]


class PageDigest(BaseModel):
    url: str
    entry_indices: set[int]
    entry_sections: list[str]
    entry_lines: dict[str, set[str]] = Field(default_factory=dict, description="section id -> its outline lines at entry")
    selected: list[str] = Field(default_factory=list)
    view_all: bool = False
    lists: dict[str, ListSelection] = Field(default_factory=dict)
    modal_shown: str | None = Field(None, description="the modal last shown as the only section (modal_key)")
    released: set[str] = Field(default_factory=set, description="modals a step's action left exactly as they were: "
                                                                "the page behind them is back in view")

    @classmethod
    def enter(cls, pagemem: PageMem) -> "PageDigest":
        return cls(url=page_url(pagemem.url),
                   entry_indices={e.index for e in pagemem.all_elements()},
                   entry_sections=[s.id for s in pagemem.sections],
                   entry_lines={s.id: set(s.details.splitlines()) for s in pagemem.sections if s.kind != "list"})

    def same_page(self, pagemem: PageMem, removed_sections: int = 0) -> bool:
        """Same URL (fragment aside) and not mostly replaced in place (the caller checks it is the same PageMem)."""
        if page_url(pagemem.url) != self.url:
            return False
        survivors = sum(1 for s in pagemem.sections if s.id in self.entry_sections)
        return not (self.entry_sections and removed_sections and survivors * 2 < len(self.entry_sections))

    def keeps_modal(self, modal: PageSection, view: str | None) -> bool:
        """CheckModal within a page: is this modal still the only section? Not once a step's action (a dismiss
        that did nothing: a consent wall whose buttons never answer) left it exactly as it was shown; the page
        behind it comes back in while it stays so. A dialog that changes is the focus again."""
        key = modal_key(view if view is not None else modal.details)
        if key in self.released:
            return False
        if key == self.modal_shown:
            self.released.add(key)
            return False
        self.modal_shown = key
        return True

    # ------------------------------------------------------------------ transitions

    def added_indices(self, section: PageSection) -> set[int]:
        return {e.index for e in section.all_elements() if e.index not in self.entry_indices}

    def is_new_section(self, section: PageSection) -> bool:
        return section.id not in self.entry_sections

    def split(self, section: PageSection) -> tuple[str, str]:
        """(view, added): the section's details without the elements added since entry, and those
        elements with their structural lines, as one block."""
        if self.is_new_section(section):
            return "", section.details
        added = self.added_indices(section)
        if section.kind == "list" or (not added and set(section.details.splitlines()) <= self.entry_lines.get(section.id, set())):
            return section.details, ""
        lines = section.details.splitlines()
        keep = [True] * len(lines)
        before = self.entry_lines.get(section.id, set())
        for i, line in enumerate(lines):
            if not keep[i]:
                continue
            m = _INDEX.match(line)
            # An added element, or a container that was not rendered at entry (a dialog or menu that opened).
            if (m and int(m.group(1)) in added) or (not m and line not in before and _STRUCTURE.match(line)):
                keep[i] = False
                # Its subtree (deeper lines right below) goes with it.
                depth = _depth(line)
                j = i + 1
                while j < len(lines) and _depth(lines[j]) > depth:
                    keep[j] = False
                    j += 1
        # Structural wrappers left empty by the removal (the menu's list/listitem lines) go too.
        changed = True
        while changed:
            changed = False
            for i, line in enumerate(lines):
                if keep[i] and _BARE_STRUCTURE.match(line) and not _has_kept_child(lines, keep, i):
                    if _had_child(lines, i):
                        keep[i] = False
                        changed = True
        view = "\n".join(line for line, k in zip(lines, keep) if k)
        moved = "\n".join(line for line, k in zip(lines, keep) if not k)
        return view, moved


def page_url(url: str) -> str:
    return urldefrag(url)[0]


def modal_key(details: str) -> str:
    """A dialog as shown, values and states included, element numbers aside (a re-created dialog reads alike)."""
    return hash_text(_INDEX_ANYWHERE.sub("[] ", details))


def _depth(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _had_child(lines: list[str], i: int) -> bool:
    return i + 1 < len(lines) and _depth(lines[i + 1]) > _depth(lines[i])


def _has_kept_child(lines: list[str], keep: list[bool], i: int) -> bool:
    depth = _depth(lines[i])
    j = i + 1
    while j < len(lines) and _depth(lines[j]) > depth:
        if keep[j]:
            return True
        j += 1
    return False


def render_added_group(blocks: list[tuple[str, str]]) -> str | None:
    """The added group: one block per place where elements appeared ('where' is the host section's
    purpose, or 'new region' for content outside every known section)."""
    parts = [f"(appeared in: {where})\n{text}" for where, text in blocks if text.strip()]
    return "\n".join(parts) if parts else None
