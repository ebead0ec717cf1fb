"""AgentContext: everything a workflow needs, built by the AGENT once per task and kept current by refresh().

It keeps the task's fixed facts (the task, its confirm callback, its nonce, its sites) and what acting needs
(what was typed, approved or declined, execute()'s change tracking); what is perceived of the page (the snapshot,
the PageMem, form membership) is its PageState's (pagemem/page_state.py), which refresh() hands each snapshot."""

from __future__ import annotations

import time
from dataclasses import InitVar, dataclass, field
from pathlib import Path
from typing import Awaitable, Callable

from companion.bridge.errors import BridgeDisconnected, BridgeError
from companion.bridge.session import BrowserSession
from companion.memory.store import WebsiteMemStore
from companion.pagemem.form_membership import Key
from companion.pagemem.model import Bookmark, PageMem
from companion.pagemem.page_state import PageState, same_document_url
from companion.pagemem.update import PageUpdate
from companion.protocol import TabInfo
from companion.act.errors import ActionFailed
from companion.act.sites import SitePolicy, form_targets
from companion.act.form_effect import PageFacts, read_page_facts
from companion.act.task_parts import TaskParts
from companion.llm.prompts import new_nonce


async def _always_yes(description: str) -> bool:
    return True


_FIXED_FOR_THE_TASK = frozenset({"task", "confirm", "nonce"})


