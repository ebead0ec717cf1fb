"""Dropdown memory in the observation (WebChallenger §2.3, figure 2): a trigger whose click revealed elements
on an earlier visit (exploration, the user, or an earlier task) shows them in its line before anything is
clicked, a few tokens each:

    - [12] button "Actions" (opens: Delete selected, Mark shipped, Export)

so section selection, extraction and the action choice know what is behind it. The records come from
memory/learn.py (known_dropdowns: by stable key, this page first, then its template). The candidates that
let the agent pick a hidden element directly are in act/candidates.py (hidden_candidates).
"""

from __future__ import annotations

import logging

from companion.memory.learn import known_dropdowns
from companion.memory.records import DropdownRecord
from companion.memory.store import WebsiteMemStore
from companion.pagemem.model import PageMem
from companion.pagemem.render import opens_note, with_opens_note

log = logging.getLogger(__name__)


def show_dropdowns(pagemem: PageMem, known: dict[tuple[int, int], DropdownRecord]) -> int:
    """Append each known trigger's hidden elements to its line in the details of its section (and list item).
    Returns how many triggers were annotated."""
    shown = 0
    for section in pagemem.sections:
        for holder in (section, *section.items):
            for el in holder.elements:
                record = known.get(el.key)
                if record is None:
                    continue
                note = opens_note(record.labels())
                holder.details = with_opens_note(holder.details, el.index, note)
                if holder is not section:  # a list's details repeat its items' lines
                    section.details = with_opens_note(section.details, el.index, note)
                shown += 1
    return shown


def show_known_dropdowns(store: WebsiteMemStore | None, pagemem: PageMem) -> dict[tuple[int, int], DropdownRecord]:
    """show_dropdowns with the site memory's records; memory is a cache, so a read error shows nothing."""
    if store is None:
        return {}
    try:
        known = known_dropdowns(store, pagemem)
    except Exception:
        log.exception("could not read the remembered dropdowns")
        return {}
    show_dropdowns(pagemem, known)
    return known


__all__ = ["show_dropdowns", "show_known_dropdowns"]
