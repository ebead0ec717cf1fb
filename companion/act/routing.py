"""ExecuteAction and ElementAction (App. A.4/A.5): send a chosen candidate to the workflow its type needs.

execute(): navigate / type_url / switch_tab are navigation; an element inside a form section goes to
SubmitForm (the search workflow for a search-only form; links and buttons that are not the form's own
fields or submit button are ordinary elements); anything else goes to element_action(), the paper's flat
decision tree: behaviour known from memory (dropdown) -> input-type handlers -> "probably opens
something" (aria-haspopup/expanded, or never explored) -> plain click.

SubmitForm fills each chosen field through element_action() too (Algorithm 9), with the form given
(FormField): a custom combobox is opened and an option picked, an autocomplete field typed into and a
suggestion picked, a <select> gets SelectOption, a file input UploadFile. What to type comes from the
form's prompt (field_value: the form's purpose, why a previous value was rejected); a search box inside a
form is not searched with Enter, which would submit the form before its other fields are filled.
"""

from __future__ import annotations

import logging
import re
from typing import Literal

from companion.act import action_strings as say
from companion.act.basic import (
    browser, click_element, copy_to_clipboard, enter_input, select_option, set_checked, set_option, settle,
    text_value, type_text, upload_file, value_by_rule, without_own_label,
)
from companion.act.context import AgentContext, same_document_url
from companion.act.date_picker import is_date_picker, pick_date
from companion.act.dropdown import dropdown_action, known_dropdown, remember_navigation
from companion.act.elements import (
    declares_suggestions, field_description, label, is_checkable, is_copy_button, is_empty, is_file_input,
    is_form_field, is_native_select, is_search_field, is_search_form, probably_opens_something,
)
from companion.act.errors import ActionFailed, NoOp
from companion.act.form import form_fields, submit_form
from companion.act.gestures import GESTURE_KINDS, perform as perform_gesture
from companion.act.models import Candidate, FormField, Outcome
from companion.act.named_fields import alike_left, alike_wanted, fields_in_scope, named_boxes_left, named_options_left
from companion.act.sites import check_navigation, element_target, parse_url
from companion.act.premature import check_premature, check_reads_only
from companion.act.search import search
from companion.act.similar_choices import similar_boxes, similar_words
from companion.bridge.errors import BridgeDisconnected, BridgeError
from companion.pagemem.identity import element_key
from companion.pagemem.model import Element, PageSection
from companion.pagemem.widgets import is_submit_like, is_text_field
from companion.protocol import ElementRef
from companion.task_asks import requested_actions

log = logging.getLogger(__name__)


def _explored(ctx: AgentContext) -> set[str] | None:
    if ctx.store is None:
        return None
    try:
        return ctx.store.explored()
    except Exception:
        log.exception("could not read the explored set")
        return None


async def _done(ctx: AgentContext, actions: list[str], url_changed: bool = False) -> Outcome:
    pm = ctx.pagemem
    modal_before = pm is not None and pm.modal() is not None
    await settle(ctx)
    opened = not modal_before and ctx.pagemem is not None and ctx.pagemem.modal() is not None
    return Outcome(actions=actions, url_changed=url_changed or ctx.page_changed, modal_opened=opened)


Route = Literal["dropdown", "upload", "select", "date", "search", "autocomplete", "input", "check", "copy", "click"]


def is_autocomplete_field(el: Element) -> bool:
    """A text field whose value is chosen from suggestions it shows (a city, an airport): a text combobox,
    or a field that says it completes from a list (declares_suggestions), or a one-line field that turns the
    browser's own completion off, as script suggestion widgets do so that their list is the only one (jQuery UI's
    autocomplete says nothing else: the default model's typed airports were never picked from their list, and the
    flight search refused them). For that last kind a suggestion is picked only when one holds what was typed."""
    return is_text_field(el) and not el.is_password and (
        declares_suggestions(el) or (el.tag == "input" and el.attrs.get("autocomplete", "").strip().lower() == "off"))


