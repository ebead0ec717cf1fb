"""SubmitForm (App. A.5, Algorithm 9): choose fields, fill each, validate, then review: edit, submit or leave.

Everything happens inside one agent step. Each field is filled through ElementAction (routing.py), as its type
requires: a custom combobox is opened and an option picked, an autocomplete field typed into and a suggestion
picked, a <select> gets SelectOption, a file input UploadFile, a text field the value field_value asks for.
The review loop only offers the form's own fields. Submission asks ctx.confirm first unless the form is a real
site search (confirmation.py decides by what the form does); declining raises ActionFailed with the fill actions
already done. A field that cannot be filled is logged and skipped, not fatal (what it did, e.g. opening a
combobox, is kept). A field whose action left the page or opened a modal ends the workflow there. A form left
unsubmitted says so in the history, and why: the model chose to leave it, or the review ran out of rounds. A
review edit that changes no field ends the review: the form is submitted. The fields the task names a box or an
option of, unset, are filled even when field selection left them out, and the review's Submit is refused once while
they are unset (named_fields.py: the same precondition as a submit button's outside a form). The counterpart:
the review's Leave is refused once while every field the task names a value for holds it and the task names what
the form does (its submit button or label: "Log in"); then the form is submitted (leave_refused). A compound task's
review is shown its parts, the done ones ticked, and the part this form serves (task_parts.py); a submission that
changed the page ticks that part done. With no valid field selection, every field but the boxes and radios stands
in (llm/fallback.py); a decision with none (a value, the review) ends the step as a no-op, and the fills done
before it stay in the step's history (NoDecision.done).
"""

from __future__ import annotations

import logging
import re
from typing import Callable

from companion import llm
from companion.act import action_strings as say
from companion.act.basic import CHOICE_TOKENS, browser, settle, value_by_rule
from companion.act.confirmation import confirm_action
from companion.act.context import AgentContext
from companion.act.elements import (
    field_description, is_checkable, is_empty, is_form_field, is_native_select, label, plain_label,
)
from companion.act.errors import ActionFailed
from companion.act.models import FieldAction, FormField, Outcome
from companion.act.named_fields import (
    NTH_KIND, destination_field, named_values_held, names_action, of_named_kind, set_value_for, unset_choice,
    unset_named, value_named_for, words_unplaced,
)
from companion.llm.fallback import NoDecision
from companion.llm.fit import declare_choice, declare_subset
from companion.pagemem.model import Element, PageSection
from companion.pagemem.widgets import is_submit_button, is_submit_like, is_text_field
from companion.text import place

log = logging.getLogger(__name__)

REVIEW_ROUNDS = 3  # edits before the form is left as it is: a small model can loop on "edit"
FIELD_PICK_TOKENS_MAX = 120  # ~4 tokens per listed index
SUBMIT = "Submit the form"
LEAVE = "Leave the form without submitting"
declare_subset("form_field_selection", FIELD_PICK_TOKENS_MAX)
declare_choice("form_review", CHOICE_TOKENS)


def is_custom_select(el: Element) -> bool:
    """A chooser that is not a native <select>: an ARIA combobox one does not type into, or a button that opens a
    listbox (a styled select). A field of its form, not a plain button."""
    if is_text_field(el) or is_native_select(el):
        return False
    return el.role == "combobox" or el.attrs.get("aria-haspopup", "").lower() == "listbox"


def form_fields(section: PageSection) -> list[Element]:
    return [e for e in section.all_elements() if (is_form_field(e) or is_custom_select(e)) and not e.disabled]


def describe(ctx: AgentContext, el: Element) -> str:
    """A field's line for the form prompts. A custom select has no value: what it shows ("Choose a pot", then the
    option picked) is its state, so the review can tell a chosen option from an unset one."""
    line = field_description(el, ctx.typed_secrets)
    shown = " ".join((el.text or "").split())
    if is_custom_select(el) and not el.value and shown and shown != el.name:
        line += f' shows "{shown[:80]}"'
    return line


