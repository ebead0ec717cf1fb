"""A click refused once as premature: the model is told why and chooses again; chosen again, the click is done (a
rule may be wrong about a page, so it asks, it never forbids). Each rule was read from the default model's
transcripts on pages nobody tuned for:

  - check_named_fields_set: a submit while boxes, options or quoted values the task names are unset
    (act/named_fields.py);
  - check_named_controls_used: a submit before anything was used on the page while the task names other controls
    there or asks something in a clause before it (task_parts.request_before);
  - check_items_left_unmarked: a submit while some items of a list have none of their named choices made;
  - check_fields_left_empty: a submit before anything was done while every text field with it is empty, or later
    while some are empty and a value the task gives is in none (once per set of empty fields);
  - check_part_order: an element a later part of the task names while an earlier part is not done
    (act/task_parts.py);
  - check_named_instead: a control the task says nothing of while it names, or shares a word with, one to three
    others on the page;
  - check_row_named: one of alike controls (a "share" per post) from a row without the words the task tells rows
    apart by;
  - check_target_hidden: a control the task does not name while what the task quotes is on no element of the page
    and closed tabs or sections could hide it (is_closed_opener), or a name the task gives is nowhere on the page
    and closed openers or the list's other pages could hold it;
  - check_box_named: a checkbox the task does not name, while it names others by their labels;
  - check_kind_named: a control of another kind than the one the task acts on ("a "text" widget", "the checkbox");
  - check_glyph_named: a control other than the one a glyph the task quotes means ("x": the close button);
  - check_unasked_prompt: the OK of a prompt asking what the task says nothing of, while it has a Cancel;
  - check_reply_for_forward: "Reply" while the task sends the message on to someone the page does not show (the
    sender is) and says nothing of replying, with a "Forward" on the page;
  - check_ordinal: a control of the kind the task counts ("the 1st checkbox") that is not at that place;
  - check_parity: "Odd" chosen for an even number, or "Even" for an odd one (the item's number is its context);
  - check_nth_result: a result other than the one the task counts ("the 6th search result"), counted over the
    list's pages (act/nth_result.py);
  - check_superlative: one of alike controls, one per card ("Book for $…"), whose card does not hold the extreme
    the task's superlative asks for ("the shortest duration", "the cheapest"; observe/ranked.ranked_controls);
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
from companion.act.elements import is_checkable, is_empty, is_form_field, is_native_select, label
from companion.act.errors import NotYet
from companion.act.nth_result import nth_result
from companion.act.named_fields import (counted_controls, fields_in_scope, is_checkbox, is_number_field,
                                       names_action, of_named_kind, recipients, unset_choice, unset_named,
                                       value_named_for)
from companion.act.prefilter import element_skip_reason
from companion.observe.ranked import ranked_controls
from companion.observe.values import identifiers
from companion.task_asks import is_question
from companion.act.task_parts import request_before
from companion.pagemem.icon_names import glyph_meaning
from companion.pagemem.tell_apart import alike_key
from companion.pagemem.model import Element, PageSection
from companion.pagemem.widgets import SUBMIT_WORDS, is_page_link_name, is_submit_like, is_text_field
from companion.text import content_words, names_in, quoted_as_written, singular, whole_words


def check_premature(ctx: AgentContext, el: Element, section: PageSection | None) -> None:
    """Every rule, in the order whose reason says most: what is unset before what comes first."""
    check_named_fields_set(ctx, el, section)
    check_named_controls_used(ctx, el)
    check_items_left_unmarked(ctx, el)
    check_fields_left_empty(ctx, el, section)
    check_part_order(ctx, el)
    check_named_instead(ctx, el)
    check_row_named(ctx, el)
    check_target_hidden(ctx, el)
    check_box_named(ctx, el)
    check_ordinal(ctx, el)
    check_superlative(ctx, el)
    check_nth_result(ctx, el)
    check_parity(ctx, el)
    check_kind_named(ctx, el)
    check_glyph_named(ctx, el)
    check_unasked_prompt(ctx, el)
    check_reply_for_forward(ctx, el)


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


def check_items_left_unmarked(ctx: AgentContext, el: Element) -> None:
    """A submit-like button, clicked when the task's named choices were made for some items of a list and not for
    others, is refused once for each set of items left ("Mark the numbers below as odd or even": each number has its
    "Odd" and "Even"; the default model marked one of three and pressed Submit). The items are the `context` of
    alike controls: the same names, one set per item."""
    if ctx.pagemem is None or not submits(el):
        return
    items: dict[str, list[Element]] = {}
    for e in ctx.pagemem.all_elements():
        if e.context and not e.disabled and (name := e.name or e.text) and names_action(ctx.task, name):
            items.setdefault(e.context, []).append(e)
    kinds = {frozenset(e.name or e.text for e in members) for members in items.values()}
    if len(items) < 2 or len(kinds) != 1 or len(next(iter(kinds))) < 2:
        return  # not one set of alike choices per item
    marked = {item for item, members in items.items() if any(e.selected or e.checked for e in members)}
    left = tuple(item for item in items if item not in marked)
    warning = (el.key, ("items left",) + left)
    if not marked or not left or warning in ctx.submit_warnings:
        return  # nothing marked yet: check_named_controls_used says so
    ctx.submit_warnings.add(warning)
    choices = " or ".join(f'"{n}"' for n in sorted(next(iter(kinds))))
    shown = ", ".join(f'"{item}"' for item in left[:MAX_NAMED_SAID]) + (" and more" if len(left) > MAX_NAMED_SAID else "")
    raise NotYet(f"not clicked yet: the task asks a choice for each item, and {shown} has no {choices} chosen yet; "
                 "choose those first")


def used_here(ctx: AgentContext) -> bool:
    """Something was done on this page: an element the agent used, or a browser action that succeeded on this
    document though a script redrew what it used (Element.clicked is lost with the element)."""
    pm = ctx.pagemem
    return pm is not None and (ctx.acted_on == pm.url or any(e.clicked for e in pm.all_elements()))


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
    if _GLYPH_LED.match(name):  # a stepper's "+ (add)" beside a dish adds one; it hands nothing over
        return False
    return is_submit_like(el, in_form=False) or (el.role == "generic" and len(name.split()) <= 3
                                                 and bool(SUBMIT_WORDS.search(name)))


_GLYPH_LED = re.compile(r"^\s*[+\-−×✕*]\s*(?:\(|$)")


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
    # Used counts whatever it is now: a read-only box scrolled to its end stays disabled.
    if warning in ctx.submit_warnings or used_here(ctx):
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


def given_values(task: str, fields: list[Element]) -> list[str]:
    """What the task gives to type, as written: quoted values, numbers, and capitalised words inside the sentence
    ("Walls" and "1971" in "Search for romance movies directed by Walls from year 1971"), less the words that name
    the page's fields and buttons (its "Submit", a "Year" label)."""
    shown = [t for e in fields for t in (e.name, e.text, e.attrs.get("placeholder"), *e.options) if t]
    named = {w for t in shown for w in whole_words(t)}  # a list's option or a box's label is chosen, not typed
    # A capitalised word that opens no sentence: "Then" after a full stop is no name.
    capitalised = re.findall(r"(?<![.!?:]\s)(?<!^)\b[A-Z][\w'-]+", task.strip())
    found = quoted_as_written(task) + re.findall(r"(?<![\w.])\d[\d/:.,-]*\d|(?<![\w.])\d", task) + capitalised
    return [v for v in dict.fromkeys(found) if not set(whole_words(v)) <= named]