def element_route(ctx: AgentContext, el: Element, section: PageSection | None = None, *, in_form: bool = False) -> Route:
    """The paper's flat decision tree, as a pure choice: memory first, then the input type, then
    "probably opens something", then a plain click. in_form: the element is a field SubmitForm is filling."""
    if known_dropdown(ctx, el) and not is_form_field(el):
        return "dropdown"
    if is_file_input(el):
        return "upload"
    if is_native_select(el):
        return "select"
    if is_date_picker(el, ctx.task):  # a read-only date field: its date is chosen on the calendar it opens
        return "date"
    if is_search_field(el, section):
        # Enter in one field of a form submits the whole form: there, suggestions are picked but Enter is not pressed.
        return "autocomplete" if in_form else "search"
    if is_text_field(el):
        return "autocomplete" if is_autocomplete_field(el) else "input"
    if is_checkable(el):
        return "check"
    if el.role == "combobox":  # a custom (non-native) select: open it and choose among what it reveals
        return "dropdown"
    if is_copy_button(el):
        return "copy"
    if probably_opens_something(el, _explored(ctx), element_key(ctx.pagemem, el) if ctx.pagemem is not None else None):
        return "dropdown"
    return "click"


async def field_value(ctx: AgentContext, el: Element, form: FormField) -> str:
    """What to type into a form's field, asked with the form's purpose and any rejection (prompts/field_value.j2)."""
    return await text_value("field_value", {"task": ctx.task, "history": ctx.history_text(), "form_purpose": form.purpose,
                                            "field": field_description(el, ctx.typed_secrets), "problem": form.problem,
                                            "others": form.others})


async def element_action(ctx: AgentContext, el: Element, section: PageSection | None = None, *,
                         form: FormField | None = None) -> Outcome:
    """ElementAction: carry out `el` as its type requires. form: `el` is a field SubmitForm is filling."""
    route = element_route(ctx, el, section, in_form=form is not None)
    if route == "dropdown":
        outcome = await dropdown_action(ctx, el, fill=element_action)
        if not outcome.url_changed and form is None:  # a control that revealed nothing may be one of alike ones
            outcome.actions += await _use_alike(ctx, el)
        return outcome
    if route == "upload":
        return await _done(ctx, await upload_file(ctx, el))
    if route == "select":
        if named := named_options_left(ctx.task, el):  # a list keeping several: each option the task names, no call
            return await _done(ctx, [await set_option(ctx, el, option) for option in named])
        return await _done(ctx, [await select_option(ctx, el, field_hint=form.problem if form else "")])
    if route == "date":
        return await _done(ctx, await pick_date(ctx, el))
    if route == "search":
        return await search(ctx, el)
    if route == "autocomplete":
        return await search(ctx, el, press=False, value=await field_value(ctx, el, form) if form else None)
    if route == "input":
        if form is not None:
            # The task's quoted value next to this field's words is its value (named_fields.py), unless the page
            # rejected what was typed: then the model reads why.
            value = (None if form.problem else value_by_rule(ctx, el)) or without_own_label(await field_value(ctx, el, form), el)
            if not value.strip() and not is_empty(el, ctx.typed_secrets):
                return await _done(ctx, [])  # nothing to type: the value the field holds stays (typing "" clears it)
            return await _done(ctx, [await type_text(ctx, el, value)])
        if (asked := set(requested_actions(ctx.task))) and asked <= {"click", "focus"}:
            # The task asks only to click or focus ('Click on a "textarea" widget'): the default model typed the
            # quoted word into the text area, then ticked a checkbox. A click focuses the field and types nothing.
            text, result = await click_element(ctx, el)
            return await _done(ctx, [text], result.url_changed)
        return await _done(ctx, [await enter_input(ctx, el)])
    if route == "check":
        # Re-filled after a rejection: a required box must end up checked, not toggled back off.
        done = [await set_checked(ctx, el, True if form is not None and form.problem else None)]
        if form is None and ctx.pagemem is not None:  # SubmitForm chooses a form's fields itself
            done += await _tick_named_boxes(ctx, el, section)
        return await _done(ctx, done)
    if route == "copy":
        text, result = await copy_to_clipboard(ctx, el)
        return await _done(ctx, [text], result.url_changed)
    page = ctx.pagemem
    text, result = await click_element(ctx, el)
    outcome = await _done(ctx, [text], result.url_changed)
    remember_navigation(ctx, page, el)  # a link between the two pages, for bookmarks (memory/learn.py)
    if not outcome.url_changed and form is None:
        outcome.actions += await _use_alike(ctx, el)
    return outcome


