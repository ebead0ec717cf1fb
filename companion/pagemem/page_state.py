"""PageState: what the agent perceives of its tab, brought up to date once per snapshot by see(): the snapshot,
the PageMem built from it (DividePage on a new document, UpdatePageMem on the same one: paper §2.2, §2.3), and
the form each control belongs to (form_membership.py). The action layer's AgentContext (act/context.py) takes
the snapshot and hands it here; it keeps what only acting needs (change tracking, what was typed or approved)."""

from __future__ import annotations

from dataclasses import dataclass, field
from urllib.parse import urldefrag

from companion.pagemem.divide import divide_page
from companion.pagemem.form_membership import FormMembership, Key
from companion.pagemem.model import PageMem
from companion.pagemem.update import PageUpdate, SectionDiff, update_page_mem
from companion.protocol import Snapshot


def same_document_url(a: str, b: str) -> bool:
    """Two URLs that differ only by their fragment show the same document (a hash change keeps the PageMem)."""
    return urldefrag(a)[0] == urldefrag(b)[0]


@dataclass
class PageState:
    pagemem: PageMem | None = None
    snapshot: Snapshot | None = None  # the last one seen
    forms: FormMembership = field(default_factory=FormMembership)
    new_document: bool = False  # did the last see() land on a different document than the PageMem it had?

    def see(self, snapshot: Snapshot, *, reloaded: bool = False) -> PageUpdate:
        """Bring the PageMem up to date with `snapshot`: UpdatePageMem on the same document, a fresh DividePage
        (every element reported as added) after a URL change or a reload (`reloaded`: a navigation committed in
        the tab since the last snapshot; element ids restart per document, so a diff would pair unrelated ones)."""
        self.snapshot = snapshot
        self.forms = FormMembership.of(snapshot)
        if self.pagemem is None or reloaded or not same_document_url(self.pagemem.url, snapshot.url):
            self.pagemem = divide_page(snapshot)
            self.new_document = True
            return PageUpdate(
                diffs={s.id: SectionDiff(section_id=s.id, added=list(s.all_elements())) for s in self.pagemem.sections},
                added_sections=[s.id for s in self.pagemem.sections],
            )
        self.new_document = False
        update = update_page_mem(self.pagemem, snapshot)
        self.pagemem.url = snapshot.url
        return update

    def form_of(self, key: Key) -> Key | None:
        """The <form> an element belongs to in the last snapshot (None: none)."""
        return self.forms.form_of(key)