def check_fields_left_empty(ctx: AgentContext, el: Element, section: PageSection | None) -> None:
    """A submit-like button clicked before anything was done on the page while every text field with it is empty is
    refused once: "Search for adventure movies directed by Sullivan from year 2015" gives the values of the Director,
    Genre and Year fields without quoting them, and the default model pressed Submit on the three empty fields. So
    is one clicked while text fields with it are still empty and a value the task gives is in none of them (once
    per set of empty fields): refused on three empty fields, the default model typed the year and pressed Submit.
    A task that asks for nothing typed, or gives nothing to type (gives_values), is left alone; chosen again, the
    button is clicked."""
    if not submits(el) or ctx.pagemem is None or _LEAVE_EMPTY.search(ctx.task) or not gives_values(ctx.task):
        return
    texts = [e for e in fields_in_scope(ctx.pagemem, section) if is_text_field(e) and not e.disabled]
    empty = [e for e in texts if is_empty(e, ctx.typed_secrets)]
    if not empty:
        return
    said = ", ".join(label(e) for e in empty[:MAX_FIELDS_SAID])
    if not used_here(ctx) and len(empty) == len(texts):
        if any(key == el.key for key, _ in ctx.submit_warnings):  # refused already for another reason
            return
        ctx.submit_warnings.add((el.key, ("fields empty",)))
        raise NotYet(f"not clicked yet: nothing is done on this page yet and its fields are empty ({said}); fill in "
                     "what the task gives first")
    held = " ".join(e.value or "" for e in texts if not e.is_password)
    untyped = [v for v in given_values(ctx.task, list(ctx.pagemem.all_elements())) if not names_in(held, v)]
    warning = (el.key, ("values untyped", *sorted(e.key for e in empty)))
    if not untyped or warning in ctx.submit_warnings:
        return
    ctx.submit_warnings.add(warning)
    quoted = ", ".join(f'"{v}"' for v in untyped[:MAX_FIELDS_SAID])
    # An empty field whose value a rule reads from the task ("forward it to Cymbre" for the "to", "directed by Bean"
    # for the director) is filled at once, the first of them: told to fill it, the default model went back to the
    # message and forwarded it again, four times, and elsewhere ended the task with the director and year empty.
    by_rule = [e for e in empty if value_named_for(ctx.task, e)]
    raise NotYet(f"not clicked yet: the task gives {quoted}, which no field holds yet, and {said} "
                 f"{'is' if len(empty) == 1 else 'are'} empty; fill in what the task gives first",
                 remedy=by_rule[0].ref if by_rule else None, at_once=True)


