"""When an action needs the user's yes: decided by what the action does (form_effect.py), never by the words the
page puts on it, and never by the model. The one place that decides; basic.py, form.py, search.py and
dropdown.py ask through confirm_action().

Asked before:
  - submitting a form (a submit button, Enter in a form's field, SubmitForm's submit) unless the form is a real
    site search (GET, one text/search field, nothing sensitive, and something that says search: role=search,
    type=search, a search-like field or action name); a form is the one the browser submits (a form= attribute
    ties a button outside it), and a button submits unless its type is button or reset;
  - clicking a button-like element (any tag: a div with a handler counts) whose effect is unknown inside a
    payment, account or checkout scope (a form or, without <form>, the section holding card, CVC, PIN, bank
    account, password, one-time-code, amount or address fields, by autocomplete or by name in any language;
    or a POST form);
  - following a link inside such a <form>;
  - clicking a search suggestion that belongs to a form that is not a real search;
  - typing into a field of a frame from another origin than the page (once per origin and document);
  - clicking what the irreversible keyword list matches (an extra signal, English only).
The question names the page, and the frame's origin when the element lives in another origin's frame.
Where a submission goes (the submitting button's formaction, else the form's action) is judged first by the
task's site rule (act/sites.py), as a link is: refused outside --allow-domain, asked outside the task's sites.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Literal
from urllib.parse import urldefrag

from companion.act.context import AgentContext
from companion.act.elements import irreversible_reason, is_checkable, is_file_input, is_native_select, label, plain_label
from companion.act.errors import ActionFailed, Declined
from companion.act.form_effect import FormFacts, Key, PageFacts, scope_facts
from companion.act.sites import check_navigation
from companion.pagemem.model import Element, PageSection
from companion.pagemem.widgets import is_submit_button, is_text_field

Action = Literal["click", "type", "enter", "submit"]

# Roles whose click has a known, harmless effect: they open, choose or switch something, they send nothing.
KNOWN_EFFECT_ROLES = frozenset({"combobox", "option", "tab", "treeitem", "listbox", "slider", "spinbutton",
                                "menuitemcheckbox", "menuitemradio", "checkbox", "radio", "switch", "textbox", "searchbox"})
# Roles that are clearly not controls (headings, text): clicking them is no action of unknown effect.
_INERT_ROLES = frozenset({"heading", "img", "paragraph", "separator", "presentation", "none"})


def _facts(ctx: AgentContext) -> PageFacts:
    return ctx.page_facts


def _form_facts(ctx: AgentContext, el: Element) -> FormFacts | None:
    """The facts of the <form> an element belongs to (form membership, from the snapshot); None: it is in none."""
    facts = _facts(ctx)
    key = facts.form_of.get(el.key)
    return facts.forms.get(key) if key is not None else None


def _scope(ctx: AgentContext, el: Element) -> FormFacts:
    """The element's <form>; without one, the fields of the page section holding it (a div-built checkout)."""
    form = _form_facts(ctx, el)
    if form is not None:
        return form
    facts = _facts(ctx)
    keys: list = []
    pm = ctx.pagemem
    if pm is not None:
        holder = next((s for s in pm.sections if any(e.key == el.key for e in s.all_elements())), None)
        if holder is not None:
            keys = [e.key for e in holder.all_elements()]
    return scope_facts(facts, keys, facts.frame_urls.get(el.ref.frame, facts.top_url))


def _navigating_link(el: Element) -> bool:
    href = el.attrs.get("href", "").strip().lower()
    return el.tag in ("a", "area") and bool(href) and not href.startswith(("#", "javascript:"))


def is_button_like(el: Element) -> bool:
    """Clickable with an effect the markup does not tell: buttons, and any element the page made clickable
    (a div with a handler or a pointer cursor, role=button), but not fields, choosers or navigating links."""
    if is_text_field(el) or is_native_select(el) or is_checkable(el) or is_file_input(el):
        return False
    if el.role in KNOWN_EFFECT_ROLES or el.role in _INERT_ROLES or _navigating_link(el):
        return False
    popup = el.attrs.get("aria-haspopup", "false").lower()
    if (popup and popup != "false") or "aria-expanded" in el.attrs:
        return False  # a disclosure: it opens something, DropdownAction reads what
    return True


def _what_form(form: FormFacts) -> str:
    why = form.sensitive_reason()
    if why:
        return f"a form that {why}"
    if form.key is None:
        return "a form handled by the page's script"
    return "a form that is not a site search"


def _effective(ctx: AgentContext, submitter: Key | None, form: FormFacts) -> FormFacts:
    """The form as this button submits it: a formmethod on the button overrides the form's method."""
    method = _facts(ctx).button_method.get(submitter) if submitter is not None else None
    return replace(form, method=method) if method else form


def submission(ctx: AgentContext, action: Action, el: Element,
               section: PageSection | None = None) -> tuple[FormFacts, Key | None] | None:
    """(the form as submitted, the button it is submitted with) when `action` on `el` submits a <form>; None
    otherwise. A click submits when `el` is a submit button of a form; Enter in a field (and SubmitForm without
    a button) submits with the form's first submit button, as the browser does."""
    form = _form_facts(ctx, el)
    if action == "submit" and form is None and section is not None:  # the anchor may be no control of the form
        form = next((f for f in map(lambda e: _form_facts(ctx, e), section.all_elements()) if f is not None), None)
    if form is None or action == "type":
        return None
    if is_submit_button(el):
        return (_effective(ctx, el.key, form), el.key) if action in ("click", "submit") else None
    if action == "submit" or (action == "enter" and is_text_field(el) and el.tag != "textarea"):
        submitter = form.submitters[0] if form.submitters else None
        return _effective(ctx, submitter, form), submitter
    return None