def submit_button(section: PageSection) -> Element | None:
    buttons = [e for e in section.all_elements() if not is_form_field(e) and is_submit_like(e) and not e.disabled]
    typed = [e for e in buttons if is_submit_button(e)]  # what the browser submits with
    return (typed or buttons or [None])[0]


def form_purpose(section: PageSection) -> str:
    return section.purpose or section.summary or (section.attrs.get("aria-label") or f"form {section.id}")


def _current(ctx: AgentContext, section: PageSection, detached: bool) -> PageSection:
    """The section as the latest refresh sees it (refresh replaces Element objects). A detached section
    is not in the PageMem: its elements are looked up one by one and dropped when gone."""
    pm = ctx.pagemem
    if pm is None:
        return section
    if not detached:
        return pm.section(section.id) or section
    live = [pm.element_by_ref(e.ref) for e in section.elements]
    return section.model_copy(update={"elements": [e for e in live if e is not None]})


def _validation_problem(el: Element, typed_secrets: set[tuple[int, int]]) -> str | None:
    if el.attrs.get("aria-invalid", "false").lower() == "true":
        return "the page marks this field as invalid"
    if el.required and is_empty(el, typed_secrets) and (is_text_field(el) or el.tag == "select" or el.input_type == "checkbox"):
        return "this field is required but still empty"
    return None


OTHERS_CHARS = 600  # the other filled fields shown with one field's question


def _others(ctx: AgentContext, el: Element, fields: list[Element]) -> str:
    """The form's other text fields (`fields`, as the page now has them) that hold a value, as their lines ("" when
    none): what a field's value may be read from ("Copy the text in the text area, paste it into the textbox": the
    field alone did not show it)."""
    live = [_live(ctx, f) or f for f in fields]
    lines = [describe(ctx, e) for e in live if e.key != el.key and is_text_field(e) and not e.is_password
             and (e.value or "").strip()]
    return "; ".join(lines)[:OTHERS_CHARS]


async def _fill(ctx: AgentContext, fill: FieldAction, el: Element, purpose: str, actions: list[str],
                problem: str = "", others: str = "") -> Outcome | None:
    """ElementAction (`fill`) on one field (Algorithm 9). Returns its outcome when it left the page or opened a
    modal (the form cannot go on), else None. `others`: the form's other filled fields, for a field whose value the
    task reads from one of them."""
    try:
        outcome = await fill(ctx, el, form=FormField(purpose=purpose, problem=problem, others=others))
    except ActionFailed as exc:
        actions.extend(exc.done)  # e.g. the combobox did open: the history says so
        log.info("could not fill %s: %s", label(el), exc)
        return None
    actions.extend(outcome.actions)
    if outcome.url_changed or outcome.modal_opened:
        return Outcome(actions=actions, url_changed=outcome.url_changed, modal_opened=outcome.modal_opened)
    return None


async def submit_form(ctx: AgentContext, section: PageSection, *, fill: FieldAction, detached: bool = False) -> Outcome:
    """Run the whole form workflow on `section` (a form section, or a detached section: a <form>
    gathered across sections, or elements a dropdown revealed). Returns the basic actions done; url_changed when the submission left the page.
    fill: ElementAction (routing.element_action), which fills each field as its type requires."""
    purpose = form_purpose(section)
    fields = form_fields(section)
    if not fields:
        raise ActionFailed(f"{purpose} has no fields to fill")
    actions: list[str] = []
    try:
        return await _fill_and_review(ctx, fill, section, detached, purpose, fields, actions)
    except NoDecision as exc:  # the fills so far happened in the browser: the step's history keeps them
        raise NoDecision(str(exc), done=actions + exc.done) from exc


def _fields_to_fill(fields: list[Element]) -> list[int]:
    """form_field_selection's stand-in (no valid answer): every field one fills with a value (text, select, file,
    custom select), not the boxes and radios (ticking every one is no neutral default); with_named adds those the
    task names."""
    return [i for i, e in enumerate(fields) if not is_checkable(e)]