MAX_NAMED_INSTEAD = 3


def requeries_this_page(el: Element, page: str) -> bool:
    """A link to this page's own path with another query (a filter's or a sort's choice): the list's own control,
    the model's to choose among."""
    if not el.url:
        return False
    to, here = urlsplit(el.url), urlsplit(page)
    return to.path == here.path and bool(to.query)


def destinations(task: str) -> set[str]:
    """The names a task sends its item to, when it names the item by who wrote it: "elisabetta" in "The mail by
    Brandea should be forwarded to Elisabetta", "fredia" in "Forward to Fredia the email that Anni sent to me". The
    default model opened Elisabetta's own mail and forwarded that. Without a "by" or "from" name ("Send a message to
    Bob") the name after "to" may well be the row to open. A possessive names the writer too ("forward Geneva's email
    to Larine": the default model opened Larine's mail)."""
    if not re.search(r"\b(?:by|from)\s+@?[A-Z]|\b[A-Z][\w'-]+\s+(?:sent|wrote|posted)\b|\b[A-Z][\w-]*['’]s\b", task):
        return set()
    return {w.lower() for w in re.findall(r"\bto\s+@?([A-Z][\w'-]+)", task)}


_TO_WRITE = re.compile(r"\b(?:text|message|saying|comment|note|reply|with)\s+[\"“']([^\"”']+)[\"”']", re.I)


def words_to_write(task: str) -> set[str]:
    """The words of the text the task asks to write ('reply to them with the text "Ultrices."'): they name nothing
    on the page. The default model opened the mail whose preview began "Ultrices" instead of Tillie's."""
    return {w for m in _TO_WRITE.finditer(task) for w in content_words(m.group(1))}


def check_named_instead(ctx: AgentContext, el: Element) -> None:
    """A control the task says nothing of, chosen while the page shows one to three controls the task names or
    shares a word with ("forward that email": its "Forward" button; "the message from Eilis": the mail row
    "Eilis Sagittis…"), is refused once with them: the default model clicked "Reply" beside "Forward" on two
    mails, and Nancee's mail for Eilis's, its reason a copy of the task. Fields, boxes, lists and submit buttons are the
    other rules'; a control sharing a word with the task (a mail row "Kendre ...") is named enough, but not by the
    name the item is sent to (destinations). A "search" icon on a page with no field to send is no submit: the
    default model opened the inbox's search and searched for the recipient, the sender's mail in sight. Chosen
    again, it is clicked."""
    name = el.name or el.text
    if ctx.pagemem is None or is_form_field(el) or requeries_this_page(el, ctx.url):
        return
    if submits(el) and any(is_form_field(e) and not e.disabled for e in ctx.pagemem.all_elements()):
        return  # a submit with fields to send is the other rules'; a "search" icon alone sends nothing
    asked = set(content_words(ctx.task)) - destinations(ctx.task) - words_to_write(ctx.task)
    if set(content_words(name)) & asked:
        return
    warning = (el.key, ("named instead",))
    if warning in ctx.submit_warnings:
        return
    modal = ctx.pagemem.modal()  # under a dialog only the dialog's controls are offered
    shown = modal.all_elements() if modal is not None else ctx.pagemem.all_elements()
    elements = [e for e in shown
                if not e.clicked and e.key != el.key and (e.name or e.text) and not e.column_header
                and not is_form_field(e) and not submits(e)
                and (names_action(ctx.task, e.name or e.text) or set(content_words(e.name or e.text)) & asked)
                and element_skip_reason(e, ctx.url, ctx.sites) is None]  # a link to this page: not offered
    named = dict.fromkeys(f'{e.role} "{(e.name or e.text)[:60]}"' for e in elements)
    if not 1 <= len(named) <= MAX_NAMED_INSTEAD:
        return
    ctx.submit_warnings.add(warning)
    raise NotYet(f"not clicked yet: the task names {', '.join(named)} here and nothing of {label(el)}; choose "
                 "what it names, or this again if it is still the way",
                 remedy=elements[0].ref if len(elements) == 1 else None)


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
    rows_named = [e for e in alike if telling & set(content_words(e.context))]
    named = [label(e) for e in rows_named]
    ctx.submit_warnings.add(warning)
    unused = [e for e in rows_named if not (e.clicked or e.selected or e.checked)]
    # The row's control is the way only when the task names the control too: asked to click a "Report" hidden in a
    # post's menu, the default model chose two posts' "retweet", and the remedy retweeted the named user's post.
    sure = names_in(ctx.task, name[1] or "")
    raise NotYet(f"not clicked yet: the task names {', '.join(sorted(telling))}, and this row says none of it; "
                 f"its row's are {', '.join(named[:MAX_NAMED_INSTEAD])}: choose one of those, or this again",
                 remedy=unused[0].ref if unused and sure else None)