async def _use_alike(ctx: AgentContext, el: Element) -> list[str]:
    """Use the same control on the task's other items along with the one just used (named_fields.alike_left: "on
    all posts by @tora"), one at a time: a feed re-renders after each, so each is looked up again. A failed click or
    a new document stops the run; what was done stays reported."""
    done: list[str] = []
    used: set[str] = {el.context}
    for _ in range(alike_wanted(ctx.task)):
        left = [e for e in alike_left(ctx.task, el, list(ctx.pagemem.all_elements()) if ctx.pagemem else [])
                if e.context not in used]
        if not left:
            break
        used.add(left[0].context)
        try:
            text, result = await click_element(ctx, left[0])
        except ActionFailed as exc:
            log.info("using %s on another item failed: %s", label(left[0]), exc)
            break
        done.append(text)
        await settle(ctx)
        if result.url_changed or ctx.page_changed:
            break
    return done


async def _tick_named_boxes(ctx: AgentContext, el: Element, section: PageSection | None) -> list[str]:
    """Tick the other boxes the task names along with the one just ticked (named_fields.named_boxes_left), or, for a
    task asking boxes similar to its words, the box each word goes with (act/similar_choices.py), as one action; a
    box that fails stops the run, and what was ticked stays reported."""
    done: list[str] = []
    fields = fields_in_scope(ctx.pagemem, section)
    others = named_boxes_left(ctx.task, el, fields)
    if not others and el.checked and similar_words(ctx.task):
        others = [b for b in await similar_boxes(ctx, fields) if b is not el and not b.checked]
    for other in others:
        try:
            done.append(await set_checked(ctx, other, True))
        except ActionFailed as exc:
            log.info("ticking %s with the others failed: %s", label(other), exc)
            break
    return done


def form_section_for(ctx: AgentContext, el: Element, section: PageSection | None) -> tuple[PageSection, bool] | None:
    """The form the element is a field or submit button of, as (section, detached): every element of its
    <form> (from the snapshot, whatever the sectioning), else its section when that is a form section."""
    if not (is_form_field(el) or is_submit_like(el, in_form=ctx.forms.get(el.key) is not None)):
        return None  # a link or plain button inside a form is an ordinary element
    pm = ctx.pagemem
    form = ctx.forms.get(el.key)
    if form is not None and pm is not None:
        members = [e for e in pm.all_elements() if ctx.forms.get(e.key) == form]
        about = ctx.form_labels.get(form) or (section.purpose if section is not None and section.purpose else "")
        detached = PageSection(id=f"form-{form[0]}-{form[1]}", kind="form", roots=[ElementRef(frame=form[0], id=form[1])],
                               tag="form", elements=members, purpose=about or None)
        return detached, True
    if section is not None and (section.kind == "form" or section.form is not None):
        return section, False
    return None


async def _navigate(ctx: AgentContext, url: str) -> Outcome:
    # Only web URLs of the task's sites (act/sites.py): a file:, chrome: or javascript: URL chosen by the
    # model (or injected by a page) could read local files or run script. The browser is sent the URL as
    # the policy read it, so what was checked is what is opened.
    url = await check_navigation(ctx, url, f"going to {url}")
    result = await browser(ctx, ctx.session.navigate(url, tab=ctx.tab), f"navigating to {url}")
    return await _done(ctx, [say.navigated(result.url_after or url)], True)