async def _fill_and_review(ctx: AgentContext, fill: FieldAction, section: PageSection, detached: bool, purpose: str,
                           fields: list[Element], actions: list[str]) -> Outcome:
    """submit_form's phases; `actions` gets each basic action as it is done."""
    variables = {"task": ctx.task, "history": ctx.history_text(), "form_purpose": purpose}
    review_parts = _parts_shown(ctx, section)

    # Phase 1: which fields, then fill each. A set-errand naming one of the form's fields ("Change the city of … to
    # Munich") has chosen it: no call (the default model chose all eleven fields of a record's form for one city).
    named = [i for i, e in enumerate(fields) if set_value_for(ctx.task, e) is not None]
    into = destination_field(ctx.task, fields)
    if len(named) == 1:
        chosen = named
    elif into is not None:
        chosen = [into]
    else:
        reply = await llm.or_stand_in(
            llm.choose_many("form_field_selection", {**variables, "fields": [describe(ctx, e) for e in fields]},
                            n=len(fields), max_tokens=min(FIELD_PICK_TOKENS_MAX, 16 + 4 * len(fields))),
            lambda: None, prompt="form_field_selection",
            what="every field but the boxes and radios (and those the task names)")
        chosen = reply.answer.indices if reply is not None else _fields_to_fill(fields)
    for i in with_named(ctx.task, fields, chosen, lambda e: value_by_rule(ctx, e)):
        # The fields as the page now has them: filling one (opening a combobox) refreshes the PageMem.
        el = _live(ctx, fields[i])
        # The field a task puts a value "into" by its kind gets the others shown: its value is read from one of them
        # (shown to every field, the default model copied the year into the director's field).
        others = _others(ctx, el, fields) if el is not None and i == into else ""
        if el is not None and (ended := await _fill(ctx, fill, el, purpose, actions, others=others)):
            return ended

    # Phase 1b: the one text field left empty while the others hold the task's values and a few of the task's words
    # are in no field ("Search for urban movies directed by Hammond from year 1994" with Genre empty) is filled, the
    # model told which words are left: it chose Director and Year, and the form went with Genre empty, on two layouts.
    await settle(ctx)
    section = _current(ctx, section, detached)
    if (unplaced := words_unplaced(ctx.task, form_fields(section), ctx.typed_secrets)) is not None:
        words, empty = unplaced
        problem = f'it is empty, and the task\'s words "{words}" are in no field: type what of them belongs here'
        if ended := await _fill(ctx, fill, _live(ctx, empty) or empty, purpose, actions, problem):
            return ended

    # Phase 2: one validation pass over what the page now reports.
    await settle(ctx)
    section = _current(ctx, section, detached)
    for el in form_fields(section):
        problem = _validation_problem(el, ctx.typed_secrets)
        if problem and (ended := await _fill(ctx, fill, _live(ctx, el) or el, purpose, actions, problem)):
            return ended

    # Phase 3: review loop restricted to this form's fields. An edit that changes no field (selecting the option
    # selected, re-picking a custom menu's shown entry, typing the value held) says the model holds the form
    # right and has nothing left to change: the review is over and the form goes ahead. A small model re-picked
    # the field the task names in every round until the rounds ran out and the form was left unsubmitted.
    edited_from = None  # the fields as they were before the last edit
    refused: tuple[str, ...] = ()  # what a refused submit said is left, shown to the next review round
    for edits in range(REVIEW_ROUNDS + 1):
        await settle(ctx)
        section = _current(ctx, section, detached)
        fields = form_fields(section)
        state = "\n".join(describe(ctx, e) for e in fields)
        if state == edited_from:
            log.info("the review's edit changed no field: submitting")
            return await _submit(ctx, section, purpose, fields, actions)
        if edits == REVIEW_ROUNDS:  # each edit changed something, and the rounds are used up
            break
        options = [f"Edit field: {describe(ctx, e)}" for e in fields] + [SUBMIT, LEAVE]
        shown = state + (f"\nNot as the task says yet: {'; '.join(refused)}" if refused else "")
        reply = await llm.decided_twice(lambda v: llm.choose("form_review", v, n=len(options), max_tokens=CHOICE_TOKENS),
                                        {**variables, **review_parts, "form_state": shown, "options": options},
                                        prompt="form_review")
        refused = ()
        choice = reply.answer.index
        if choice < len(fields):
            edited_from = state  # a NoOp edit (refused before acting) leaves it so too
            if ended := await _fill(ctx, fill, fields[choice], purpose, actions):
                return ended
            continue
        if options[choice] == LEAVE:
            if why := leave_refused(ctx, section, purpose, fields):
                log.info("the review's leave refused once: %s", why)
                actions.append(say.kept_form(why))
                return await _submit(ctx, section, purpose, fields, actions)
            actions.append(say.left_form())
            return Outcome(actions=actions)
        if edits < REVIEW_ROUNDS - 1 and (refused := submit_refused(ctx, purpose, fields)):  # a round is left to ask
            log.info("the review's submit refused once: %s", "; ".join(refused))
            continue
        return await _submit(ctx, section, purpose, fields, actions)
    # The review budget ran out: the form stays as it is, and the model is told it was not submitted.
    actions.append(say.left_form_at_review_limit(purpose, REVIEW_ROUNDS))
    return Outcome(actions=actions)