MAX_OPENERS_SAID = 4


def is_closed_opener(e: Element) -> bool:
    """What hides part of the page: a tab not selected, a control that says it is collapsed (aria-expanded=false, a
    closed <details>' summary), a menu entry with a submenu not open (aria-haspopup: "Playback" holds "Play")."""
    popup = e.attrs.get("aria-haspopup", "false").lower() not in ("false", "")
    return not e.disabled and (e.expanded is False or (e.role == "tab" and not e.selected and e.expanded is not True)
                               or (popup and e.role == "menuitem" and e.expanded is not True)
                               or (_MORE_MENU.match(e.name or e.text or "") is not None and e.expanded is not True
                                   and not e.url))


# A "more" control saying nothing of its state: a post's or a row's menu of further actions ("⋯", an icon named "more").
_MORE_MENU = re.compile(r"^\s*(?:more|more (?:options|actions)|options|actions|…|\.\.\.|⋯|⋮|︙)\s*$", re.I)


_ASKS_EXPAND = re.compile(r"\b(?:expand|open|unfold|show)\b", re.I)
_EXPANDER = re.compile(r"^\s*(?:\+|⊕|＋)(?:\s*\(\w+\))?\s*$")


def in_named_row(task: str, e: Element) -> bool:
    """The element's row or card (Element.context) shares words with the task: a post by "@kenda"."""
    return bool(e.context) and bool(set(content_words(task)) & set(content_words(e.context)))


def named_row_first(task: str, openers: list[Element]) -> list[Element]:
    """The openers, those in a row the task names first."""
    return sorted(openers, key=lambda e: not in_named_row(task, e))


def _page_text(pagemem) -> str:
    """What the page shows as text: its sections' details (their items' too), its elements' names, and what its
    fields hold (the words typed into a search box are on the page: the results under it need not repeat them)."""
    def walk(sections):
        for sec in sections:
            yield sec.details
            yield from walk(sec.items)
    return " ".join([*walk(pagemem.sections), *(e.name or e.text or "" for e in pagemem.all_elements()),
                     *(e.value or "" for e in pagemem.all_elements() if not e.is_password)])


def _is_paging(e: Element) -> bool:
    return e.role == "link" and is_page_link_name(e.name or e.text or "")


