"""A click refused once as premature: the model is told why and chooses again; chosen again, the click is done (a
rule may be wrong about a page, so it asks, it never forbids). Each rule was read from the default model's
transcripts on pages nobody tuned for:

  - check_named_fields_set: a submit while boxes, options or quoted values the task names are unset
    (act/named_fields.py);
  - check_named_controls_used: a submit before anything was used on the page while the task names other controls
    there or asks something in a clause before it (task_parts.request_before);
  - check_fields_left_empty: a submit before anything was done while every text field with it is empty;
  - check_part_order: an element a later part of the task names while an earlier part is not done
    (act/task_parts.py);
  - check_named_instead: a control the task says nothing of while it names, or shares a word with, one to three
    others on the page;
  - check_row_named: one of alike controls (a "share" per post) from a row without the words the task tells rows
    apart by;
  - check_target_hidden: a control the task does not name while what the task quotes is on no element of the page
    and closed tabs or sections could hide it (is_closed_opener);
  - check_reads_only: in a question, a field or the submit button of a form that sends changes (POST) or edits the
    record the page shows: the default model, asked for a customer's email on an order's change page, chose the
    customer field, and the form workflow typed the task's words into the order and saved it; asked a product's
    price, it ran the product list's bulk-action form.

Element.clicked marks what the agent used on the page; ctx.submit_warnings and ctx.order_warnings what was refused.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from companion.act.confirmation import submission
from companion.act.context import AgentContext
from companion.act.elements import is_empty, is_form_field, is_native_select, label
from companion.act.errors import NotYet
from companion.act.named_fields import fields_in_scope, names_action, unset_named
from companion.act.prefilter import element_skip_reason
from companion.task_asks import is_question
from companion.act.task_parts import request_before
from companion.pagemem.model import Element, PageSection
from companion.pagemem.widgets import SUBMIT_WORDS, is_submit_like, is_text_field
from companion.text import content_words, names_in, quoted_as_written, whole_words


def check_premature(ctx: AgentContext, el: Element, section: PageSection | None) -> None:
    """Every rule, in the order whose reason says most: what is unset before what comes first."""
    check_named_fields_set(ctx, el, section)
    check_named_controls_used(ctx, el)
    check_fields_left_empty(ctx, el, section)
    check_part_order(ctx, el)
    check_named_instead(ctx, el)
    check_row_named(ctx, el)
    check_target_hidden(ctx, el)


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
    first = ctx.parts.first_pending(name, present_names(ctx.pagemem))
    if first is None or (el.key, first) in ctx.order_warnings:
        return
    ctx.order_warnings.add((el.key, first))
    raise NotYet(f'not done yet: the task\'s part {first + 1}, "{ctx.parts.parts[first].text}", comes first and is '
                 "not done; do it first")


def present_names(pagemem) -> list[str]:
    """What the page's enabled elements are named, and its lists' options not chosen: a list's options are the page's
    too ("Choose 5ft 11in from the dropdown, then click Maybe" names an option of a combobox whose own name says
    nothing; the default model clicked Maybe first). One already chosen is done."""
    shown = [e for e in pagemem.all_elements() if not e.disabled]
    return [e.name or e.text for e in shown] + [o for e in shown for o in e.options if o != e.selected_option]


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
    Chosen again, it is clicked.

    Another button the task names is held back the same way while the task asks something before it ("Scroll to the
    bottom of the textarea, enter the name Keneth, then press Cancel": the default model pressed Cancel at once), but
    not for the other controls the task names: "Click ONE, then TWO" names TWO, which does not come first."""
    name = el.name or el.text
    is_submit = submits(el)
    if ctx.pagemem is None or not (is_submit or (not is_form_field(el) and name and names_action(ctx.task, name))):
        return
    elements = [e for e in ctx.pagemem.all_elements() if not e.disabled]
    warning = (el.key, ("nothing done",))
    if warning in ctx.submit_warnings or any(e.clicked for e in elements):
        return
    if not is_submit and ctx.parts.compound and ctx.parts.first_pending(name, present_names(ctx.pagemem)) is not None:
        return  # an earlier part names another control here: check_part_order says which
    named = dict.fromkeys(f'{e.role} "{(e.name or e.text)[:60]}"' for e in elements
                          if is_submit and e.key != el.key and (e.name or e.text) and not is_text_field(e)
                          and not submits(e) and names_action(ctx.task, e.name or e.text))
    first = request_before(ctx.task, name) if not named else None
    if first and holds_already(first, elements):
        return
    if not named and not first:
        return
    ctx.submit_warnings.add(warning)
    if named:
        raise NotYet(f"not clicked yet: nothing is done on this page yet, and the task names "
                     f"{', '.join(list(named)[:MAX_NAMED_SAID])} here; use those first")
    raise NotYet(f'not clicked yet: nothing is done on this page yet, and the task asks to "{first}" before it; '
                 "do that first")


def holds_already(clause: str, elements: list[Element]) -> bool:
    """A field of the page already holds the value the clause asks for ("Select 0 with the spinner" while the spinner
    shows 0): what the clause asks is so, and nothing is left to do before the submit. The default model, refused
    the submit, stepped the spinner away from the value it held. A password's value is never read."""
    asked = whole_words(clause)
    for e in elements:
        held = e.selected_option if is_native_select(e) else e.value if is_text_field(e) and not e.is_password else None
        want = whole_words(held or "")
        if want and any(asked[i:i + len(want)] == want for i in range(len(asked) - len(want) + 1)):
            return True
    return False


