"""When an action needs the user's yes: decided by what the action does (form_effect.py), never by the words the
page puts on it, and never by the model. The one place that decides; basic.py, form.py, search.py and
dropdown.py ask through confirm_action().

Asked before:
  - submitting a form (a submit button, Enter in a form's field, SubmitForm's submit) unless the form is a real
    site search (GET, one text/search field, nothing sensitive, role=search or an action URL);
  - clicking a button-like element (any tag: a div with a handler counts) whose effect is unknown inside a
    payment, account or checkout scope (a form or, without <form>, the section holding card, password,
    one-time-code or address fields; or a POST form);
  - clicking a search suggestion that belongs to a form that is not a real search;
  - typing into a field of a frame from another origin than the page (once per origin and document);
  - clicking what the irreversible keyword list matches (an extra signal, English only).
The question names the page, and the frame's origin when the element lives in another origin's frame.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Literal
from urllib.parse import urldefrag

from companion.act.context import AgentContext
from companion.act.elements import irreversible_reason, is_checkable, is_file_input, is_native_select, is_text_field, label
from companion.act.errors import Declined
from companion.act.form_effect import FormFacts, PageFacts, scope_facts
from companion.pagemem.model import Element, PageSection

Action = Literal["click", "type", "enter", "submit"]

# Roles whose click has a known, harmless effect: they open, choose or switch something, they send nothing.
KNOWN_EFFECT_ROLES = frozenset({"combobox", "option", "tab", "treeitem", "listbox", "slider", "spinbutton",
                                "menuitemcheckbox", "menuitemradio", "checkbox", "radio", "switch", "textbox", "searchbox"})
# Roles that are clearly not controls (headings, text): clicking them is no action of unknown effect.
_INERT_ROLES = frozenset({"heading", "img", "paragraph", "separator", "presentation", "none"})


def _facts(ctx: AgentContext) -> PageFacts:
    return ctx.page_facts


def _form_of(ctx: AgentContext, el: Element) -> FormFacts | None:
    facts = _facts(ctx)
    key = facts.form_of.get(el.key)
    return facts.forms.get(key) if key is not None else None


def _scope(ctx: AgentContext, el: Element) -> FormFacts:
    """The element's <form>; without one, the fields of the page section holding it (a div-built checkout)."""
    form = _form_of(ctx, el)
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


def _submits(el: Element) -> bool:
    """A control that submits its form when clicked (a <button> without a type is a submit button)."""
    if el.tag == "input" and el.input_type in ("submit", "image"):
        return True
    return el.tag == "button" and el.attrs.get("type", "submit").lower() == "submit"


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


def _effective(ctx: AgentContext, el: Element, form: FormFacts) -> FormFacts:
    """The form as this button submits it: a formmethod on the button overrides the form's method."""
    method = _facts(ctx).button_method.get(el.key)
    return replace(form, method=method) if method else form


def needs_confirmation(ctx: AgentContext, action: Action, el: Element, *, section: PageSection | None = None,
                       suggestion_for: Element | None = None) -> str | None:
    """Why `action` on `el` needs the user's yes (None: it does not). `section` is the form section SubmitForm
    submits; `suggestion_for` the search field a clicked suggestion belongs to."""
    facts = _facts(ctx)
    form = _form_of(ctx, el)
    if action == "type":
        foreign = facts.foreign_origin(el.ref.frame)
        return f"the field is in a frame from {foreign}, another site than the page" if foreign else None
    if action == "submit":
        if form is None and section is not None:  # the anchor may sit outside the <form> (form= attribute)
            form = next((f for f in map(lambda e: _form_of(ctx, e), section.all_elements()) if f is not None), None)
        if form is not None and _submits(el):
            form = _effective(ctx, el, form)
        if form is not None and form.is_real_search():
            return None
        return "it submits " + (_what_form(form) if form is not None else "a form handled by the page's script")
    if action == "enter":
        if form is not None and is_text_field(el) and el.tag != "textarea":  # Enter in a form's field submits it
            return None if form.is_real_search() else f"pressing Enter submits {_what_form(form)}"
        why = _scope(ctx, el).sensitive_reason()  # no <form>: the page's script decides what Enter does
        return f"its effect is unknown and the field is inside a form that {why}" if why else None
    # click
    if suggestion_for is not None:
        owner = _form_of(ctx, suggestion_for)
        if owner is not None and not owner.is_real_search():
            return f"it is a suggestion inside {_what_form(owner)}"
        if owner is None and (why := _scope(ctx, suggestion_for).sensitive_reason()):
            return f"it is a suggestion inside a form that {why}"
    if form is not None and _submits(el):
        submitted = _effective(ctx, el, form)
        if not submitted.is_real_search():
            return f"it submits {_what_form(submitted)}"
    if is_button_like(el):
        why = _scope(ctx, el).sensitive_reason()
        if why:
            return f"its effect is unknown and it is inside a form that {why}"
    return irreversible_reason(el)


def place(ctx: AgentContext, el: Element) -> str:
    """Where the element is, for the question: the page, and the frame's origin when it is another site's."""
    foreign = _facts(ctx).foreign_origin(el.ref.frame)
    return f"in a frame from {foreign} on {ctx.url}" if foreign else f"on {ctx.url}"


def effect_of(ctx: AgentContext, action: Action, el: Element, section: PageSection | None = None) -> str:
    """What the action does, which a decline is remembered by for the rest of the task: submitting a form is
    one effect however it is done (its button, Enter in a field, SubmitForm), named by where and how it sends;
    typing into another origin's frame is one per origin; anything else is the element on its page."""
    form = _form_of(ctx, el)
    if form is None and section is not None:
        form = next((f for f in (_form_of(ctx, e) for e in section.all_elements()) if f is not None), None)
    if form is not None and (action in ("submit", "enter") or _submits(el)):
        target = (ctx.form_urls.get(el.key) if _submits(el) else None) or ctx.form_urls.get(form.key)
        method = _effective(ctx, el, form).method if _submits(el) else form.method
        return f"submit a {method} form to {target[0] if target else form.frame_url}"
    if action == "type":
        return f"type into a frame from {_facts(ctx).foreign_origin(el.ref.frame)}"
    return f"{action} {label(el)} on {urldefrag(ctx.url)[0]}"


async def confirm_action(ctx: AgentContext, action: Action, el: Element, *, done: list[str] | None = None,
                         what: str | None = None, section: PageSection | None = None,
                         suggestion_for: Element | None = None) -> None:
    """Ask the user when needs_confirmation() says so; a decline raises Declined (with `done`), and so does
    an action doing what the user declined earlier in the task, unasked. `what` replaces the default
    description of the action ("Click button "Pay""). Typing into another origin's frame is asked once per
    origin and document."""
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
    description = f"{what or f'{verb} {label(el)}'} {place(ctx, el)}: {reason}"
    if not await ctx.confirm(description):
        ctx.declined[effect] = description
        raise Declined(f"declined by the user: {description}", description, done)
    if memo:
        ctx.approved_origins.add(memo)