def check_target_hidden(ctx: AgentContext, el: Element) -> None:
    """A control the task does not name, chosen while the task quotes the name of what it is after ("find and click on
    the link "Dui"") and no element of the page bears that name, is refused once while the page has closed tabs or
    sections: what the task names is behind one of them. The default model opened one tab, found no "Dui" there and
    clicked a word of that tab instead, which ended the episode. Openers, fields and submit buttons are not refused;
    chosen again, the control is clicked.

    The same holds for a name the task gives ("Find Viv in the contact book and click on their address") that the
    page shows nowhere, while it has closed openers or links to the list's other pages: the default model clicked the
    address of the one contact shown, someone else's. Only a control that stays on the page is refused so (a link to
    another page may lead to the name)."""
    if ctx.pagemem is None or is_form_field(el) or submits(el) or _is_paging(el):
        return
    shown = [e for e in ctx.pagemem.all_elements() if not e.disabled]
    # A field's value counts: the words typed into a search box are on the page (its results need not repeat them).
    names = [n for e in shown if (n := e.name or e.text)] + [e.value for e in shown if e.value and not e.is_password]
    missing = [q for q in quoted_as_written(ctx.task) if not any(names_in(n, q) for n in names)]
    if not missing and not el.url and not is_closed_opener(el):
        text = _page_text(ctx.pagemem)
        missing = [v.text for v in identifiers(ctx.task, one_word=True) if v.kind == "name" and not names_in(text, v.text)]
    # A lone "+" never used is an opener too when the task asks to expand or open something ("Expand the pie menu
    # below and click on the item labeled "p"": the default model clicked a letter of the closed pie instead).
    expands = _ASKS_EXPAND.search(ctx.task) is not None
    closed = [e for e in shown if e.key != el.key
              and (is_closed_opener(e) or (expands and not e.clicked and _EXPANDER.match(e.name or e.text or "")))]
    # Those not opened yet first: the default model went back to the tab it had just left. Of alike ones (a "more" per
    # post), the one in the row the task names first.
    unopened = named_row_first(ctx.task, [e for e in closed if not e.clicked])
    openers = dict.fromkeys(label(e) for e in unopened or closed)
    pages = dict.fromkeys(label(e) for e in shown if _is_paging(e) and not e.clicked and e.key != el.key)
    warning = (el.key, ("target hidden",))
    if not missing or not (openers or pages) or warning in ctx.submit_warnings:
        return
    if is_closed_opener(el):  # an opener: the way to it, unless it was opened already and others were not
        if not (el.clicked and unopened):
            return
        ctx.submit_warnings.add(warning)
        raise NotYet(f'not clicked yet: {label(el)} was opened already and showed nothing named "{missing[0]}"; '
                     f"{', '.join(list(openers)[:MAX_OPENERS_SAID])} {'was' if len(openers) == 1 else 'were'} not opened "
                     "yet: open one of those, or this again")
    ctx.submit_warnings.add(warning)
    if openers:
        # An opener in the one row the task names is the way ("Report" in the menu of @kenda's post). A target the
        # task quotes, on no element here, is behind the first opener not opened yet, which is opened at once: told
        # "open that first", the default model reopened the tab it had seen and clicked a word of it.
        in_row = [e for e in unopened if in_named_row(ctx.task, e)]
        quoted = missing[0] in quoted_as_written(ctx.task)
        way = in_row[0] if len(in_row) == 1 else (unopened[0] if quoted and unopened else None)
        raise NotYet(f'not clicked yet: no element on this page is named "{missing[0]}", which the task asks for; it '
                     f"may be behind {', '.join(list(openers)[:MAX_OPENERS_SAID])}: open that first, or choose this again",
                     remedy=way.ref if way is not None else None, at_once=way is not None and len(in_row) != 1)
    raise NotYet(f'not clicked yet: this page shows nothing of "{missing[0]}", which the task names; it may be on '
                 f"another page of the list ({', '.join(list(pages)[:MAX_OPENERS_SAID])}): go there first, or choose "
                 "this again")


# A prompt's buttons: the one that goes along with what it asks, and the one that sends it away.
_ACCEPTS = re.compile(r"^(?:ok|okay|yes|exit|leave|continue|confirm|accept|sure|proceed|go)\b", re.I)
_DISMISSES = re.compile(r"^(?:cancel|no|close|stay|dismiss|not now|later|×|✕)(?:\W|$)", re.I)


def check_unasked_prompt(ctx: AgentContext, el: Element) -> None:
    """The accepting button (OK, Yes, Exit) of a prompt that asks something the task says nothing of (a question
    whose words the task shares none of: "Your session is expiring soon. Exit to home page?", popped up when a
    field was focused) is refused once with the prompt's own dismissing button: the default model pressed OK and
    left the page its log-in was on. A prompt the task's own action raised ("Delete this mail?" for "Delete the
    mail ...") shares its words and is let through; chosen again, the button is clicked."""
    name = el.name or el.text
    if ctx.pagemem is None or not name or not _ACCEPTS.match(name) or (el.key, ("unasked",)) in ctx.submit_warnings:
        return
    section = ctx.pagemem.section_of(el.ref)
    asked = el.context if "?" in el.context else (section.details if section is not None and section.kind == "modal" else "")
    question = next((q.strip() for q in re.findall(r"[^.?!\n]*\?", asked) if q.strip()), None)
    if question is None or set(content_words(asked)) & set(content_words(ctx.task)):
        return
    near = list(section.all_elements()) if section is not None else []
    dismiss = [e for e in near if e.key != el.key and not e.disabled and _DISMISSES.match(e.name or e.text or "")]
    if not dismiss:
        return
    ctx.submit_warnings.add((el.key, ("unasked",)))
    raise NotYet(f'not clicked yet: this answers "{question}", which the task does not ask; {label(dismiss[0])} '
                 "sends it away and goes back to the task: choose that, or this again")


