"""The observation step: PageObserver.observe(task, history, pagemem, update) -> Observation.

On page entry (WebChallenger §2.4 + Region4Web §4.1):
    remembered dropdowns on their triggers' lines (dropdowns.py) -> CheckModal -> abstraction of the sections
    (cached) -> page summary (cached) -> section selection
    (skipped when a modal is open: the modal is the only relevant section) -> SelectListItems on selected
    lists (the rows the task names by a value they hold are picked by rule: rows.py) -> extraction per selected
    section (concurrent, cached; a section of a few lines is its own; a list's or table's rows the task names are
    its extraction, with their headers) -> page task summary (always).
On later steps of the same page (Region4Web §4.2): no selection call unless the page changed enough for its
answer to change (a section appeared, a selected section's content changed: reselect.py), and no abstraction call
but for a section whose structure changed a lot (UpdateSection's needs_summary: re-summarised, App. A.2) or one
that appeared; removed/modified elements are already in their sections, elements added since entry form a
separate group (offered as candidates: Observation.added), and only sections whose content changed are extracted again.
A page (or a step's selected sections) small enough to show whole (whole.py, Budget.whole_page_tokens) skips
the stages that only shorten it: no abstraction, selection or page summary at entry, no list-item selection,
extraction or task summary; the observation is the sections' own text. A small page (Budget.small_page_tokens,
the default) skips the same stages but the last: the page task summary reads the sections' own text.
`view_all()` shows every section in full for the rest of the page, an open modal's page behind it too. A modal
that a step's action left exactly as it was (a dismiss that did nothing) stops hiding the page: selection runs
over every section, the dialog among them (PageDigest.keeps_modal).
"""

from __future__ import annotations

import asyncio
import re

from pydantic import BaseModel, Field

from companion.memory.store import WebsiteMemStore
from companion.observe.abstraction import abstract_section, abstract_sections, describe_tiny, summarize_page
from companion.observe.budget import Budget, fit_history
from companion.observe.calls import Accounting, Caller, LLMLike
from companion.observe.dropdowns import show_known_dropdowns
from companion.observe.digest import ListSelection, PageDigest, render_added_group
from companion.observe.extraction import extract, format_details, is_own_extraction
from companion.observe.listitems import ListScan, one_line, select_list_items
from companion.observe.ranked import ranked_rows
from companion.observe.reselect import SelectionBasis, added_refs, reselect_reason
from companion.observe.rows import (
    absent_note, matched_rows, picked_rows_extraction, related_values, rows_extraction, rows_holding,
)
from companion.observe.selection import select_sections
from companion.observe.structure import controls_description, structural_kind
from companion.observe.task_summary import direct_summary, summarize_for_task
from companion.observe.whole import (ADDED_LABEL, as_observation, entry_line, fits_whole, for_history, small_entries,
                                     whole_text)
from companion.pagemem.model import Element, PageMem, PageSection
from companion.pagemem.tokens import count_tokens
from companion.pagemem.update import PageUpdate
from companion.protocol import ElementRef

WHOLE_HEADROOM = 40  # tokens the added group's labels may add to a page shown whole within the page
ADDED_INLINE_TOKENS = 600  # a larger added group is extracted like a section before the task summary
_DIALOG_LINE = re.compile(r"^\s*- (dialog|alertdialog)\b[^\n]*\[modal\]", re.M)  # render.node_line of a modal