@dataclass
class AgentContext:
    session: BrowserSession
    task: str
    files_dir: Path
    store: WebsiteMemStore | None = None
    pagemem: InitVar[PageMem | None] = None  # the page already read, if any (tests, tools); then page.pagemem
    tab: int | None = None  # None: the active tab
    history_text: Callable[[], str] = lambda: ""
    confirm: Callable[[str], Awaitable[bool]] = _always_yes
    allowed_domains: list[str] = field(default_factory=list)
    # Where the task may go (act/sites.py); None: made on first use from allowed_domains, task and page.
    sites: "SitePolicy | None" = None
    visited_urls: list[str] = field(default_factory=list)
    bookmarks: list[Bookmark] = field(default_factory=list)
    tabs: list[TabInfo] = field(default_factory=list)
    # The current step's observation summary (AGENT sets it; gather_candidates does too): input prompts show it.
    observation: str = ""
    # Names, emails and codes the rows the task names hold under a column it speaks of (observe/rows.py
    # related_values: the order's customer), gathered over the task: searched for like the task's own identifiers.
    related_terms: list[str] = field(default_factory=list)
    # The paths of the pages they were found on (the order list): searched for there, they lead back to the rows
    # that hold them, not to the records they name (act/search_for.search_terms is given them elsewhere only).
    related_found_on: set[str] = field(default_factory=set)
    # True once the observer shows every section in full on this page: the view_all candidate is then left out.
    view_all_active: bool = False
    # What is perceived of the tab: the snapshot, the PageMem, form membership (pagemem/page_state.py).
    page: PageState = field(default_factory=PageState)
    # (frame, id) of password fields the agent typed into: shown as "filled" (their value is never read back).
    typed_secrets: set[tuple[int, int]] = field(default_factory=set)
    # From the last snapshot: where each form (or formaction button) submits to, as the browser resolved it.
    form_urls: dict[tuple[int, int], tuple[str, bool]] = field(default_factory=dict)
    # From the last snapshot: what each form does (method, action, field kinds) and each frame's origin, by which
    # confirmation.py decides; and the frame origins the user allowed typing into on this document.
    page_facts: PageFacts = field(default_factory=PageFacts)
    approved_origins: set[str] = field(default_factory=set)
    # What the user declined in this task, by what it does (confirmation.py effect_of) -> the question they
    # answered: never asked again, on any page of the task (a decline is not undone by a reload).
    declined: dict[str, str] = field(default_factory=dict)
    # (frame, id) of a menu trigger -> the names of the options it revealed on this document (act/dropdown.py).
    menu_options: dict[tuple[int, int], set[str]] = field(default_factory=dict)
    # Submit clicks refused for fields the task names that are unset (act/named_fields.py): (button, what was unset).
    submit_warnings: set[tuple[str, tuple[str, ...]]] = field(default_factory=set)
    # The address of the document the last browser action succeeded on (act/basic.browser): "something was done on
    # this page" holds though a script redrew what was used (a feed re-renders its posts after each click).
    acted_on: str | None = None
    order_warnings: set[tuple[str, int]] = field(default_factory=set)  # (element, part) refused out of order once
    results_per_page: int | None = None  # a results list's page size, read on a page before its last (nth_result)
    # The task's ordered parts, the done ones ticked (task_parts.py): a form serves one part, not the whole task.
    parts: TaskParts = field(default_factory=TaskParts)
    # This task's secret marker around page text in prompts (llm.prompts.untrusted): a page cannot close it.
    nonce: str = field(default_factory=new_nonce)
    # While execute() runs: the net change of all its refreshes (see net_change.py); None when not tracking.
    tracked_changes: PageUpdate | None = None
    tracking: bool = False
    # The net change execute() saw and nobody has been told of yet: folded into the next outside refresh(),
    # so a caller's refresh after an action reports what the action changed, not an empty diff.
    unreported_changes: PageUpdate | None = None
    entered_page_while_tracking: bool = False
    _last_refresh: float | None = None  # time.monotonic() when the previous refresh had its snapshot

    def __post_init__(self, pagemem: PageMem | None) -> None:
        if pagemem is not None:
            self.page.pagemem = pagemem
        if not self.parts.parts:
            self.parts = TaskParts.of(self.task)

    def __setattr__(self, name: str, value) -> None:
        # The user's task, their confirmation callback and the task's nonce are set once, at the start: nothing a
        # page shows or a model answers can replace them later (the allowed sites are act/sites.py's, by code).
        if name in _FIXED_FOR_THE_TASK and name in self.__dict__:
            raise AttributeError(f"AgentContext.{name} is fixed for the whole task")
        object.__setattr__(self, name, value)

    async def refresh(self) -> PageUpdate:
        """Snapshot the tab and bring the PageState up to date (DividePage on a new document, UpdatePageMem on
        the same one). Called from outside a workflow, the diff covers everything since the caller's previous
        refresh, including what execute() changed in between (its own refreshes are folded in)."""
        try:
            result = await self.session.snapshot_result(self.tab)
        except BridgeDisconnected:
            raise
        except BridgeError as exc:
            raise ActionFailed(f"could not read the page: {exc}") from exc
        snapshot = result.snapshot
        reloaded = self._navigated_since_last_refresh(result.tab_id)
        # Marked when the reply is in hand, not when it was asked for: the extension sends a tab event and
        # a snapshot reply over one ordered socket, so an event that arrives after this moment was sent
        # after the snapshot was taken. (Events can lag the page by a lot: the request time is no bound.)
        self._last_refresh = time.monotonic()
        update = self.page.see(snapshot, reloaded=reloaded)
        self.form_urls = form_targets(snapshot)
        self.page_facts = read_page_facts(snapshot, self.page.forms.owners)
        if self.page.new_document:
            self._entered(snapshot.url, update)
            return update
        from companion.act.net_change import merge_updates

        if self.tracking:
            self.tracked_changes = merge_updates(self.tracked_changes, update)
        elif self.unreported_changes is not None:
            update, self.unreported_changes = merge_updates(self.unreported_changes, update), None
        return update

    def _entered(self, url: str, update: PageUpdate) -> None:
        """A new document: what was learnt about the last one (typed, approved, revealed, tracked) no longer holds."""
        if self.store is not None:
            self.store.apply_cached(self.pagemem)
        self.view_all_active = False
        self.typed_secrets.clear()
        self.approved_origins.clear()
        self.menu_options.clear()
        if url not in self.visited_urls:
            self.visited_urls.append(url)
        if self.tracking:
            self.tracked_changes = update.model_copy(deep=True)  # a new document: the old diffs mean nothing
            self.entered_page_while_tracking = True
        self.unreported_changes = None

    def _navigated_since_last_refresh(self, tab_id: int) -> bool:
        """A navigation committed in this tab since the last snapshot: a new document even at the same URL
        (a reload, a form posting back to its own page). Element ids restart per document, so diffing it
        against the old PageMem would pair unrelated elements."""
        if self._last_refresh is None or self.pagemem is None:
            return False
        try:
            events = self.session.events(self._last_refresh)
        except AttributeError:
            return False
        return any(e.event == "navigated" and e.tab_id == tab_id and same_document_url(e.url, self.pagemem.url)
                   for e in events)

    async def refresh_tabs(self) -> list[TabInfo]:
        self.tabs = await self.session.list_tabs()
        return self.tabs

    @property
    def page_changed(self) -> bool:
        """Did the last refresh land on a different document than the PageMem it had?"""
        return self.page.new_document

    @property
    def forms(self) -> dict[Key, Key]:
        """From the last snapshot: the <form> of every element inside one (form membership)."""
        return self.page.forms.members

    @property
    def form_labels(self) -> dict[Key, str]:
        return self.page.forms.labels

    @property
    def url(self) -> str:
        return self.pagemem.url if self.pagemem is not None else ""

    @property
    def active_tab_id(self) -> int | None:
        if self.tab is not None:
            return self.tab
        return next((t.tab_id for t in self.tabs if t.active), None)


def _pagemem(self: AgentContext) -> PageMem | None:
    return self.page.pagemem


def _set_pagemem(self: AgentContext, pagemem: PageMem | None) -> None:
    self.page.pagemem = pagemem


# Set after the class: a property in the class body would be taken by @dataclass as the default of the `pagemem`
# InitVar. Reading and setting ctx.pagemem reads and sets the PageState's (act/routing.py sets it on a tab switch).
AgentContext.pagemem = property(_pagemem, _set_pagemem)  # type: ignore[assignment]
