"""GatherCandidates (WebChallenger §2.5 / A.4): the numbered action set the AGENT's action-selection call sees.

Element actions: a group per selected section, conditioned on its extraction, one of the elements added since
page entry in sections not selected (PageDigest's added group: a popover, toast or result list that appeared
late in the document is offered by its own elements), plus one of the first five unselected sections in document
order (so top-of-page UI stays reachable) and any search form further down; consecutive groups share a candidate_filtering call while their
candidates fit one (packed(): the paper's call per section, without a call per one-link section); none at all
when the step has FEW_CANDIDATES or fewer, and what the task names or the single form's controls are put back
after the calls (filter_guard.py). A small page (or one shown whole, observe/whole.py) has one call over all
its candidates, navigation included: per-section calls bought nothing there.
Navigation actions (visited URLs, bookmarks, switch-tab) are a last group, filtered against the task;
type-URL is always offered. A trigger whose menu site memory knows is followed by the menu's remembered
elements, each choosable directly (open, then pick: hidden_candidates). The rule pre-filter (prefilter.py) runs before any call. view_all (while not
active on this page) and end_task are appended last. The calls of one step run concurrently.
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections import Counter
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from companion import llm
from companion.act.basic import offered_options
from companion.act.context import AgentContext
from companion.act.elements import is_checkable, is_form_field, is_native_select, is_search_form
from companion.act.filter_guard import guard_kept
from companion.act.gestures import PageGestures, element_candidates, scroll_candidates, text_candidates
from companion.act.list_choices import (
    entry_name, named_list_choices, plain_element, unnamed_list_choices, with_facet_titles,
)
from companion.act.models import Candidate
from companion.act.prefilter import prefilter, usable_elements
from companion.act.premature import changes_site
from companion.act.routing import form_section_for
from companion.act.search_for import (
    page_controls, page_name, search_candidates, search_terms, searches_this_page, unseen_searches,
)
from companion.act.sites import policy_of, sites_named_in
from companion.llm.fit import declare_subset
from companion.memory.learn import known_dropdowns
from companion.memory.records import DropdownRecord
from companion.observe.rows import named_row_links
from companion.pagemem.model import Element, PageSection
from companion.pagemem.page_state import same_document_url
from companion.pagemem.widgets import is_submit_like
from companion.task_asks import asks_deletion, deletes, is_question

if TYPE_CHECKING:  # the OBSERVE engineer's model; only its contract fields are read here
    from companion.observe import Observation  # noqa: F401

log = logging.getLogger(__name__)

UNSELECTED_SECTIONS = 5
MAX_ELEMENTS_PER_CALL = 60  # a bigger section is asked about in chunks: the prompt stays small on CPU
declare_subset("candidate_filtering")
# No filtering call at all when the step offers this many candidates or fewer. The filter never saves prompt
# tokens: its prompt lists every candidate after the prefix the action choice shares with it (cached), so it costs
# the whole list once more, plus a generated index per kept candidate, to shorten the choice's list by what it
# drops. On the held-out admin (29 to 33 candidates a list page) it cost 580 to 780 new prompt tokens and 13 to 25 s
# a step, kept 18 of 31 or dropped the order's own row (put back by filter_guard), and in the recorded MiniWoB runs
# it kept one candidate of 13 to 37 most of the time. In the s47 and s48 admin runs (45 to 59 candidates a list
# page) 22 of 29 calls kept 85% or more of the list, at 1,000 to 1,600 new prompt tokens and 35 to 60 s each, and
# the choice then read the whole list anyway. It stays for lists longer than one choice reads well.
FEW_CANDIDATES = 60
NAV_LABEL_CHARS = 80
VIEW_ALL_LABEL = "view all sections of this page in full"
END_TASK_LABEL = "end the task (it is complete, or its answer is known)"
TYPE_URL_LABEL = "type a URL into the address bar"
SMALL_PAGE_CONTEXT = "every section of this small page, and the navigation actions (pages visited earlier, bookmarks, other tabs)"
ADDED_CONTEXT = "elements that appeared since the page was opened (an opened popover, menu, message or new results)"


_ELEMENT_INDEX = re.compile(r"^\[\d+\]\s*")


def element_candidate(el: Element, section_id: str) -> Candidate:
    """The element's line without its "[12]" index: the list the LLM chooses from is numbered itself, and
    "[0] [4] link ..." made the 1.5B model answer the element's number instead of the option's. A link in a
    column header says it reorders the table: named by the task's words ("Price", "Customer"), it drew the
    default model away from the row on the held-out admin, again and again."""
    label = _ELEMENT_INDEX.sub("", el.line())
    if el.column_header and el.role == "link":  # the model clicked "Price" twice for "the price of the Turntable"
        label += " (column header: reorders the table)"
    return Candidate(kind="element", label=label, element=el.ref, section_id=section_id)


MAX_HIDDEN_PER_TRIGGER = 12  # remembered menu entries offered per trigger


_TRIGGER_NAME = re.compile(r'^[a-z]+(?: [a-z]+)? "[^"]*"')


def hidden_candidates(trigger: Candidate, record: DropdownRecord, shown: set[str] | frozenset[str] = frozenset()) -> list[Candidate]:
    """The remembered elements behind a trigger as candidates of their own: choosing one opens the trigger and
    acts on the element found again by its stable key (dropdown_action(pick=...)). An entry offered as it is
    already (`shown`: labels of its section's candidates; a filter list the page shows open) is not repeated.
    The trigger is named by its role and name only: its options and state are on its own line."""
    named = _TRIGGER_NAME.match(trigger.label)
    of = named.group(0) if named else trigger.label
    out = []
    for e in record.elements[:MAX_HIDDEN_PER_TRIGGER]:
        entry = f'{e.role} "{e.name}"' if e.name else e.role
        if e.name and entry in shown:
            continue
        out.append(Candidate(kind="element", label=f"{entry} (in the menu of {of})", element=trigger.element, pick=e.key,
                             section_id=trigger.section_id))
    return out


def with_hidden(candidates: list[Candidate], known: dict[tuple[int, int], DropdownRecord],
                exclude: set[str] | frozenset[str] = frozenset()) -> list[Candidate]:
    """Each trigger candidate followed by its remembered hidden elements (known: learn.known_dropdowns)."""
    if not known:
        return candidates
    out: list[Candidate] = []
    shown = {c.label for c in candidates}
    for c in candidates:
        trigger = c.kind == "element" and c.element is not None and c.pick is None
        record = known.get((c.element.frame, c.element.id)) if trigger else None
        entries = max(record.revealed, len(record.elements)) if record is not None else 0
        if entries > MAX_HIDDEN_PER_TRIGGER:
            # The rest of a long remembered menu is not listed: say how many, and that opening it shows them all.
            out.append(c.model_copy(update={"label": f"{c.label} (opens a menu of {entries} entries, the "
                                                     f"first {MAX_HIDDEN_PER_TRIGGER} listed next: open it to choose from all)"}))
        else:
            out.append(c)
        if record is not None:
            out.extend(h for h in hidden_candidates(c, record, shown) if h.key not in exclude)
    return out


def remembered_dropdowns(ctx: AgentContext) -> dict[tuple[int, int], DropdownRecord]:
    if ctx.store is None or ctx.pagemem is None:
        return {}
    try:
        return known_dropdowns(ctx.store, ctx.pagemem)
    except Exception:  # memory is a cache: the step goes on without it
        log.exception("could not read the remembered dropdowns")
        return {}


def _distinct_labels(candidates: list[Candidate], pm) -> list[Candidate]:
    """Labels that occur more than once (three "Odd" buttons, two "Home" links) get what tells them apart: the
    text of each one's row or card (Element.context: `button "Odd" (for "3")`), else the section's purpose, else
    a position."""
    def relabel(group: list[Candidate], describe) -> None:
        for c in group:
            c.label = f"{c.label} {describe(c)}"

    def context(c: Candidate) -> str:
        el = pm.element_by_ref(c.element) if c.kind == "element" and c.element is not None and c.pick is None else None
        return el.context if el is not None else ""

    # Alike controls stay one group whatever their state: a box checked keeps its "(1 of 3)" rather than leaving the
    # group and renumbering the others ("(2 of 3)" becoming "(1 of 2)" under the model's eyes).
    counts = Counter(_stateless(c.label) for c in candidates)
    for label, n in counts.items():
        if n < 2:
            continue
        group = [c for c in candidates if _stateless(c.label) == label]
        contexts = [context(c) for c in group]
        purposes = [(pm.section(c.section_id).purpose if c.section_id and pm.section(c.section_id) else None) for c in group]
        if all(contexts) and len(set(contexts)) == len(contexts):
            relabel(group, lambda c, it=iter(contexts): f'(for "{next(it)}")')
        elif all(purposes) and len(set(purposes)) == len(purposes):
            relabel(group, lambda c, it=iter(purposes): f"(in {next(it)})")
        else:
            relabel(group, lambda c, it=iter(range(1, len(group) + 1)): f"({next(it)} of {len(group)})")
    return candidates


_STATE = re.compile(r" \[(?:checked|selected|expanded|collapsed)\]")


def _stateless(label: str) -> str:
    return _STATE.sub("", label)


def _title(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= NAV_LABEL_CHARS else text[: NAV_LABEL_CHARS - 1] + "…"


def navigation_candidates(ctx: AgentContext) -> list[Candidate]:
    """Visited URLs, bookmarks and other tabs (before filtering); type-URL is added separately."""
    out: list[Candidate] = []
    seen: set[str] = set()
    for url in ctx.visited_urls:
        if url not in seen:
            seen.add(url)
            out.append(Candidate(kind="navigate", label=f"go back to {url} (visited earlier)", url=url))
    for b in ctx.bookmarks:
        if b.url not in seen:
            seen.add(b.url)
            note = f" - {_title(b.note)}" if b.note else ""
            out.append(Candidate(kind="navigate", label=f"go to bookmark {b.url} ({_title(b.title)}){note}", url=b.url))
    if len(ctx.tabs) > 1:
        for t in ctx.tabs:
            out.append(Candidate(kind="switch_tab", label=f"switch to tab {t.tab_id}: {_title(t.title)} ({t.url})", tab_id=t.tab_id))
    return out


CONTEXT_CHARS = 300


def _section_context(section: PageSection, extraction: str) -> str:
    """What a pack says of a section: its purpose, and what the observation extracted from it. A section that is
    its own extraction (a banner, a breadcrumb: the small page's rule) is named only: its candidates are its
    content, and its outline repeated in every filtering call cost ~400 prompt tokens on the held-out admin."""
    about = section.purpose or section.summary or f"{section.kind} section {section.id}"
    if not extraction or extraction.strip() == section.details.strip():
        return about
    if len(extraction) > CONTEXT_CHARS:
        extraction = extraction[:CONTEXT_CHARS - 1].rstrip() + "…"
    return f"{about}. Details relevant to the task: {extraction}"


class Pack:
    """One candidate_filtering call's worth: consecutive groups (a section's candidates, the added elements, the
    sections near the top, the navigation actions) whose candidates fit one call together."""

    def __init__(self) -> None:
        self.contexts: list[str] = []
        self.candidates: list[Candidate] = []
        self.parts: list[int] = []  # the group (1-based, in self.contexts) of each candidate

    def add(self, context: str, candidates: list[Candidate]) -> None:
        self.contexts.append(context)
        self.candidates.extend(candidates)
        self.parts.extend([len(self.contexts)] * len(candidates))

    @property
    def context(self) -> str:
        if len(self.contexts) == 1:
            return self.contexts[0]
        parts = "\n".join(f"part {i}: {c}" for i, c in enumerate(self.contexts, 1))
        return f"{len(self.contexts)} parts of the page (each candidate says its part):\n{parts}"

    @property
    def labels(self) -> list[str]:
        if len(self.contexts) == 1:
            return [c.label for c in self.candidates]
        return [f"{c.label} (part {part})" for c, part in zip(self.candidates, self.parts)]


def packed(groups: list[tuple[str, list[Candidate]]], size: int = MAX_ELEMENTS_PER_CALL) -> list[Pack]:
    """The groups, in order, packed into as few calls as hold at most `size` candidates each (a group is never
    split: a bigger one was chunked before). A call per small section bought nothing: the Django admin's product
    list asked 13 calls of about 500 tokens, eight of them about one to four links, each repeating the task, the
    history and the observation (about 400 tokens), which is most of a step's time on a CPU."""
    packs: list[Pack] = []
    for context, candidates in groups:
        if not candidates:
            continue
        if not packs or len(packs[-1].candidates) + len(candidates) > size:
            packs.append(Pack())
        packs[-1].add(context, candidates)
    return packs


async def _filter(ctx: AgentContext, observation: str, pack: Pack) -> list[Candidate]:
    """One candidate_filtering call: the subset the LLM keeps, in the original order. The answer may keep every
    candidate it was shown (a pack holds at most MAX_ELEMENTS_PER_CALL): a list is never cut at a bound. A bound of
    12 with the rest asked again cost the Django admin's product list seven calls of about 1,000 prompt tokens per
    step (the 45-row table kept 12, 12, 12, 9), where one longer answer costs a few seconds of generation."""
    variables = {"task": ctx.task, "history": ctx.history_text(), "observation": observation, "context": pack.context,
                 "candidates": pack.labels}
    # The model kept answering garbage: keep what it was asked about rather than drop it unseen.
    reply = await llm.or_stand_in(llm.choose_many("candidate_filtering", variables, n=len(pack.candidates)), lambda: None,
                                  prompt="candidate_filtering", what="every candidate it was asked about")
    if reply is None:
        return list(pack.candidates)
    kept = set(reply.answer.indices)
    return [c for i, c in enumerate(pack.candidates) if i in kept]


def _hides_content(obs: Any, pm) -> bool:
    """Whether the observation left part of the page out, so that view_all would show something new. On a
    small page every section is selected and view_all is a no-op a small model still likes to pick (it cost
    a whole re-observation per step in the embedded smoke run)."""
    if getattr(obs, "view_all", False):
        return False
    if getattr(obs, "modal", False):
        return True  # the page behind the modal is hidden
    for sid in obs.unselected:
        section = pm.section(sid)
        if section is not None and (section.details.strip() or section.items):
            return True
    for sid, item_ids in (getattr(obs, "list_items", {}) or {}).items():
        section = pm.section(sid)
        if section is not None and len(item_ids) < len(section.items):
            return True
    return False


def _unique(candidates: list[Candidate]) -> list[Candidate]:
    seen: set[str] = set()
    out = []
    for c in candidates:
        if c.key not in seen:
            seen.add(c.key)
            out.append(c)
    return out


def _form_group(ctx: AgentContext, pm, el: Element) -> object | None:
    """The form an element's guard check groups it by (filter_guard.guard_kept): the <form> it belongs to (form
    membership, from the snapshot), else the form-like root of its section (DividePage)."""
    form = ctx.page.form_of(el.key)
    if form is not None:
        return ("form", form)
    section = pm.section_of(el.ref)
    if section is not None and section.form is not None:
        return ("form", (section.form.frame, section.form.id))
    return ("section", section.id) if section is not None and section.kind == "form" else None


def _added_elements(pm, obs: Any) -> list[tuple[PageSection, list[Element]]]:
    """(section, its elements added since page entry) from Observation.added, in document order, as they are now;
    a selected section offers its own already. The sections may be newer than the observation's lists (the
    continuation refreshes the page after an action), so they are looked up in the page, not in `unselected`."""
    added = getattr(obs, "added", None) or {}
    out = []
    for section in pm.sections:
        if section.id in added and section.id not in obs.selected:
            elements = [el for el in (pm.element_by_ref(ref) for ref in added[section.id]) if el is not None]
            if elements:
                out.append((section, elements))
    return out


def _chunks(items: list, size: int) -> list[list]:
    return [items[i:i + size] for i in range(0, len(items), size)] or [[]]


# Words that ask about an order of the list: only then can a column header's sort link help ("the cheapest").
_ORDERING = re.compile(
    r"\b(?:most|least|best|worst|top|bottom|first|last|recent|newest|oldest|latest|earliest|cheapest|dearest|"
    r"priciest|highest|lowest|largest|smallest|biggest|greatest|longest|shortest|maximum|minimum|max|min|"
    r"sort(?:ed|s)?|order(?:ed)? by|rank(?:ed|s)?|ascending|descending|alphabetical(?:ly)?)\b", re.I)


def sort_links_unasked(task: str, pm, offered: list[Candidate]) -> set[str]:
    """The keys of a table's sort links (a link in its column header) when the task asks nothing about an order:
    they reorder the rows and answer nothing. The default model clicked the header "Email" three times for "the
    email address of the customer who placed order SO-1010", and "Price" for a price, though each was offered as
    a link that reorders the table."""
    if _ORDERING.search(task):
        return set()
    return {c.key for c in offered if (el := plain_element(pm, c)) is not None and el.role == "link" and el.column_header}


# A control that adds or deletes a record ("Add product", "New issue", "Delete"): in a question it only leads away.
_ADDS_OR_DELETES = re.compile(r"^\W*(?:add|new|create|delete|remove)\b", re.I)
_ADD_OR_DELETE_WORDS = frozenset({"add", "new", "create", "delete", "remove"})


def record_edits_unasked(task: str, pm, offered: list[Candidate]) -> set[str]:
    """The keys of what deletes (a link, a button, a remembered menu entry: "Delete selected customers") in a task
    that asks for no deletion, and in a question that says none of their words, of the links and buttons that add
    a record too. A question is answered by reading: asked for a price, the default model opened "Add product" from
    the product list and then "Add" beside Groups, two steps on empty forms; asked for a customer's email on an
    order's page, the filtering call kept only "Delete". (A form that would change the site is
    one_per_changing_form's; an option of a form's select that deletes is basic.offered_options'.)"""
    out: set[str] = set()
    if is_question(task) and not _ADD_OR_DELETE_WORDS & set(re.findall(r"[a-z]+", task.lower())):
        out |= {c.key for c in offered if (el := plain_element(pm, c)) is not None and el.role in ("link", "button")
                and _ADDS_OR_DELETES.match(el.name or el.text or "")}
    if not asks_deletion(task):
        out |= {c.key for c in offered if c.kind == "element" and deletes(
            entry_name(c) or ((el.name or el.text or "") if (el := plain_element(pm, c)) is not None else ""))}
    return out


# A control of the session, the account or the page's look, not of the site's content ("Log out", "Change password",
# "View site", "Toggle theme"); and the task's words that could ask for one.
_SESSION = re.compile(r"\b(?:log\s?-?(?:out|off)|sign\s?-?(?:out|off)|change (?:your |my )?password|password change|"
                      r"(?:view|visit|back to|go to) (?:the )?site|(?:account|profile) settings|theme|dark mode|light mode)\b",
                      re.I)
_ASKS_SESSION = re.compile(r"\b(?:log|sign|password|site|account|profile|settings|theme|dark|light|mode)\b", re.I)


def session_controls_unasked(task: str, pm, offered: list[Candidate]) -> set[str]:
    """The keys of the links and buttons of the session, the account and the page's look when the task says nothing
    of them: no task about the site's content is done there (exploration keeps the same pages out of the bookmarks:
    memory/bookmarks.py). On the held-out admin, asked for a product's price, the default model took "Change
    password" and then "View site". Not "Log in" or "Register": a task may need them unsaid."""
    if _ASKS_SESSION.search(task):
        return set()
    return {c.key for c in offered if (el := plain_element(pm, c)) is not None and el.role in ("link", "button")
            and _SESSION.search(el.name or el.text or "")}


def one_link_per_target(elements: list[Element], page_url: str) -> list[Element]:
    """The elements without a link that goes to another page where the link just before it goes (a row's last name
    and first name both linking to the customer's page): one action, offered once. The held-out admin's customer
    list offered 40 such links for 20 rows in every filtering call. Links within this page ("#", a script's
    anchors) are each their own control."""
    out: list[Element] = []
    last: str | None = None
    for el in elements:
        if el.role == "link" and el.url and el.url.startswith(("http:", "https:")) and not same_document_url(el.url, page_url):
            if el.url == last:
                continue
            last = el.url
        out.append(el)
    return out


def named_row_leads(task: str, pm, offered: list[Candidate]) -> list[str]:
    """The keys of the links in the rows the task names (observe/rows.named_row_links), in page order: the way to
    the record itself. Asked to change Bruno Smith's city on the customer list showing his row, the filtering call
    kept only the bulk-action button and a search of the sidebar, and the model never opened his record."""
    wanted = {index for s in pm.sections for index in named_row_links(task, s)}
    return [c.key for c in offered if (el := plain_element(pm, c)) is not None and el.index in wanted]


_PLACEHOLDER = re.compile(r"^\W*$|^\W*(?:choose|select|pick)\b", re.I)  # "---------", "Choose an action"


def idle_forms(ctx: AgentContext, pm, offered: list[Candidate]) -> set[str]:
    """In an errand, the keys of the controls of a form that can do nothing the task asks: its one field a select
    whose options are all placeholders or deletions the task does not ask for (basic.offered_options), beside boxes
    to tick. The customer list's bulk-action form, left with "Delete selected customers" out of reach, was filled
    and sent three times for "Change the city of the customer Bruno Smith to Munich". (In a question a form that
    changes the site is one_per_changing_form's.)"""
    if is_question(ctx.task):
        return set()
    forms: dict[object, list[tuple[Candidate, Element]]] = {}
    for c in offered:
        el = plain_element(pm, c)
        form = ctx.page.form_of(el.key) if el is not None else None
        if form is not None:
            forms.setdefault(form, []).append((c, el))
    out: set[str] = set()
    for members in forms.values():
        fields = [el for _, el in members if is_form_field(el) and not is_checkable(el)]
        if (len(fields) == 1 and is_native_select(fields[0]) and fields[0].options
                and not [o for o in offered_options(ctx.task, fields[0].options) if not _PLACEHOLDER.match(o)]):
            out |= {c.key for c, el in members if is_form_field(el) or is_submit_like(el)}  # its links stay
    return out


def one_per_changing_form(ctx: AgentContext, pm, offered: list[Candidate]) -> dict[str, Candidate | None]:
    """In a question, a form that would change the site (premature.changes_site: POST, or a record's values) is
    offered by one control, its submit button (else its first field), saying so; its other controls are not offered.
    A question is answered by reading: on the held-out admin the product list's 20 bulk-action boxes filled a third of
    every filtering call, and the form they belong to was twice chosen and sent. Chosen, the control is refused
    once (check_reads_only), so a question that does need the form can still have it. Returns candidate key ->
    its replacement (None: not offered), for the candidates of such forms only."""
    members: dict[str, list[tuple[Candidate, Element]]] = {}
    sections: dict[str, PageSection] = {}
    for c in offered:
        el = pm.element_by_ref(c.element) if c.kind == "element" and c.element is not None else None
        form = form_section_for(ctx, el, pm.section_of(el.ref)) if el is not None else None
        if form is not None:
            members.setdefault(form[0].id, []).append((c, el))
            sections[form[0].id] = form[0]
    out: dict[str, Candidate | None] = {}
    for fid, controls in members.items():
        if changes_site(ctx, controls[0][1], sections[fid]) is None:
            continue
        keep = next((c for c, el in controls if is_submit_like(el, in_form=True)), controls[0][0])
        for c, _ in controls:
            out[c.key] = None
        out[keep.key] = keep.model_copy(update={
            "label": f"{keep.label} (sends a form of {len(controls)} controls that changes the site)"})
    return out


async def gather_candidates(ctx: AgentContext, obs: Any, *, exclude: set[str] | frozenset[str] = frozenset()) -> list[Candidate]:
    """The candidate set for one step (or one continuation). `obs` is a companion.observe.Observation:
    its `selected`, `unselected`, `extractions` and `summary` are read. `exclude` holds Candidate.key
    values to leave out (candidates that failed earlier in this step)."""
    pm = ctx.pagemem
    if pm is None:
        await ctx.refresh()
        pm = ctx.pagemem
    assert pm is not None
    url = pm.url
    observation = getattr(obs, "summary", "") or ctx.observation
    ctx.observation = observation
    sites = policy_of(ctx)

    known = remembered_dropdowns(ctx)
    gestures = PageGestures(ctx.task, pm, ctx.page.snapshot)
    # The names the task's row holds (the order's customer) are searched for on other lists than the one they were
    # read on: the default model, offered 'search Orders for "Daniel Ricci"' beside SO-1010's row, took it twice.
    related = [] if urlsplit(url).path in ctx.related_found_on else ctx.related_terms
    terms = search_terms(ctx.task, page_controls(pm), related)
    name = page_name(pm) if terms else None

    def list_name(el: Element) -> str | None:
        form = ctx.page.form_of(el.key) if name else None
        return name if form is not None and searches_this_page(ctx.page.forms.targets.get(form, ""), url) else None

    def usable(section: PageSection, elements: list[Element] | None = None) -> list[Candidate]:
        # A slider or a draggable element is offered as its gesture (act/gestures.py), anything else as itself;
        # a search box also with what the task identifies its row by (act/search_for.py).
        elements = one_link_per_target(list(section.all_elements()) if elements is None else elements, url)
        offered = [c for e in usable_elements(elements, url, sites)
                   for c in [*element_candidates(ctx.task, e, section.id, gestures, element_candidate),
                             *search_candidates(terms, e, section, list_name(e))]]
        return with_hidden([c for c in offered if c.key not in exclude], known, exclude)

    def shown(section: PageSection) -> list[Element] | None:
        # A list narrowed by SelectListItems offers only its selected items (the observation knows which).
        narrow = getattr(obs, "section_elements", None)
        return narrow(pm, section.id) if callable(narrow) else None

    groups: list[tuple[str, list[Candidate]]] = []  # (where from, candidates), packed into calls (packed())
    selected = [s for s in (pm.section(sid) for sid in obs.selected) if s is not None]
    for section in selected:
        extraction = (getattr(obs, "extractions", {}) or {}).get(section.id, "")
        for chunk in _chunks(usable(section, shown(section)), MAX_ELEMENTS_PER_CALL):
            groups.append((_section_context(section, extraction), chunk))
    # With a modal open the page behind it is inert: only the modal's elements are offered.
    modal = getattr(obs, "modal", False)
    behind = [] if modal else obs.unselected
    late = [c for section, elements in ([] if modal else _added_elements(pm, obs)) for c in usable(section, elements)]
    if late:
        groups.extend((ADDED_CONTEXT, chunk) for chunk in _chunks(late, MAX_ELEMENTS_PER_CALL))
    rest: list[Candidate] = []
    taken = 0
    for sid in behind:
        section = pm.section(sid)
        if section is None or section.id in obs.selected:
            continue
        if taken < UNSELECTED_SECTIONS:
            elements = usable(section)
            if elements:
                rest.extend(elements)
                taken += 1
        elif is_search_form(section):
            # A search form further down is offered too: the page's way to what it does not show. On the held-out
            # admin's product list the header, breadcrumbs and sidebar took the places before the list's own search
            # box, and the default model, asked for a product not on the list's first page, followed a year link.
            rest.extend(usable(section))
    # One call over these sections, as in the paper; a pool too long for one call is asked about in chunks,
    # so a long list among them is not cut to its first elements.
    groups.extend(("other sections near the top of the page (navigation bars, search boxes, main buttons)", chunk)
                  for chunk in _chunks(rest, MAX_ELEMENTS_PER_CALL))
    nav = prefilter(navigation_candidates(ctx), pm, page_url=url, active_tab=ctx.active_tab_id, sites=sites)
    nav = [c for c in nav if c.key not in exclude]
    groups.append(("navigation actions (pages visited earlier, bookmarks, other tabs)", nav))
    offered = _unique([c for _, group in groups for c in group])
    unnamed = (unnamed_list_choices(ctx.task, pm, offered) | sort_links_unasked(ctx.task, pm, offered)
               | record_edits_unasked(ctx.task, pm, offered) | session_controls_unasked(ctx.task, pm, offered)
               | idle_forms(ctx, pm, offered))
    if unnamed:
        offered, groups = [c for c in offered if c.key not in unnamed], [
            (context, [c for c in group if c.key not in unnamed]) for context, group in groups]
    if is_question(ctx.task):
        collapsed = one_per_changing_form(ctx, pm, offered)
        if collapsed:
            def swap(cs: list[Candidate]) -> list[Candidate]:
                return [x for x in (collapsed.get(c.key, c) for c in cs) if x is not None]
            offered, groups = swap(offered), [(context, swap(group)) for context, group in groups]
    if getattr(obs, "small", False) or getattr(obs, "whole", False):
        # A small page: its candidates are few enough for one call, which the observation (the whole page, or its
        # task summary over the whole page) explains; a call per section bought nothing (8 calls on a 25-element page).
        groups = [(SMALL_PAGE_CONTEXT, chunk) for chunk in _chunks(offered, MAX_ELEMENTS_PER_CALL)]
    unseen = unseen_searches(offered, pm, lambda el: ctx.page.form_of(el.key) is not None)
    if len(offered) <= FEW_CANDIDATES:
        kept = {c.key for c in offered}  # nothing to narrow: the call could only drop what the task needs
    else:
        results = await asyncio.gather(*(_filter(ctx, observation, pack) for pack in packed(groups)))
        kept = guard_kept(ctx.task, offered, {c.key for group in results for c in group},
                          lambda c: pm.element_by_ref(c.element) if c.element is not None else None,
                          lambda el: _form_group(ctx, pm, el), list(pm.all_elements()))
    # The direct ways to the rows the task is about come first, past the filtering call: a search for what the page
    # shows nowhere, then the list's choices the question names. The default model, offered the search in the middle
    # of 29 actions, took the sidebar's "Customers" for "the customer who placed order SO-1010" instead; the
    # filtering call kept "By joined on" alone of a customer list's facets for "How many customers are inactive?".
    leads = [*unseen, *named_list_choices(ctx.task, pm, offered), *named_row_leads(ctx.task, pm, offered)]
    kept |= set(leads)
    rank = {key: i for i, key in enumerate(leads)}
    out = sorted((c for c in offered if c.key in kept), key=lambda c: rank.get(c.key, len(rank)))
    # The nav group is the last result; text to select (a task asking for it) and type-URL follow. A URL is typed
    # only for a task that writes a web address: a person types an address they know, and the default model, offered
    # the address bar everywhere, chose it on pages with no address to go to and invented one (19 of 23 typed URLs
    # in the recorded admin and MiniWoB runs were example.com's or made-up paths), two calls each time.
    fixed = [*text_candidates(ctx.task, ctx.page.snapshot), *scroll_candidates(ctx.task, ctx.page.snapshot)]
    if sites_named_in(ctx.task):
        fixed.append(Candidate(kind="type_url", label=TYPE_URL_LABEL))
    if not ctx.view_all_active and _hides_content(obs, pm):
        fixed.append(Candidate(kind="view_all", label=VIEW_ALL_LABEL))
    fixed.append(Candidate(kind="end_task", label=END_TASK_LABEL))
    out.extend(c for c in fixed if c.key not in exclude)
    # A last rule pass: the LLM's picks can never re-introduce a no-op.
    return _distinct_labels(with_facet_titles(pm, prefilter(out, pm, page_url=url, active_tab=ctx.active_tab_id,
                                                            sites=sites)), pm)


__all__ = ["gather_candidates", "navigation_candidates", "element_candidate", "VIEW_ALL_LABEL", "END_TASK_LABEL", "TYPE_URL_LABEL"]