class Observation(BaseModel):
    url: str
    page_title: str
    summary: str = Field(description="the page task summary: this step's observation (one paragraph)")
    selected: list[str] = Field(description="section ids chosen (or [modal id] when a modal is open)")
    unselected: list[str] = Field(description="the other top-level section ids, document order")
    extractions: dict[str, str] = Field(default_factory=dict, description="section id -> task-relevant details")
    added_group: str | None = Field(None, description="elements added since page entry, rendered as a group")
    added: dict[str, list[ElementRef]] = Field(default_factory=dict, description="section id -> its elements added "
                                               "since page entry (the added group's elements, offered as candidates)")
    modal: bool = False
    usage: Accounting = Field(default_factory=Accounting, description="per-call accounting of this step")
    # Beyond the contract's minimum:
    new_page: bool = Field(True, description="this step entered the page (selection ran or a modal was open)")
    view_all: bool = False
    page_summary: str | None = None
    purposes: dict[str, str] = Field(default_factory=dict, description="section id -> purpose, every top-level section")
    list_scans: dict[str, ListScan] = Field(default_factory=dict, description="list section id -> item selection done this step")
    by_rule: list[str] = Field(default_factory=list, description="extractions written by rule from the page (rows with "
                               "their headers, counts, absent codes): read text, as the page is, for the grounding check")
    list_items: dict[str, list[str]] = Field(default_factory=dict, description="selected list section id -> ids of its "
                                             "selected items (absent: every item is shown, e.g. under view_all)")
    named_rows: bool = Field(False, description="a row the task identifies by a value it holds (a number, code, email, "
                             "name; rows.py) is among this observation's rule-made extractions")
    related: list[str] = Field(default_factory=list, description="names, emails and codes such a row holds under a "
                               "column the task speaks of (rows.related_values: the order's customer), to search for")
    related_rows: bool = Field(False, description="a row holding one of the names such a row was seen to hold on an "
                               "earlier page (the order's customer, on the customer list), not the task's row itself, "
                               "is on a shown section (_leads_here)")
    whole: bool = Field(False, description="the summary is the shown sections' own text (small enough to show "
                                           "whole, whole.py): no extraction or task summary call was made")
    small: bool = Field(False, description="a small page (or selection): the sections' own text stood in for their "
                                           "extractions, and the page task summary was the only call (whole.py)")
    history_summary: str | None = Field(None, description="what the history keeps of this observation (None: the summary)")

    def section_elements(self, pagemem: PageMem, section_id: str) -> list[Element]:
        """The elements of a section as this observation shows it: for a list narrowed by SelectListItems,
        its own elements plus those of the selected items only (what candidate assembly should offer)."""
        section = pagemem.section(section_id)
        if section is None:
            return []
        chosen = self.list_items.get(section_id)
        if chosen is None:
            return list(section.all_elements())
        wanted = set(chosen)
        out = list(section.elements)
        for item in section.items:
            if item.id in wanted:
                out.extend(item.all_elements())
        return out