def needs_confirmation(ctx: AgentContext, action: Action, el: Element, *, section: PageSection | None = None,
                       suggestion_for: Element | None = None) -> str | None:
    """Why `action` on `el` needs the user's yes (None: it does not). `section` is the form section SubmitForm
    submits; `suggestion_for` the search field a clicked suggestion belongs to."""
    facts = _facts(ctx)
    form = _form_facts(ctx, el)
    if action == "type":
        foreign = facts.foreign_origin(el.ref.frame)
        return f"the field is in a frame from {foreign}, another site than the page" if foreign else None
    submitted = submission(ctx, action, el, section)
    sent = submitted[0] if submitted is not None else None
    if action == "submit":
        if sent is None:
            return "it submits a form handled by the page's script"
        return None if sent.is_real_search() else f"it submits {_what_form(sent)}"
    if action == "enter":
        if sent is not None:  # Enter in a form's field submits it
            return None if sent.is_real_search() else f"pressing Enter submits {_what_form(sent)}"
        why = _scope(ctx, el).sensitive_reason()  # no <form>: the page's script decides what Enter does
        return f"its effect is unknown and the field is inside a form that {why}" if why else None
    # click
    if suggestion_for is not None:
        owner = _form_facts(ctx, suggestion_for)
        if owner is not None and not owner.is_real_search():
            return f"it is a suggestion inside {_what_form(owner)}"
        if owner is None and (why := _scope(ctx, suggestion_for).sensitive_reason()):
            return f"it is a suggestion inside a form that {why}"
    if sent is not None and not sent.is_real_search():
        return f"it submits {_what_form(sent)}"
    if _navigating_link(el) and form is not None and (why := form.sensitive_reason()):
        return f"it is a link inside a form that {why}"  # "Bestellen" as a link in a checkout
    if is_button_like(el):
        why = _scope(ctx, el).sensitive_reason()
        if why:
            return f"its effect is unknown and it is inside a form that {why}"
    return irreversible_reason(el)


def place(ctx: AgentContext, el: Element) -> str:
    """Where the element is, for the question: the page, and the frame's origin when it is another site's."""
    foreign = _facts(ctx).foreign_origin(el.ref.frame)
    return f"in a frame from {foreign} on {ctx.url}" if foreign else f"on {ctx.url}"


def _target(ctx: AgentContext, form: FormFacts, submitter: Key | None) -> tuple[str, bool] | None:
    """Where a submission goes, as the browser resolved it: the submitting button's formaction, else the form's
    action (with whether the extension cut the URL); None for a form handled by the page's script."""
    target = ctx.form_urls.get(submitter) if submitter is not None else None
    return target or (ctx.form_urls.get(form.key) if form.key is not None else None)


async def _check_submission_target(ctx: AgentContext, action: Action, el: Element, section: PageSection | None,
                                   done: list[str] | None) -> None:
    """Where a submission goes, by the task's site rule (a refusal raises ActionFailed with `done`, a declined
    site Declined with `done`)."""
    submitted = submission(ctx, action, el, section)
    if submitted is None:
        return
    target = _target(ctx, *submitted)
    if target is None:
        return
    try:
        await check_navigation(ctx, target[0], f"the form of {label(el)}", truncated=target[1])
    except Declined as exc:
        raise Declined(str(exc), exc.what, done) from exc
    except ActionFailed as exc:
        raise ActionFailed(str(exc), done) from exc


def effect_of(ctx: AgentContext, action: Action, el: Element, section: PageSection | None = None) -> str:
    """What the action does, which a decline is remembered by for the rest of the task: submitting a form is
    one effect however it is done (its button, Enter in a field, SubmitForm), named by where and how it sends;
    typing into another origin's frame is one per origin; anything else is the element on its page."""
    submitted = submission(ctx, action, el, section)
    if submitted is not None:
        form, submitter = submitted
        target = _target(ctx, form, submitter)
        return f"submit a {form.method} form to {target[0] if target else form.frame_url}"
    if action == "type":
        return f"type into a frame from {_facts(ctx).foreign_origin(el.ref.frame)}"
    return f"{action} {label(el)} on {urldefrag(ctx.url)[0]}"


async def confirm_action(ctx: AgentContext, action: Action, el: Element, *, done: list[str] | None = None,
                         what: str | None = None, section: PageSection | None = None,
                         suggestion_for: Element | None = None) -> None:
    """Ask the user when needs_confirmation() says so; a decline raises Declined (with `done`), and so does
    an action doing what the user declined earlier in the task, unasked. `what` replaces the default
    description of the action ('Click the button "Pay"'). Typing into another origin's frame is asked once per
    origin and document."""
    await _check_submission_target(ctx, action, el, section, done)
    reason = needs_confirmation(ctx, action, el, section=section, suggestion_for=suggestion_for)
    if reason is None:
        return
    effect = effect_of(ctx, action, el, section)
    if effect in ctx.declined:
        raise Declined(f"declined by the user earlier in this task: {ctx.declined[effect]}", ctx.declined[effect], done)
    memo = None
    if action == "type":
        memo = _facts(ctx).foreign_origin(el.ref.frame)
        if memo in ctx.approved_origins:
            return
    verb = {"click": "Click", "type": "Type into", "enter": "Press Enter in", "submit": "Submit"}[action]
    description = f"{what or f'{verb} {plain_label(el)}'} {place(ctx, el)}: {reason}"
    if not await ctx.confirm(description):
        ctx.declined[effect] = description
        raise Declined(f"declined by the user: {description}", description, done)
    if memo:
        ctx.approved_origins.add(memo)