def check_ordinal(ctx: AgentContext, el: Element) -> None:
    """A control of the kind the task counts ("click the 1st checkbox", "the third button"), chosen when it is not
    the one at that place among the page's controls of that kind (in page order), is refused once with the one that
    is: the default model, offered 'checkbox (1 of 3)', '(2 of 3)', '(3 of 3)' for "click the 1st checkbox", ticked
    the second. Chosen again, it is clicked, unless the one at that place was used since: then it is refused once
    more, as done (the model ticked the 2nd checkbox as told, then the 1st it had been refused)."""
    if ctx.pagemem is None:
        return
    for m, kind, at in counted_controls(ctx.task, list(ctx.pagemem.all_elements())):
        if not of_named_kind(m.group("kind"), el):
            continue
        if not 1 <= at <= len(kind) or kind[at - 1].key == el.key:
            return
        target = kind[at - 1]
        warning = (el.key, ("ordinal done",) if target.clicked else ("ordinal",))
        if warning in ctx.submit_warnings:
            return
        ctx.submit_warnings.add(warning)
        here = next((i for i, e in enumerate(kind, 1) if e.key == el.key), None)
        this = f"; this one is {here} of {len(kind)}" if here else ""
        if target.clicked:
            raise NotYet(f"not clicked yet: the task asks for {m.group(0)}, which is {label(target)} ({at} of "
                         f"{len(kind)} in page order), used already{this}: go on with the task, or this again")
        raise NotYet(f"not clicked yet: the task asks for {m.group(0)}, which is {label(target)} ({at} of "
                     f"{len(kind)} in page order){this}: choose that, or this again", remedy=target.ref)


def check_superlative(ctx: AgentContext, el: Element) -> None:
    """One of alike controls, one per card (Element.context: "Book for $1476" on a card saying "Duration: 8h 37m"),
    whose card does not hold the extreme the task's superlative asks for ("the ticket with the shortest duration",
    "the cheapest one"), is refused once with the one whose card does: the default model said which card was the
    shortest and booked another. Chosen again, it is clicked."""
    if ctx.pagemem is None or not el.context or (el.key, ("superlative",)) in ctx.submit_warnings:
        return
    own = alike_key(el.role, el.name or el.text)
    alike = [e for e in ctx.pagemem.all_elements()
             if e.context and not e.disabled and alike_key(e.role, e.name or e.text) == own]
    ranked = ranked_controls(ctx.task, [f"{e.card or e.context} {e.name or e.text}" for e in alike])
    mine = next((i for i, e in enumerate(alike) if e.key == el.key), None)
    if ranked is None or mine is None or mine in ranked.best:
        return
    ctx.submit_warnings.add((el.key, ("superlative",)))
    best = ranked.best[0]
    raise NotYet(f"not clicked yet: the task asks for {ranked.said}, which is {ranked.values[best]} ({label(alike[best])}); "
                 f"this one's is {ranked.values[mine]}: choose that, or this again", remedy=alike[best].ref)


_PARITY = {"odd": 1, "even": 0}
_INTEGER = re.compile(r"^\s*[-−+]?\d+\s*$")


def check_parity(ctx: AgentContext, el: Element) -> None:
    """"Odd" chosen for an item whose number is even, or "Even" for an odd one (the number is the item's text:
    `button "Odd" (for "0")`), is refused once with the other button of that item: the default model marked 0 and
    -1 both odd. Chosen again, it is clicked."""
    name = (el.name or el.text).strip().lower()
    if ctx.pagemem is None or name not in _PARITY or not _INTEGER.match(el.context or "") or \
            (el.key, ("parity",)) in ctx.submit_warnings:
        return
    number = int(el.context.strip().replace("−", "-"))
    if number % 2 == _PARITY[name]:
        return
    other = next((e for e in ctx.pagemem.all_elements() if e.context == el.context and e.role == el.role
                  and (e.name or e.text).strip().lower() == ("even" if name == "odd" else "odd")), None)
    if other is None:
        return
    ctx.submit_warnings.add((el.key, ("parity",)))
    raise NotYet(f"not clicked yet: {number} is {'even' if number % 2 == 0 else 'odd'}, so {label(other)} is its choice: "
                 "choose that, or this again", remedy=other.ref)