def with_named(task: str, fields: list[Element], chosen: list[int],
               valued: Callable[[Element], str | None] | None = None) -> list[int]:
    """The fields the model chose, then those it left out while the task names a box or option of theirs that is
    unset (named_fields.unset_choice), or gives a value by rule for an empty text field (`valued`, basic.value_by_rule;
    by default named_fields.value_named_for): such a field is the task's by the task's own words. The default model
    chose only the email for "Subscribe ada@example.com to the monthly newsletter", and the form went with
    "Weekly"; it chose From and To for a flight "on 11/15/2016" and sent the form with its departure date empty, six
    times; it chose "Color" of a form whose "Gender" the table beside it gave too."""
    valued = valued or (lambda e: value_named_for(task, e))
    chosen = counted_fields(task, fields, chosen)
    return list(chosen) + [i for i, e in enumerate(fields) if i not in chosen and (
        unset_choice(task, e) or (is_text_field(e) and not e.is_password and not (e.value or "").strip()
                                  and valued(e) is not None))]


_SOURCE = re.compile(r"\b(?:from|in|of|inside|within)\s*$", re.I)


def counted_fields(task: str, fields: list[Element], chosen: list[int]) -> list[int]:
    """The chosen fields with those the task counts by kind ("the 3rd radio button", "the 2nd textbox") at their
    places: a chosen field of a counted kind that is not at a counted place gives way to the one that is. The
    default model chose the 1st textbox for "enter the number "10" into the 2nd textbox"."""
    counted: dict[str, set[int]] = {}
    for m in NTH_KIND.finditer(task):
        if _SOURCE.search(task[:m.start()]):
            continue  # "copy the text from the 2nd text area": a field read, not filled
        kind = " ".join(m.group("kind").lower().split())
        of_kind = [i for i, e in enumerate(fields) if of_named_kind(kind, e)]
        at = place(m.group("nth"), len(of_kind))
        if 1 <= at <= len(of_kind):
            counted.setdefault(kind, set()).add(of_kind[at - 1])
    if not counted:
        return list(chosen)
    def off_place(i: int) -> bool:
        return any(of_named_kind(kind, fields[i]) and i not in places for kind, places in counted.items())
    kept = [i for i in chosen if not off_place(i)]
    return kept + sorted(i for places in counted.values() for i in places if i not in kept)


