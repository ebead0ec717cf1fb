"""A click refused once as premature: the model is told why and chooses again; chosen again, the click is done (a
rule may be wrong about a page, so it asks, it never forbids). Each rule was read from the default model's
transcripts on pages nobody tuned for:

  - check_named_fields_set: a submit while boxes, options or quoted values the task names are unset
    (act/named_fields.py);
  - check_named_controls_used: a submit before anything was used on the page while the task names other controls
    there or asks something in a clause before it (task_parts.request_before);
  - check_part_order: an element a later part of the task names while an earlier part is not done
    (act/task_parts.py);
  - check_named_instead: a control the task says nothing of while it names, or shares a word with, one to three
    others on the page;
  - check_reads_only: in a question, a field or the submit button of a form that sends changes (POST) or edits the
    record the page shows: the default model, asked for a customer's email on an order's change page, chose the
    customer field, and the form workflow typed the task's words into the order and saved it; asked a product's
    price, it ran the product list's bulk-action form.

Element.clicked marks what the agent used on the page; ctx.submit_warnings and ctx.order_warnings what was refused.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from companion.act.confirmation import submission
from companion.act.context import AgentContext
from companion.act.elements import is_form_field, label
from companion.act.errors import NotYet
from companion.act.named_fields import fields_in_scope, names_action, unset_named
from companion.act.prefilter import element_skip_reason
from companion.task_asks import is_question
from companion.act.task_parts import request_before
from companion.pagemem.model import Element, PageSection
from companion.pagemem.widgets import SUBMIT_WORDS, is_submit_like, is_text_field
from companion.text import content_words


def check_premature(ctx: AgentContext, el: Element, section: PageSection | None) -> None:
    """Every rule, in the order whose reason says most: what is unset before what comes first."""
    check_named_fields_set(ctx, el, section)
    check_named_controls_used(ctx, el)
    check_part_order(ctx, el)
    check_named_instead(ctx, el)


READS_ONLY = ("reads only",)  # the submit_warnings entry of a form refused in a question
MIN_FILLED = 2  # text fields the page filled: one could be a remembered name or a default


def changes_site(ctx: AgentContext, el: Element, form: PageSection) -> str | None:
    """Why filling and sending this form changes what the site holds, in a question (None: it does not, or the
    task is no question): one sent with POST (a record's change form, a list's bulk-action form), or one holding a
    record (at least MIN_FILLED text fields the page filled). A log-in form (a password field) is the way in, not
    a change; a question that needs a form (a quote, a search) has a GET form or empty fields to fill."""
    if not is_question(ctx.task):
        return None
    members = list(form.all_elements())
    if any(e.is_password for e in members):
        return None
    sent = submission(ctx, "submit", el, form)
    if sent is not None and sent[0].method == "post":
        return "this form sends changes to the site (POST)"
    filled = [e for e in members if is_text_field(e) and not e.clicked and not e.disabled and (e.value or "").strip()]
    if len(filled) >= MIN_FILLED:
        return f"this form edits what the page shows ({len(filled)} of its fields hold values already)"
    return None


def check_reads_only(ctx: AgentContext, el: Element, form: PageSection) -> None:
    """In a question, a form that changes what the site holds (changes_site) is not filled and sent at the first
    choice: refused once per form, the model told to read instead."""
    why = changes_site(ctx, el, form)
    warning = (form.id, READS_ONLY)
    if why is None or warning in ctx.submit_warnings:
        return
    ctx.submit_warnings.add(warning)
    raise NotYet(f"not used: the task asks a question, and {why}; read what the page shows, or follow a link to what "
                 "the task asks, instead of filling and sending the form")


def check_part_order(ctx: AgentContext, el: Element) -> None:
    """An element a later part of the task names, chosen while an earlier part that names another element of the
    page is not done, is refused once (act/task_parts.py first_pending): the model is told which part comes first;
    chosen again, it is done (the earlier part may be done in a way no rule sees). A button already refused for
    unset fields is not refused again for the order: the model, told, chose it anyway."""
    name = el.name or el.text
    if not ctx.parts.compound or not name or ctx.pagemem is None:
        return
    if any(key == el.key for key, _ in ctx.submit_warnings):
        return
    present = [e.name or e.text for e in ctx.pagemem.all_elements() if not e.disabled]
    first = ctx.parts.first_pending(name, present)
    if first is None or (el.key, first) in ctx.order_warnings:
        return
    ctx.order_warnings.add((el.key, first))
    raise NotYet(f'not done yet: the task\'s part {first + 1}, "{ctx.parts.parts[first].text}", comes first and is '
                 "not done; do it first")


def submits(el: Element) -> bool:
    """A click that hands the page what was set: a submit-like button, or a scripted control read as one (a
    clickable div "Submit", generic to the accessibility tree and a button to a person; a short name only: a mail
    row "Re: post the update" is no button)."""
    name = el.name or el.text
    return is_submit_like(el, in_form=False) or (el.role == "generic" and len(name.split()) <= 3
                                                 and bool(SUBMIT_WORDS.search(name)))


MAX_NAMED_SAID = 4


def check_named_controls_used(ctx: AgentContext, el: Element) -> None:
    """A submit-like button outside any form, clicked before anything was done on this page, is refused once when
    the task names other controls here ("Mark the numbers below as odd or even and press submit": its "Odd" and
    "Even" buttons) or asks for something before the button (task_parts.request_before: "Expand the section
    below and click submit"). The default model pressed Submit first on both, "the page provides buttons for
    this". The named controls are buttons, boxes, options, links, tabs: text fields are check_named_fields_set's.
    Chosen again, it is clicked."""
    if not submits(el) or ctx.pagemem is None:
        return
    elements = [e for e in ctx.pagemem.all_elements() if not e.disabled]
    warning = (el.key, ("nothing done",))
    if warning in ctx.submit_warnings or any(e.clicked for e in elements):
        return
    named = dict.fromkeys(f'{e.role} "{(e.name or e.text)[:60]}"' for e in elements
                          if e.key != el.key and (e.name or e.text) and not is_text_field(e)
                          and not submits(e) and names_action(ctx.task, e.name or e.text))
    first = request_before(ctx.task, el.name or el.text) if not named else None
    if not named and not first:
        return
    ctx.submit_warnings.add(warning)
    if named:
        raise NotYet(f"not clicked yet: nothing is done on this page yet, and the task names "
                     f"{', '.join(list(named)[:MAX_NAMED_SAID])} here; use those first")
    raise NotYet(f'not clicked yet: nothing is done on this page yet, and the task asks to "{first}" before it; '
                 "do that first")


MAX_NAMED_INSTEAD = 3


def requeries_this_page(el: Element, page: str) -> bool:
    """A link to this page's own path with another query (a filter's or a sort's choice): the list's own control,
    the model's to choose among."""
    if not el.url:
        return False
    to, here = urlsplit(el.url), urlsplit(page)
    return to.path == here.path and bool(to.query)


def check_named_instead(ctx: AgentContext, el: Element) -> None:
    """A control the task says nothing of, chosen while the page shows one to three controls the task names or
    shares a word with ("forward that email": its "Forward" button; "the message from Eilis": the mail row
    "Eilis Sagittis…"), is refused once with them: the default model clicked "Reply" beside "Forward" on two
    mails, and Nancee's mail for Eilis's, its reason a copy of the task. Fields, boxes, lists and submit buttons are the
    other rules'; a control sharing a word with the task (a mail row "Kendre ...") is named enough. Chosen
    again, it is clicked."""
    name = el.name or el.text
    if ctx.pagemem is None or is_form_field(el) or submits(el) or requeries_this_page(el, ctx.url):
        return
    asked = set(content_words(ctx.task))
    if set(content_words(name)) & asked:
        return
    warning = (el.key, ("named instead",))
    if warning in ctx.submit_warnings:
        return
    modal = ctx.pagemem.modal()  # under a dialog only the dialog's controls are offered
    shown = modal.all_elements() if modal is not None else ctx.pagemem.all_elements()
    named = dict.fromkeys(f'{e.role} "{(e.name or e.text)[:60]}"' for e in shown
                          if not e.clicked and e.key != el.key and (e.name or e.text) and not e.column_header
                          and not is_form_field(e) and not submits(e)
                          and (names_action(ctx.task, e.name or e.text) or set(content_words(e.name or e.text)) & asked)
                          and element_skip_reason(e, ctx.url, ctx.sites) is None)  # a link to this page: not offered
    if not 1 <= len(named) <= MAX_NAMED_INSTEAD:
        return
    ctx.submit_warnings.add(warning)
    raise NotYet(f"not clicked yet: the task names {', '.join(named)} here and nothing of {label(el)}; choose "
                 "what it names, or this again if it is still the way")


def check_named_fields_set(ctx: AgentContext, el: Element, section: PageSection | None) -> None:
    """A submit-like button outside any form, clicked while boxes or options the task names are unset, is
    refused once (act/named_fields.py): the model is told what is left; chosen again later, it is clicked."""
    if not submits(el) or ctx.pagemem is None:
        return
    left = tuple(unset_named(ctx.task, fields_in_scope(ctx.pagemem, section), ctx.typed_secrets))
    warning = (el.key, left)
    if not left or warning in ctx.submit_warnings:
        return
    ctx.submit_warnings.add(warning)
    raise NotYet(f"not clicked yet: the task names what is unset here ({'; '.join(left)}); set that first")