# "Submit the form empty", "leave the fields blank", "select nothing": a task that wants nothing typed.
_LEAVE_EMPTY = re.compile(r"\b(?:empty|blank|nothing|without (?:typing|entering|filling))\b", re.I)
MAX_FIELDS_SAID = 4


def gives_values(task: str) -> bool:
    """The task gives something to type: a number, a quoted phrase, or a capitalised word inside the sentence (a
    name). "Pay for the kettle" gives none: its empty form is not the task's to fill from its words."""
    words = task.split()
    return bool(re.search(r"\d", task) or quoted_as_written(task)
                or any(w[:1].isupper() for w in words[1:] if w[:1].isalpha()))


def check_fields_left_empty(ctx: AgentContext, el: Element, section: PageSection | None) -> None:
    """A submit-like button clicked before anything was done on the page while every text field with it is empty is
    refused once: "Search for adventure movies directed by Sullivan from year 2015" gives the values of the Director,
    Genre and Year fields without quoting them, and the default model pressed Submit on the three empty fields. A
    task that asks for nothing typed, or gives nothing to type (gives_values), is left alone; chosen again, the
    button is clicked."""
    if not submits(el) or ctx.pagemem is None or _LEAVE_EMPTY.search(ctx.task) or not gives_values(ctx.task):
        return
    texts = [e for e in fields_in_scope(ctx.pagemem, section) if is_text_field(e) and not e.disabled]
    if not texts or any(key == el.key for key, _ in ctx.submit_warnings):  # refused already for another reason
        return
    if (any(e.clicked for e in ctx.pagemem.all_elements())
            or not all(is_empty(e, ctx.typed_secrets) for e in texts)):
        return
    ctx.submit_warnings.add((el.key, ("fields empty",)))
    raise NotYet(f"not clicked yet: nothing is done on this page yet and its fields are empty "
                 f"({', '.join(label(e) for e in texts[:MAX_FIELDS_SAID])}); fill in what the task gives first")


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


def check_row_named(ctx: AgentContext, el: Element) -> None:
    """One of several alike controls told apart by their rows (Element.context: three "share" buttons, one per post),
    chosen from a row the task does not name while it names what tells other rows apart ("Click the share button on
    all posts by @juan": the default model pressed share on @marcella's post), is refused once with the alike
    controls of the rows it names. The telling words are those of some rows and not all; chosen again, it is clicked."""
    if ctx.pagemem is None or not el.context or is_form_field(el):
        return
    name = (el.role, el.name or el.text)
    alike = [e for e in ctx.pagemem.all_elements() if (e.role, e.name or e.text) == name and e.context and not e.disabled]
    rows = [set(content_words(e.context)) for e in alike]
    telling = (set().union(*rows) - set.intersection(*rows)) & set(content_words(ctx.task)) if len(rows) >= 2 else set()
    warning = (el.key, ("row named",))
    if not telling or telling & set(content_words(el.context)) or warning in ctx.submit_warnings:
        return
    named = [label(e) for e in alike if telling & set(content_words(e.context))]
    ctx.submit_warnings.add(warning)
    raise NotYet(f"not clicked yet: the task names {', '.join(sorted(telling))}, and this row says none of it; "
                 f"its row's are {', '.join(named[:MAX_NAMED_INSTEAD])}: choose one of those, or this again")


MAX_OPENERS_SAID = 4


def is_closed_opener(e: Element) -> bool:
    """What hides part of the page: a tab not selected, a control that says it is collapsed (aria-expanded=false, a
    closed <details>' summary)."""
    return not e.disabled and (e.expanded is False or (e.role == "tab" and not e.selected and e.expanded is not True))


def check_target_hidden(ctx: AgentContext, el: Element) -> None:
    """A control the task does not name, chosen while the task quotes the name of what it is after ("find and click on
    the link "Dui"") and no element of the page bears that name, is refused once while the page has closed tabs or
    sections: what the task names is behind one of them. The default model opened one tab, found no "Dui" there and
    clicked a word of that tab instead, which ended the episode. Openers, fields and submit buttons are not refused;
    chosen again, the control is clicked."""
    if ctx.pagemem is None or is_form_field(el) or submits(el):
        return
    shown = [e for e in ctx.pagemem.all_elements() if not e.disabled]
    names = [n for e in shown if (n := e.name or e.text)]
    missing = [q for q in quoted_as_written(ctx.task) if not any(names_in(n, q) for n in names)]
    closed = [e for e in shown if is_closed_opener(e) and e.key != el.key]
    # Those not opened yet first: the default model went back to the tab it had just left.
    unopened = [e for e in closed if not e.clicked]
    openers = dict.fromkeys(label(e) for e in unopened or closed)
    warning = (el.key, ("target hidden",))
    if not missing or not openers or warning in ctx.submit_warnings:
        return
    if is_closed_opener(el):  # an opener: the way to it, unless it was opened already and others were not
        if not (el.clicked and unopened):
            return
        ctx.submit_warnings.add(warning)
        raise NotYet(f'not clicked yet: {label(el)} was opened already and showed nothing named "{missing[0]}"; '
                     f"{', '.join(list(openers)[:MAX_OPENERS_SAID])} {'was' if len(openers) == 1 else 'were'} not opened "
                     "yet: open one of those, or this again")
    ctx.submit_warnings.add(warning)
    raise NotYet(f'not clicked yet: no element on this page is named "{missing[0]}", which the task asks for; it may be '
                 f"behind {', '.join(list(openers)[:MAX_OPENERS_SAID])}: open that first, or choose this again")


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