def check_nth_result(ctx: AgentContext, el: Element) -> None:
    """A result link other than the one the task counts ("click the 6th search result"), counted over the list's
    pages, is refused once with it or with the page link toward it (act/nth_result.py). Chosen again, it is
    clicked."""
    if ctx.pagemem is None or (el.key, ("nth result",)) in ctx.submit_warnings:
        return
    found = nth_result(ctx.task, ctx.pagemem, ctx.results_per_page)
    if found is not None and not found.last_page:
        ctx.results_per_page = found.per_page
    if found is None or (found.target is not None and found.target.key == el.key):
        return
    other_result = el.role == "link" and any(r.key == el.key for r in found.results)
    # With the counted result on the page shown, the search's own controls are no way to it either: on page 2, the
    # default model pressed Search again, which brought back page 1.
    in_the_way = found.target is not None and not found.target.clicked and not _is_paging(el) \
        and (submits(el) or is_form_field(el))
    if not (other_result or in_the_way):
        return
    ctx.submit_warnings.add((el.key, ("nth result",)))
    raise NotYet(f"not clicked yet: {found.where()}: choose that, or this again",
                 remedy=found.way.ref if found.way is not None else None)


# "Click on a "text" widget", "click the checkbox", "focus into the text area": the kind of control the task acts on.
# A bare "text" is a kind only quoted before a word for a control ("select the text" is a passage to highlight).
_KIND_NAMED = re.compile(r"\b(?:click|tick|check|select|choose|press|focus)\s+(?:on\s+|into\s+)?(?:the|a|an)\s+"
                         r"(?:\"(?P<quoted>text|check\s?box|radio|button|link|textarea)\"\s+(?:widget|element|control|one)|"
                         r"(?P<kind>check\s?box|radio\s+button|text\s?(?:box|field|input|area)|textarea))\b", re.I)


def check_kind_named(ctx: AgentContext, el: Element) -> None:
    """A control of another kind than the one the task acts on ("Click on a "text" widget": the default model,
    offered a checkbox, two text inputs and two radios, ticked the checkbox), while one of that kind is on the page,
    is refused once with those of the kind."""
    m = _KIND_NAMED.search(ctx.task)
    if ctx.pagemem is None or m is None or (el.key, ("kind",)) in ctx.submit_warnings:
        return
    kind = m.group("quoted") or m.group("kind")
    if of_named_kind(kind, el) or ((name := el.name or el.text) and names_action(ctx.task, name)):
        return  # what the task names by name ("... and click Submit") is its own
    of_kind = [e for e in ctx.pagemem.all_elements() if of_named_kind(kind, e) and not e.disabled]
    if not of_kind or any(e.clicked for e in of_kind):
        return  # none here, or one was used already
    ctx.submit_warnings.add((el.key, ("kind",)))
    said = "text field" if kind.lower() == "text" else kind.lower()
    shown = ", ".join(label(e) + (f' value="{e.value}"' if e.value and not e.is_password else "")
                      for e in of_kind[:MAX_NAMED_SAID])
    raise NotYet(f"not clicked yet: the task acts on a {said}, and {label(el)} is not one; {shown} "
                 f"{'is' if len(of_kind) == 1 else 'are'}: choose one of those, or this again")


def check_glyph_named(ctx: AgentContext, el: Element) -> None:
    """A control other than the one a glyph the task quotes means ('clicking the "x"': the close button, named
    "Close" by its title), while no element bears the glyph itself and exactly one control says that meaning, is
    refused once with it: the default model clicked "OK" for the dialog's "x"."""
    if ctx.pagemem is None or (el.key, ("glyph",)) in ctx.submit_warnings:
        return
    shown = [e for e in ctx.pagemem.all_elements() if not e.disabled and not is_form_field(e)]
    for quote in quoted_as_written(ctx.task):
        meaning = glyph_meaning(quote) or ("close" if quote.strip() in ("x", "X") else "")
        if not meaning or any((e.name or e.text).strip() == quote.strip() for e in shown):
            continue
        means = [e for e in shown if names_in(e.name or e.text, meaning)]
        if len(means) > 1:  # a title bar's close button and the icon inside it that shares its name: the button
            means = [e for e in means if e.role in ("button", "link")] or means
        if len(means) != 1 or means[0].key == el.key or names_in(el.name or el.text, meaning):
            return
        ctx.submit_warnings.add((el.key, ("glyph",)))
        raise NotYet(f'not clicked yet: the task\'s "{quote}" is the {meaning} control, {label(means[0])}; '
                     "choose that, or this again", remedy=means[0].ref)