async def _type_url(ctx: AgentContext) -> Outcome:
    field = "the browser's address bar: a full URL starting with http:// or https://"
    url = (await text_value("input_value", {"task": ctx.task, "history": ctx.history_text(),
                                            "observation": ctx.observation, "field": field})).strip()
    parsed = parse_url(url)
    if parsed is None or not parsed.hostname:
        raise ActionFailed(f"{url!r} is not a full URL: type one starting with http:// or https://")
    host = parsed.hostname
    if host not in known_hosts(ctx):
        # Small models invent plausible sites ("www.kettle-shop.com"); a typed URL must lead somewhere the
        # task named or the agent has been.
        raise ActionFailed(f"{host} is neither named in the task nor a site visited in it; type a URL only for such a site")
    if ctx.pagemem is not None and same_document_url(url, ctx.pagemem.url):
        # A reload shows what is on the page already and loses what the agent did to it (a MiniWoB episode
        # restarts): the default model typed the current page's URL on three steps of one task.
        raise NoOp("it is the current page's URL: reloading it shows nothing new and undoes what was done on the page",
                   say.navigated(url))
    return await _navigate(ctx, url)


def known_hosts(ctx: AgentContext) -> set[str]:
    """Hosts a typed URL may lead to: the current page's, visited pages', bookmarks', and any named in the task."""
    urls = [*ctx.visited_urls, *(b.url for b in ctx.bookmarks)]
    if ctx.pagemem is not None:
        urls.append(ctx.pagemem.url)
    hosts = {parsed.hostname for parsed in map(parse_url, urls) if parsed is not None}
    task = ctx.task.lower()
    named = set(re.findall(r"localhost|[a-z0-9-]+(?:\.[a-z0-9-]+)+", task))
    return {h for h in hosts | named if h} | {h.removeprefix("www.") for h in hosts | named if h} | {"www." + h for h in named}


async def _switch_tab(ctx: AgentContext, tab_id: int) -> Outcome:
    tab = next((t for t in ctx.tabs if t.tab_id == tab_id), None)
    if tab is None:
        tabs = await ctx.refresh_tabs()
        tab = next((t for t in tabs if t.tab_id == tab_id), None)
        if tab is None:
            raise ActionFailed(f"tab {tab_id} is closed")
    # Working in another tab is going to its page.
    await check_navigation(ctx, tab.url, f"switching to tab {tab_id}")
    # Every request names its tab: switching is addressing another tab from now on.
    previous = (ctx.tab, ctx.pagemem)
    ctx.tab, ctx.pagemem = tab_id, None
    try:
        await ctx.refresh()
        # The user watches their own browser: show the tab the agent now works in (after it was read, so a
        # tab that cannot be read leaves the browser showing what it showed).
        await ctx.session.activate_tab(tab_id)
    except BridgeError as exc:
        ctx.tab, ctx.pagemem = previous  # stay where we were
        if isinstance(exc, BridgeDisconnected):
            raise
        raise ActionFailed(f"showing tab {tab_id} failed: {exc}") from exc
    except BaseException:
        ctx.tab, ctx.pagemem = previous
        raise
    for t in ctx.tabs:
        t.active = t.tab_id == tab_id
    return Outcome(actions=[say.switched_tab(tab_id, tab.title, tab.url)], url_changed=True)


async def check_element_target(ctx: AgentContext, el: Element, submits: bool) -> None:
    """Before a link is followed or a form submitted: where it goes must be one of the task's sites (or the
    user says yes). A form goes where its submit button's formaction, else its action, says."""
    target, truncated = element_target(el, ctx.url)
    what = f"the link {label(el)}"
    if submits:
        form = ctx.forms.get(el.key)
        own = ctx.form_urls.get(el.key)
        if own is None and form is not None:
            own = ctx.form_urls.get(form)
        if own is not None:
            (target, truncated), what = own, f"the form of {label(el)}"
    if target is None:
        return
    await check_navigation(ctx, target, what, truncated=truncated)