def submit_refused(ctx: AgentContext, purpose: str, fields: list[Element]) -> tuple[str, ...]:
    """The review's Submit while the task names what is unset in the form (as check_named_fields_set does for a
    submit button outside a form): refused once per form and what is left, which the next round is shown; chosen
    again, the form is submitted (the task may name a label for another reason)."""
    left = tuple(unset_named(ctx.task, fields, ctx.typed_secrets))
    warning = (f"form:{purpose}", left)
    if not left or warning in ctx.submit_warnings:
        return ()
    ctx.submit_warnings.add(warning)
    return left


def _action_names(section: PageSection) -> list[str]:
    """What says what the form does: its submit button's name and the form's own label."""
    button = submit_button(section)
    return [n for n in ((button.name or button.text if button else ""), section.attrs.get("aria-label", "")) if n]


def _served(ctx: AgentContext, section: PageSection) -> str:
    """The text of the part of the task this form serves: the first part not done that names what the form does;
    the whole task when none does (or the task has one part)."""
    i = ctx.parts.serving(_action_names(section))
    return ctx.parts.parts[i].text if i is not None and ctx.parts.compound else ctx.task


def _parts_shown(ctx: AgentContext, section: PageSection) -> dict:
    """The review prompt's view of a compound task: its parts, ticked, and the one this form serves."""
    if not ctx.parts.compound:
        return {}
    served = _served(ctx, section)
    return {"parts": ctx.parts.listed(), "part": served if served != ctx.task else ""}


def leave_refused(ctx: AgentContext, section: PageSection, purpose: str, fields: list[Element]) -> str:
    """Why the review's Leave is refused (once per form and evidence in a task; "" when it is not): the part of
    the task this form serves names what the form does (names_action: its submit button or label), and every
    field that part names a value for holds it (named_values_held). The default model left a log-in form so
    filled, judging it against the question that followed the log-in."""
    names = _action_names(section)
    task = _served(ctx, section)
    named = next((n for n in names if names_action(task, n)), None)
    held = named_values_held(task, fields, ctx.typed_secrets) if named else []
    warning = (f"leave:{purpose}", tuple(held))
    if not held or warning in ctx.submit_warnings:
        return ""
    ctx.submit_warnings.add(warning)
    return f'the task asks for "{named}" and {", ".join(held)}'


def _live(ctx: AgentContext, el: Element) -> Element | None:
    """The field as the latest refresh sees it (None: it is gone from the page)."""
    return ctx.pagemem.element_by_ref(el.ref) if ctx.pagemem is not None else el


async def _submit(ctx: AgentContext, section: PageSection, purpose: str, fields: list[Element], actions: list[str]) -> Outcome:
    button = submit_button(section)
    last = next((e for e in reversed(fields) if is_text_field(e)), None)
    if button is None and last is None:
        raise ActionFailed(f"{purpose}: no submit button and no text field to press Enter in", actions)
    shown = ", ".join(describe(ctx, e) for e in fields)
    # One question for the whole submission (the click or Enter below is not asked again).
    await confirm_action(ctx, "submit", button or last, section=section, done=actions,
                         what=f"Submit the form '{purpose}'" + (f" with {plain_label(button)}" if button else "") + f" ({shown})")
    modal_before = ctx.pagemem.modal() is not None if ctx.pagemem else False
    if button is not None:
        result = await browser(ctx, ctx.session.click(button.ref, tab=ctx.tab), f"submitting with {label(button)}")
        actions.append(say.submitted(button))
    else:
        result = await browser(ctx, ctx.session.press("Enter", last.ref, tab=ctx.tab), f"pressing Enter in {label(last)}")
        actions.append(say.submitted(None))
    await settle(ctx)
    opened = not modal_before and ctx.pagemem is not None and ctx.pagemem.modal() is not None
    if result.url_changed or ctx.page_changed:  # the evidence a part it serves is done (task_parts.py)
        ctx.parts.tick(_action_names(section))
    return Outcome(actions=actions, url_changed=result.url_changed or ctx.page_changed, modal_opened=opened)