class PageObserver:
    """One per tab. Keeps the page-entry state (PageDigest) and the view_all flag between steps."""

    def __init__(self, store: WebsiteMemStore | None = None, *, client: LLMLike | None = None,
                 budget: Budget | None = None, page_summary: bool = True, max_selected: int | None = None) -> None:
        self.store = store
        self.client = client
        self.budget = budget or Budget()
        self.page_summary = page_summary
        self.max_selected = max_selected
        self.digest: PageDigest | None = None
        self._pagemem: PageMem | None = None
        self._summarized: dict[str, str] = {}  # section id -> content hash its summary was written for (this page)
        self._basis: SelectionBasis | None = None  # what this page's last section selection saw (reselect.py)
        self._entered_whole = False  # this page's selection is every section: it was small enough to show whole

    def view_all(self) -> None:
        """Show every section in full for the rest of this page (the fallback when selection missed)."""
        if self.digest is not None:
            self.digest.view_all = True

    def shows_whole(self, pagemem: PageMem) -> bool:
        """Is this page, as it is now, small enough to show whole (whole.py)? Asked by the continuation before it
        observes again, so a page that grew past the bound (a big menu opened) costs no pipeline calls mid-step."""
        return self._fits(pagemem, self.budget.whole_page_tokens)

    def is_small(self, pagemem: PageMem) -> bool:
        """Is this page, as it is now, a small page (Budget.small_page_tokens, whole.py)?"""
        return self._fits(pagemem, self.budget.small_page_tokens)

    @staticmethod
    def _fits(pagemem: PageMem, bound: int) -> bool:
        every = [s.id for s in pagemem.sections]
        text = whole_text(pagemem, every, {s.id: s.details for s in pagemem.sections}, None)
        # Headroom for what observing within the page adds (the added group's labels).
        return fits_whole(text, bound - WHOLE_HEADROOM)

    def forget_page(self) -> None:
        """Treat the next observation as a page entry (e.g. after a reload the caller knows about)."""
        self.digest = None
        self._pagemem = None
        self._basis = None

    def added_since_entry(self, pagemem: PageMem) -> dict[str, list[ElementRef]]:
        """Section id -> elements added since page entry, for a page refreshed after this step's observation
        (the continuation offers what the last action added)."""
        return added_refs(self.digest if pagemem is self._pagemem else None, pagemem)

    async def observe(self, task: str, history: str, pagemem: PageMem, update: PageUpdate | None = None, *,
                      related: list[str] | None = None) -> Observation:
        """`related`: names a row the task names was found to hold on an earlier page (the order's customer): an
        extraction's value tied to one of them is where the task's record leads (values.ValueCheck.related)."""
        accounting = Accounting()
        caller = Caller(self.client, self.budget, accounting)
        history = fit_history(history, self.budget.history_tokens)
        show_known_dropdowns(self.store, pagemem)  # remembered triggers name what they open (dropdowns.py)
        removed = len(update.removed_sections) if update is not None else 0
        new_page = (self.digest is None or pagemem is not self._pagemem
                    or not self.digest.same_page(pagemem, removed))
        if new_page:
            self.digest = PageDigest.enter(pagemem)
            self._pagemem = pagemem  # held, so identity means "the same PageMem" (ids of freed objects are reused)
            self._summarized = {sec.id: sec.content_hash for sec in pagemem.sections if sec.summary is not None}
            self._basis = None
            self._entered_whole = False
        digest = self.digest
        top = {s.id: s for s in pagemem.sections}
        digest.selected = [sid for sid in digest.selected if sid in top]
        # Within the page: each section's view (as at entry, with removals and modifications applied) and
        # what appeared in it since entry.
        splits = {} if new_page else {sec.id: digest.split(sec) for sec in pagemem.sections}
        if not new_page:
            await self._resummarize_changed(caller, pagemem)
        modal, modal_view = pagemem.modal(), None
        if modal is None:
            modal, modal_view = _dialog_that_appeared(pagemem, splits)
        if modal is not None and (digest.view_all or not digest.keeps_modal(modal, modal_view)):
            # view_all shows the whole page, and a dialog a step's action left as it was no longer hides it.
            modal = modal_view = None

        views, added_group = self._views(pagemem, new_page, modal, modal_view, splits)
        every = [sec.id for sec in pagemem.sections]
        limit, small = self.budget.whole_page_tokens, self.budget.small_page_tokens
        choose = new_page or not digest.selected or self._entered_whole
        if modal is not None:
            # CheckModal: the dialog is the only relevant section; the inert page behind it is not read.
            if modal_view is None and not fits_whole(whole_text(pagemem, [modal.id], views, added_group), limit):
                await abstract_section(caller, modal, pagemem, self.store, self.budget)
            selected = [modal.id]
        elif digest.view_all:
            selected = every
        elif choose and fits_whole(whole_text(pagemem, every, views, added_group), max(limit, small)):
            # Small enough to show whole (or a small page): every section is the selection, with no summary or
            # selection call.
            digest.selected, self._entered_whole = list(every), True
            selected = list(every)
        elif choose:
            self._entered_whole = False  # a page shown whole at entry that grew past the bound is selected from now
            await abstract_sections(caller, pagemem.sections, pagemem, self.store, self.budget)
            self._summarized = {sec.id: sec.content_hash for sec in pagemem.sections}
            steps = [select_sections(caller, self.budget, task, history, pagemem, pagemem.sections, self.max_selected)]
            if self.page_summary:
                steps.append(summarize_page(caller, pagemem, self.store, self.budget))
            digest.selected = (await asyncio.gather(*steps))[0]
            self._basis = SelectionBasis.of(digest, pagemem, digest.selected)
            selected = list(digest.selected)
        elif reselect_reason(self._basis, digest, pagemem) is not None:
            # The page changed enough within itself (a section appeared, a selected one's content changed): select
            # again over the sections as they are; only those never abstracted cost a summary call.
            fresh = [sec for sec in pagemem.sections if sec.summary is None]
            await abstract_sections(caller, fresh, pagemem, self.store, self.budget)
            self._summarized.update({sec.id: sec.content_hash for sec in fresh})
            digest.selected = await select_sections(caller, self.budget, task, history, pagemem, pagemem.sections,
                                                    self.max_selected)
            self._basis = SelectionBasis.of(digest, pagemem, digest.selected)
            selected = list(digest.selected)
        else:
            selected = list(digest.selected)

        for sid in selected:  # a section first seen inside the page (view_all) is labelled without a call
            sec = top[sid]
            if sec.purpose is None:
                sec.purpose = describe_tiny(sec)[0]

        def observation(summary: str, **extra) -> Observation:
            """This step's Observation: what every path fills the same way, and `extra` for the path's own fields."""
            shown = set(selected)
            return Observation(
                url=pagemem.url, page_title=pagemem.title, summary=summary, selected=selected,
                unselected=[s.id for s in pagemem.sections if s.id not in shown], added_group=added_group,
                added={} if new_page else added_refs(digest, pagemem), modal=modal is not None, usage=accounting,
                new_page=new_page, view_all=digest.view_all, page_summary=pagemem.summary,
                purposes={s.id: s.purpose or "" for s in pagemem.sections},
                related_rows=_leads_here(task, related or [], [top[sid] for sid in selected if sid in top]), **extra)

        shown_text = whole_text(pagemem, selected, views, added_group)
        if fits_whole(shown_text, limit):
            # The step's observation is small enough to show whole (lists with every item): no list-item
            # selection, extraction or task summary; after an in-page action it is rendered again for free.
            return observation(as_observation(pagemem, shown_text), whole=True, history_summary=for_history(shown_text))

        if fits_whole(shown_text, small):
            # A small page (or selection): its sections' own text stands in for their extractions, and the page
            # task summary, the one call kept, points the actor at what matters (whole.py).
            texts, entries = small_entries(pagemem, selected, views, added_group, task)
            ruled = self._rule_made(task, pagemem, list(texts), views, modal_view)
            kept = {sid: ruled.get(sid, text) for sid, text in texts.items() if ruled.get(sid, text)}
            if kept:  # a page of controls only keeps their own text: its summary says what it offers
                texts = kept
                entries = [entry_line(top[sid].purpose or top[sid].kind, text) for sid, text in texts.items()]
                if added_group:
                    entries.append(f"{ADDED_LABEL}\n{added_group}")
            if (kept and not added_group and all(sid in ruled for sid in kept)
                    and fits_whole("\n".join(entries), self.budget.direct_summary_tokens)):
                # Rows read by rule are the facts themselves: a summary could only restate them, or, as on a
                # held-out admin's search result, read "Daniel Ricci" off the order's row as the customer's email.
                summary = direct_summary(entries)
            else:
                summary = await summarize_for_task(caller, self.budget, task, history, pagemem, entries)
                summary = _with_named_rows(summary, task, {sid: ruled[sid] for sid in ruled if sid in texts}, top)
            rows = [text for sid, text in ruled.items() if sid in texts]
            return observation(summary, extractions=texts, small=True, by_rule=rows,
                               **_row_facts(task, [top[sid] for sid in ruled if sid in texts]))

        picked, scans = await self._select_items(caller, task, history, [top[sid] for sid in selected], digest)

        extract_ids = [sid for sid in selected if views.get(sid, top[sid].details).strip() or top[sid].kind == "list"]
        details = {sid: format_details(top[sid], views.get(sid), picked.get(sid)) for sid in extract_ids}
        # Rows the task names (an order number, an email) are their section's extraction, with their headers.
        as_rows = {sid: text for sid in extract_ids if modal_view is None or sid != modal.id
                   for text in [_rows_as_data(task, top[sid])] if text}
        # A section of controls only (a site's navigation, a list's filters, a search box) holds no fact to copy; a
        # pagination bar's are its counts. On the held-out admin the model, asked about the sidebar and the filter
        # panel, answered "the email address … is not provided" at ~450 new tokens each. Their elements are
        # offered as candidates all the same.
        # (The small page's idea, off with it: the paper's pipeline extracts every section.)
        def by_rule(sid: str) -> bool:  # the small page's idea for one section, seen whole (no modal view, no split)
            return (bool(self.budget.own_text_tokens) and sid not in as_rows and (modal_view is None or sid != modal.id)
                    and views.get(sid, top[sid].details) == top[sid].details)

        as_rows.update({sid: text for sid in extract_ids if by_rule(sid)
                        for text in [_controls_extraction(top[sid])] if text is not None})
        # A table's picked rows are its facts: shown with their headers, not paraphrased by an extraction call
        # (the model read one order's customer as another's email on the held-out admin).
        as_rows.update({sid: text for sid in extract_ids if sid in picked and by_rule(sid)
                        for text in [picked_rows_extraction(top[sid], [pos for pos, _ in picked[sid]])] if text})
        asked = [sid for sid in extract_ids if sid not in as_rows and not is_own_extraction(details[sid], self.budget)]
        extracting = asyncio.gather(*(
            extract(caller, self.budget, task, history, pagemem, top[sid], details[sid],
                    purpose="Dialog that opened on the page" if modal_view is not None and sid == modal.id else None,
                    related=related or [])
            for sid in asked))
        # The added group's entry (an extraction when it is large) does not wait for the sections' extractions.
        results, added_entry = await asyncio.gather(
            extracting, self._added_entry(caller, task, history, pagemem, added_group) if added_group else _nothing())
        # A section of a few lines is its own extraction (as on a small page): no call could shorten it.
        extractions = {sid: details[sid] for sid in extract_ids}
        extractions.update({sid: text for sid, (text, _) in zip(asked, results)})
        extractions.update(as_rows)

        entries = [entry_line(top[sid].purpose or top[sid].kind, extractions[sid]) for sid in extract_ids if extractions[sid]]
        if added_entry:
            entries.append(added_entry)
        if fits_whole("\n".join(entries), self.budget.direct_summary_tokens):
            summary = direct_summary(entries)
        else:
            summary = _with_named_rows(await summarize_for_task(caller, self.budget, task, history, pagemem, entries),
                                       task, as_rows, top)
        return observation(summary, extractions=extractions, list_scans=scans, by_rule=list(as_rows.values()),
                           **_row_facts(task, [top[sid] for sid in as_rows]),
                           list_items={sid: [it.id for _, it in pairs] for sid, pairs in picked.items()})

    # ------------------------------------------------------------------ helpers

    def _views(self, pagemem: PageMem, new_page: bool, modal: PageSection | None, modal_view: str | None,
               splits: dict[str, tuple[str, str]]) -> tuple[dict[str, str], str | None]:
        """Each section's view this step (within a page: without the elements added since entry) and the
        added group those elements form."""
        views: dict[str, str] = {}
        added_blocks: list[tuple[str, str]] = []
        for sec in pagemem.sections:
            if modal is not None and sec.id == modal.id:
                views[sec.id] = modal_view or sec.details  # the dialog is the focus, shown whole, not as "added"
                continue
            if new_page:
                views[sec.id] = sec.details
                continue
            view, moved = splits[sec.id]
            views[sec.id] = view
            if moved:
                where = "new region" if self.digest.is_new_section(sec) else (sec.purpose or sec.kind)
                added_blocks.append((where, moved))
        return views, render_added_group(added_blocks)

    def _rule_made(self, task: str, pagemem: PageMem, section_ids: list[str], views: dict[str, str],
                   modal_view: str | None) -> dict[str, str]:
        """A small page's extractions written by rule, for the sections seen whole: the rows the task names, with
        their headers (a small list's own outline puts the headers a screen away from the cells), and "" for a
        section of controls only (its elements are candidates; it holds no fact), a pagination bar's counts."""
        out: dict[str, str] = {}
        if not self.budget.own_text_tokens:  # the small page's idea is off: the paper's pipeline
            return out
        for sid in section_ids:
            sec = pagemem.section(sid)
            if sec is None or (modal_view is not None and sec.kind == "modal") or views.get(sid, sec.details) != sec.details:
                continue
            if matched_rows(task, sec) and (rows := _rows_as_data(task, sec)):
                out[sid] = rows
            elif (controls := _controls_extraction(sec)) is not None:
                out[sid] = controls
        return out

    async def _resummarize_changed(self, caller: Caller, pagemem: PageMem) -> None:
        """UpdateSection marks a section for re-summary when its structure changed a lot (>= 3 elements added
        or removed, a list rebuilt); within a page that mark is acted on here (Algorithm 2 (iii)), so the
        section's summary and state say what it shows now. A list is marked on every refresh: only one whose
        content really changed since its summary was written is asked about again."""
        changed = [sec for sec in pagemem.sections if sec.needs_summary and sec.summary is not None
                   and self._summarized.get(sec.id) not in (None, sec.content_hash)]
        if changed:
            await abstract_sections(caller, changed, pagemem, self.store, self.budget)
        for sec in pagemem.sections:
            if sec.summary is not None and not sec.needs_summary:
                self._summarized.setdefault(sec.id, sec.content_hash)
        for sec in changed:
            self._summarized[sec.id] = sec.content_hash

    async def _select_items(self, caller: Caller, task: str, history: str, sections: list[PageSection],
                            digest: PageDigest) -> tuple[dict[str, list[tuple[int, PageSection]]], dict[str, ListScan]]:
        """SelectListItems on the selected list sections; within a page an unchanged list keeps its picks.
        Returns the picked (position, item) pairs per list (absent: every item, under view_all) and the scans."""
        lists = [] if digest.view_all else [s for s in sections if s.kind == "list"]
        fresh = [s for s in lists if s.id not in digest.lists or digest.lists[s.id].content_hash != s.content_hash]
        # One list's scan does not depend on another's: they run together, through the server's slots.
        done = await asyncio.gather(*(_scan(caller, self.budget, task, history, s) for s in fresh))
        scans: dict[str, ListScan] = {}
        for s, scan in zip(fresh, done):
            digest.lists[s.id] = ListSelection(
                content_hash=s.content_hash,
                item_roots=[(s.items[i].roots[0].frame, s.items[i].roots[0].id) for i in scan.selected if s.items[i].roots])
            scans[s.id] = scan
        return {s.id: digest.lists[s.id].pick(s) for s in lists}, scans

    async def _added_entry(self, caller: Caller, task: str, history: str, pagemem: PageMem, group: str) -> str:
        """The added group as a summary entry: as it is when small, else through an extraction call."""
        label = "Newly appeared since the page was opened (an opened menu, list or dialog)"
        if count_tokens(group) <= ADDED_INLINE_TOKENS:
            return f"{label}:\n{group}"
        holder = PageSection(id="added", kind="normal", roots=[], tag="", details=group, purpose=label)
        text, _ = await extract(caller, self.budget, task, history, pagemem, holder, group)
        return f"{label}: {text}"