async def execute(ctx: AgentContext, candidate: Candidate, reason: str = "") -> Outcome:
    """Carry out one chosen candidate. Returns its basic action strings, whether the URL changed or a modal
    opened, and the net page change (Outcome.changes; the PageMem is already refreshed, and the caller's next
    ctx.refresh() reports the same change folded with anything newer). Raises ActionFailed when it could not be done (the AGENT removes the candidate and
    asks again). `reason` is the selection's reason (for logs; workflows read task and history from ctx)."""
    from companion.act.net_change import merge_updates

    ctx.tracking, ctx.tracked_changes, ctx.entered_page_while_tracking = True, None, False
    try:
        outcome = await _execute(ctx, candidate, reason)
    finally:
        ctx.tracking = False
        # Even a failed compound action may have changed the page: the caller's next refresh reports it.
        # A new document needs no report: the caller sees a new PageMem, whose every element is new.
        if ctx.entered_page_while_tracking:
            ctx.unreported_changes = None
        elif ctx.tracked_changes is not None:
            ctx.unreported_changes = (ctx.tracked_changes if ctx.unreported_changes is None
                                      else merge_updates(ctx.unreported_changes, ctx.tracked_changes))
        changes, ctx.tracked_changes = ctx.tracked_changes, None
    outcome.changes = changes
    return outcome


async def _execute(ctx: AgentContext, candidate: Candidate, reason: str) -> Outcome:
    log.info("execute %s (%s)", candidate.label, reason[:120])
    if candidate.kind == "navigate":
        if not candidate.url:
            raise ActionFailed("navigation candidate without a URL")
        return await _navigate(ctx, candidate.url)
    if candidate.kind == "type_url":
        return await _type_url(ctx)
    if candidate.kind == "switch_tab":
        if candidate.tab_id is None:
            raise ActionFailed("switch-tab candidate without a tab")
        return await _switch_tab(ctx, candidate.tab_id)
    if candidate.kind in GESTURE_KINDS:
        return await _done(ctx, [await perform_gesture(ctx, candidate)])
    if candidate.kind != "element":
        raise ValueError(f"{candidate.kind} is handled by the agent loop, not by execute()")
    if candidate.element is None or ctx.pagemem is None:
        raise ActionFailed("element candidate without an element")
    el = ctx.pagemem.element_by_ref(candidate.element)
    if el is None:
        raise ActionFailed(f"{candidate.label} is no longer on the page")
    section = ctx.pagemem.section(candidate.section_id) if candidate.section_id else None
    section = section or ctx.pagemem.section_of(el.ref)
    form = form_section_for(ctx, el, section)
    await check_element_target(ctx, el, form is not None)
    if candidate.pick is not None:  # a remembered menu entry: open its trigger, then act on the entry
        return await dropdown_action(ctx, el, pick=candidate.pick, fill=element_action)
    if candidate.text is not None:  # a search for what the task names (act/search_for.py): typed, then Enter
        return await search(ctx, el, value=candidate.text)
    if form is not None and not is_form_field(el) and not form_fields(form[0]):
        # Every field of the form is disabled (a prompt popped up over it, and its OK and Cancel fell in the form's
        # section): a button of it is clicked as itself, not as the submit of a form with nothing to fill.
        form = None
    if form is not None:
        form_section, detached = form
        if is_search_form(form_section):
            field = next(e for e in form_section.all_elements() if is_text_field(e))
            return await search(ctx, field)
        check_reads_only(ctx, el, form_section)
        return await submit_form(ctx, form_section, fill=element_action, detached=detached)
    check_premature(ctx, el, section)
    return await element_action(ctx, el, section)