def check_box_named(ctx: AgentContext, el: Element) -> None:
    """A checkbox the task does not name, ticked while the task names other boxes here by their labels, is refused
    once: the default model's page summary listed a box the task never named among those to select, and the actor
    ticked it after the two named ones, or, refused the submit for the named ones, instead of them. Once a page:
    that box chosen again, or another unnamed one, is ticked (a task may name a box in other words)."""
    if ctx.pagemem is None or not is_checkbox(el) or el.checked or not (name := el.name or el.text):
        return
    warning = (ctx.pagemem.url, ("box named",))  # once a page: a second box chosen unnamed is the model's insistence
    if names_in_any_number(ctx.task, name) or warning in ctx.submit_warnings:
        return
    named = [e for e in ctx.pagemem.all_elements() if is_checkbox(e) and e.key != el.key
             and (e.name or e.text) and names_in_any_number(ctx.task, e.name or e.text)]
    if not named:
        return
    ctx.submit_warnings.add(warning)
    said = ", ".join(label(e) for e in named[:MAX_NAMED_SAID])
    if all(e.checked for e in named):
        raise NotYet(f"not checked yet: the task names {said}, checked already, and nothing of {label(el)}; go on "
                     f"with the task, or check this if the task means it")
    unchecked = ", ".join(label(e) for e in [e for e in named if not e.checked][:MAX_NAMED_SAID])
    raise NotYet(f"not checked yet: the task names {said} and nothing of {label(el)}; check {unchecked} instead, "
                 f"or this if the task means it")


def names_in_any_number(task: str, name: str) -> bool:
    """The task names it as written, or a one-word name in the singular or the plural ("bunny" for "bunnies"): the
    default model's box "bunny" was refused for a task listing "bunnies"."""
    if names_in(task, name):
        return True
    words = name.split()
    return len(words) == 1 and singular(words[0]) in {singular(w) for w in whole_words(task)}


def check_named_fields_set(ctx: AgentContext, el: Element, section: PageSection | None) -> None:
    """A submit-like button outside any form, clicked while boxes or options the task names are unset, is
    refused once (act/named_fields.py): the model is told what is left; chosen again later, it is clicked."""
    if not submits(el) or ctx.pagemem is None:
        return
    fields = fields_in_scope(ctx.pagemem, section)
    left = tuple(unset_named(ctx.task, fields, ctx.typed_secrets))
    warning = (el.key, left)
    if not left or warning in ctx.submit_warnings:
        return
    ctx.submit_warnings.add(warning)
    # The one thing left is a box or radio the task names by its label ("Select m9KQex and click Submit"), or a
    # number field holding another number than the task's: it is set at once (the number typed). Told so, the default
    # model checked the radio its summary had named instead and submitted, and clicked a spinner's "up" past the
    # number three times.
    settable = [e for e in fields if (is_checkable(e) or is_number_field(e)) and unset_choice(ctx.task, e)]
    raise NotYet(f"not clicked yet: the task names what is unset here ({'; '.join(left)}); set that first",
                 remedy=settable[0].ref if len(left) == 1 and len(settable) == 1 else None, at_once=True)


_REPLY = re.compile(r"^\s*(re:?\s*)?reply\b", re.I)
_FORWARD = re.compile(r"^\s*(fwd?:?\s*)?forward\b", re.I)
_ASKS_REPLY = re.compile(r"\b(reply|replies|replying|respond|answer|write back)\b", re.I)


def check_reply_for_forward(ctx: AgentContext, el: Element) -> None:
    """A "Reply" while the task sends the message to a name or address the page does not show (a reply goes to the
    sender, who is on the page), says nothing of replying, and a "Forward" is on the page: refused once, with the
    Forward as the way. "Go to the message from Otha and send it to Fredrika": the default model replied to Otha
    and typed "to: Fredrika" into the reply's text, on two seeds."""
    name = el.name or el.text or ""
    if not _REPLY.match(name) or _ASKS_REPLY.search(ctx.task) or ctx.pagemem is None:
        return
    shown = _page_text(ctx.pagemem)
    sent_to = [r for r in recipients(ctx.task) if not names_in(shown, r.lstrip("@"))]
    forward = next((e for e in ctx.pagemem.all_elements() if _FORWARD.match(e.name or e.text or "")), None)
    warning = (el.key, ("reply for forward",))
    if not sent_to or forward is None or warning in ctx.submit_warnings:
        return
    ctx.submit_warnings.add(warning)
    raise NotYet(f'not clicked yet: a reply goes back to the sender, and the task sends the message on to "{sent_to[0]}"; '
                 f"forward it with {label(forward)}, or this again if a reply is meant", remedy=forward.ref)

