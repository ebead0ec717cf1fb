"""Late regions within one page: what appeared since page entry, and when section selection runs again.

PageDigest (Region4Web §4.2) shows the actor the elements added since the page was opened; WebChallenger
selects sections anew at every timestep. Selecting at every step costs a call per step for a page whose
sections' lines have not changed (the answer would be the same), so selection runs again only when its input
changed enough to change the answer (the SelectionBasis rule):
  - a section appeared that the last selection did not see (a popover, toast, result list added late), or
  - a selected section's content changed (new text, rebuilt items): what made it relevant may be gone.
What does not count: typed values and the states an action flips (checked, selected, expanded), which are the
agent's own doing, and elements added inside a known section, which the added group offers as they are;
removed sections leave a subset of what was judged, so the answer stands.
"""

from __future__ import annotations

import re

from pydantic import BaseModel, Field

from companion.observe.digest import PageDigest
from companion.pagemem.model import Element, PageMem, PageSection, hash_text
from companion.protocol import ElementRef

_INDEX = re.compile(r"\[\d+\] ")
_VALUE = re.compile(r' value="[^"\n]*"')
_FLIPPED = re.compile(r" \[(?:checked|selected|expanded|collapsed|invalid)\]")


def added_elements(digest: PageDigest, pagemem: PageMem) -> dict[str, list[Element]]:
    """Section id -> its elements that did not exist at page entry (the added group of PageDigest): every
    element of a section that appeared since entry, and the new elements of a known one (a list's new items
    are its own content, read with the list)."""
    out: dict[str, list[Element]] = {}
    for section in pagemem.sections:
        if digest.is_new_section(section):
            elements = list(section.all_elements())
        elif section.kind == "list":
            continue
        else:
            added = digest.added_indices(section)
            elements = [e for e in section.all_elements() if e.index in added]
        if elements:
            out[section.id] = elements
    return out


def added_refs(digest: PageDigest | None, pagemem: PageMem) -> dict[str, list[ElementRef]]:
    """added_elements() as wire addresses (what an Observation carries to candidate assembly)."""
    if digest is None:
        return {}
    return {sid: [e.ref for e in elements] for sid, elements in added_elements(digest, pagemem).items()}


def selection_view(digest: PageDigest, section: PageSection) -> str:
    """The part of a section the rule compares: a known section as at entry with its changes applied (the
    elements added inside it are the added group's), a section that appeared later as a whole."""
    return section.details if digest.is_new_section(section) else digest.split(section)[0]


def content_key(text: str) -> str:
    """What a section says, not what was typed or toggled in it (see the module docstring)."""
    return hash_text(_FLIPPED.sub("", _VALUE.sub("", _INDEX.sub("[] ", text))))


class SelectionBasis(BaseModel):
    """What the last section selection of the page saw."""

    sections: set[str] = Field(description="ids of the sections present when it ran")
    selected: dict[str, str] = Field(description="selected section id -> content_key of its view then")

    @classmethod
    def of(cls, digest: PageDigest, pagemem: PageMem, selected: list[str]) -> "SelectionBasis":
        by_id = {s.id: s for s in pagemem.sections}
        return cls(sections=set(by_id),
                   selected={sid: content_key(selection_view(digest, by_id[sid])) for sid in selected if sid in by_id})


def reselect_reason(basis: SelectionBasis | None, digest: PageDigest, pagemem: PageMem) -> str | None:
    """Why selection must run again on this page now (None: the last selection stands)."""
    if basis is None:
        return None
    appeared = [s.id for s in pagemem.sections
                if s.id not in basis.sections and (s.details.strip() or s.items)]
    if appeared:
        return "section(s) appeared since the last selection: " + ", ".join(appeared)
    by_id = {s.id: s for s in pagemem.sections}
    changed = [sid for sid, key in basis.selected.items()
               if sid in by_id and content_key(selection_view(digest, by_id[sid])) != key]
    if changed:
        return "the content of selected section(s) changed: " + ", ".join(changed)
    return None


__all__ = ["SelectionBasis", "added_elements", "added_refs", "content_key", "reselect_reason", "selection_view"]