async def _scan(caller: Caller, budget: Budget, task: str, history: str, section: PageSection) -> ListScan:
    """SelectListItems, or with no call the rows the task names by a value they hold (rows.py)."""
    hits = matched_rows(task, section)
    if not hits and (ranked := ranked_rows(task, section)) is not None:
        hits = ranked.positions  # the rows a superlative picks by rule (ranked.py)
    n = len(section.items)
    if hits or absent_note(task, section):  # the rows the task names, or none when its code is on no row
        return ListScan(selected=hits, scanned=n, total=n, by_rule=True)
    if budget.own_text_tokens and (sum(count_tokens(one_line(it)) for it in section.items) <= budget.own_text_tokens
                                   or controls_description(section) is not None):
        # A few links (a sidebar), or a list of controls only (a filter panel's groups): the call's prompt is
        # several times the list, and it could only drop what the task needs (its items' elements are the
        # candidates, which the filtering call judges anyway). The held-out admin's list pages asked three
        # item-selection calls a step, two of them like this.
        return ListScan(selected=list(range(n)), scanned=n, total=n, whole=True)
    return await select_list_items(caller, budget, task, history, section)


def _rows_as_data(task: str, section: PageSection) -> str | None:
    """The rows the task names, with their headers, for a list or a table section. A table inside a mixed section
    (a list's bulk-action form around its table) gives the rows the task names when some do; otherwise it is left
    to the extraction call, which reads the rest of the section too. The held-out admin's product table sits in
    such a form, and the model, given all of it, said the Turntable's row was not there."""
    if section.kind != "list" and structural_kind(section) != "table":
        text = rows_extraction(task, section, named_only=True)
    else:
        text = rows_extraction(task, section)
    if text is None:  # a superlative the table answers by rule ("the highest price": ranked.py)
        ranked = ranked_rows(task, section)
        text = ranked.text if ranked is not None else None
    return text


def _with_named_rows(summary: str, task: str, ruled: dict[str, str], sections: dict[str, PageSection]) -> str:
    """A model's page task summary followed by the rows the task names, as read by rule, when it does not quote
    them. On the held-out admin the summary of order SO-1010's row ("Customer: Daniel Ricci | ...") was "the email
    address ... is not provided in the given information": the actor never saw the customer's name. The rows are
    the page's own text, with their headers; they follow the summary on its line (direct_summary)."""
    rows = [text for sid, text in ruled.items() if text not in summary and matched_rows(task, sections[sid])]
    return f"{summary} {direct_summary(rows)}" if rows else summary


def _leads_here(task: str, related: list[str], sections: list[PageSection]) -> bool:
    """A row holding a name the task's record was seen to hold (the order's customer), and not the task's record
    itself (the order's own row holds it too): the record the task leads to (Observation.related_rows)."""
    return bool(related) and any(set(rows_holding(sec, related)) - set(matched_rows(task, sec)) for sec in sections)


def _row_facts(task: str, ruled: list[PageSection]) -> dict:
    """What the sections read by rule say of the task's rows: whether a row the task names is among them, and the
    names such a row holds under a column the task speaks of (Observation.named_rows, Observation.related)."""
    return {"named_rows": any(matched_rows(task, sec) for sec in ruled),
            "related": list(dict.fromkeys(v for sec in ruled for v in related_values(task, sec)))}


def _controls_extraction(section: PageSection) -> str | None:
    """The extraction of a section of controls only, with no call (structure.py controls_description): a pagination
    bar's description ("pages 1–3, 60 orders"), nothing for the others. None for any other section and for one with
    a control in a state worth reading (an expanded menu button, a ticked box, a typed value)."""
    if any(el.expanded or el.checked or el.value for el in section.all_elements()):
        return None
    described = controls_description(section)
    if described is None:
        return None
    return described[1] if described[0] == "Pagination" else ""


async def _nothing() -> None:
    return None


def _dialog_that_appeared(pagemem: PageMem, splits: dict[str, tuple[str, str]]) -> tuple[PageSection | None, str | None]:
    """CheckModal for a dialog that opened inside a known section (UpdatePageMem keeps its elements in
    that section): the added block that renders a dialog becomes the focus."""
    for sec in pagemem.sections:
        moved = splits.get(sec.id, ("", ""))[1]
        if moved and _DIALOG_LINE.search(moved):
            return sec, moved
    return None, None
