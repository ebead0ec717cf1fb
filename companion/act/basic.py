"""The basic actions (App. A.5): ClickElement, EnterInput, SelectOption, check/uncheck, UploadFile,
CopyToClipboard, press Enter. Each performs one browser operation (after any LLM sub-call it needs) and
returns its history string; a browser-side failure raises ActionFailed with the extension's message."""

from __future__ import annotations

import asyncio
import logging
import re
import time
from pathlib import Path
from typing import Awaitable

from companion import llm, paths
from companion.act import action_strings as say
from companion.act.colour_field import colour_value
from companion.act.context import AgentContext
from companion.act.confirmation import confirm_action
from companion.act.elements import field_description, label
from companion.act.errors import ActionFailed, NoOp, NotYet
from companion.act.named_fields import (
    arithmetic_value, copied_value, field_for_value, nth_word_value, page_value_for, quoted_not_control, set_option_for,
    set_value_for, value_named_for,
)
from companion.act.prefilter import selecting_noop, toggle_noop, typing_noop
from companion.act.solve_for import solved_value
from companion.bridge.errors import BridgeDisconnected, BridgeError
from companion.llm.fit import declare, declare_choice
from companion.pagemem.model import Element
from companion.pagemem.widgets import is_text_field
from companion.protocol import ActionResult
from companion.task_asks import asks_deletion, deletes
from companion.text import as_quoted, in_asked_case, names_in, without_quote_marks

log = logging.getLogger(__name__)

CREATE_NEW_FILE = "Create a new text file"
FILE_PREVIEW_CHARS = 60
VALUE_TOKENS = 270  # TextValue allows 500 characters (llm/fit.py)
CHOICE_TOKENS = 80
NEW_FILE_TOKENS = 570  # NewFile: an 80-character name and 1,000 characters (llm/fit.py)
for _prompt in ("input_value", "search_query", "field_value"):
    declare(_prompt, llm.TextValue, VALUE_TOKENS)
declare("new_file_content", llm.NewFile, NEW_FILE_TOKENS)
declare_choice("select_option", CHOICE_TOKENS)
declare_choice("upload_file_choice", CHOICE_TOKENS)
declare_choice("dropdown_option", CHOICE_TOKENS, allow_none=True)  # choose_paged (dropdown.py, search.py)
declare_choice("search_suggestion", CHOICE_TOKENS, allow_none=True)
COPY_READ_ATTEMPTS = 3
COPY_READ_PAUSE_S = 0.15
# The page's clock and ours are the same machine's, but Date.now() may be coarsened a little.
CLOCK_SLACK_MS = 50


async def browser(ctx: AgentContext, call: Awaitable[ActionResult], what: str) -> ActionResult:
    """Await one session action; ok=False, a timeout or a remote error becomes ActionFailed naming `what`."""
    try:
        result = await call
    except BridgeDisconnected:
        raise
    except BridgeError as exc:
        raise ActionFailed(f"{what} failed: {exc}") from exc
    if not result.ok:
        raise ActionFailed(f"{what} failed: {result.error or 'the browser refused the action'}")
    ctx.acted_on = ctx.pagemem.url if ctx.pagemem is not None else None
    return result


def _variables(ctx: AgentContext, **extra) -> dict:
    return {"task": ctx.task, "history": ctx.history_text(), **extra}


async def click_element(ctx: AgentContext, el: Element, *, suggestion_for: Element | None = None,
                        done: list[str] | None = None) -> tuple[str, ActionResult]:
    """Click, after asking the user when confirmation.py says the click needs it (`suggestion_for`: the search
    field whose suggestion this is; `done`: actions of the workflow so far, kept when the user declines)."""
    await confirm_action(ctx, "click", el, suggestion_for=suggestion_for, done=done)
    result = await browser(ctx, ctx.session.click(el.ref, tab=ctx.tab), f"clicking {label(el)}")
    el.clicked = True
    # Done, but not as a person would have (e.g. the element was covered): the history says so.
    return say.clicked(el) + (f" ({result.note})" if result.note else ""), result


async def type_text(ctx: AgentContext, el: Element, text: str) -> str:
    noop = typing_noop(el, text)
    if noop:
        raise NoOp(noop, say.typed(el, text))
    await confirm_action(ctx, "type", el)  # a field of another origin's frame
    await browser(ctx, ctx.session.type(el.ref, text, secret=el.is_password, tab=ctx.tab), f"typing into {label(el)}")
    el.clicked = True  # used on this page (act/premature.py)
    if el.is_password:
        ctx.typed_secrets.add(el.key)
    else:
        el.value = text
    return say.typed(el, text)


def names_the_field(value: str, el: Element) -> bool:
    """The answer repeats the input's own description ("searchbox 'Search the shop'") instead of saying
    what to type: the 1.5B model did this in two of five bench runs of a search task."""
    said = without_quote_marks(value).lower()
    if not said:
        return False
    # A name that is only the text beside the field is no description of its own: "Type the text below into the
    # text field" names the field by the very text to type (the default model's right answer was refused twice).
    own = [el.role or "", "" if el.name_beside else el.name or "", el.attrs.get("placeholder", ""),
           el.attrs.get("aria-label", "")]
    own = [without_quote_marks(o).lower() for o in own if o and o.strip()]
    return any(said == o or said.startswith(f"{el.role} ") for o in own) if own else False


def copies_the_task(value: str, task: str) -> bool:
    """The answer is the task sentence itself ("Focus into the textbox"): no text the task gives for the field."""
    def bare(text: str) -> str:
        return " ".join(re.sub(r"[^\w\s]", " ", text.lower()).split())
    return bool(bare(value)) and bare(value) == bare(task)


def no_text_given(value: str, el: Element, task: str) -> bool:
    return not value.strip() or names_the_field(value, el) or copies_the_task(value, task)


async def text_value(prompt: str, variables: dict) -> str:
    """What to type (input_value, search_query, field_value): a decision, so with no valid answer it is asked once
    more without the history, then NoDecision ends the step as a no-op (llm/fallback.py): a made-up text typed
    into a page could do harm; nothing typed costs one step."""
    reply = await llm.decided_twice(lambda v: llm.ask(prompt, v, llm.TextValue, max_tokens=VALUE_TOKENS), variables,
                                    prompt=prompt)
    return as_quoted(variables.get("task", ""), reply.answer.value)  # the task's own spelling of a quoted value


def value_by_rule(ctx: AgentContext, el: Element) -> str | None:
    """The field's value by rule, no call (named_fields.py): 'the password "DYh"', 'copy the text from the 2nd text
    area', 'the value that corresponds with each label' (a key/value table on the page), 'the 1st word in the
    paragraph', the x of the page's equation for a field labelled "x =" (act/solve_for.py), the hex code of the colour
    the task names for a colour field (act/colour_field.py); None: the model's to say."""
    elements = list(ctx.pagemem.all_elements()) if ctx.pagemem else []
    sections = ctx.pagemem.sections if ctx.pagemem else []
    named = value_named_for(ctx.task, el)
    # A colour field's code first: "set the background to navy" names "navy" as the value, which it cannot take.
    return (colour_value(ctx.task, el) or (in_asked_case(ctx.task, named) if named else None) or arithmetic_value(el)
            or copied_value(ctx.task, el, elements) or page_value_for(ctx.task, el, sections)
            or nth_word_value(ctx.task, el, sections) or solved_value(ctx.task, el, sections)
            or quoted_not_control(ctx.task, el, elements))


def without_own_label(value: str, el: Element) -> str:
    """The value without the field's own label before it: "60" for "x = 60" typed into the field "x =". The default
    model wrote the label of the field into the field."""
    name = " ".join((el.name or "").split())
    rest = value[len(name):]
    # Only a label written as one ("x =", "Name:", or "Name: Ada"): "Search for kettles" in the box "Search" stays.
    labelled = name.endswith((":", "=")) or rest.lstrip().startswith((":", "="))
    if name and len(name) <= 20 and labelled and value.lower().startswith(name.lower()) and rest.strip(" :="):
        return rest.lstrip(" :=")
    return value


async def enter_input(ctx: AgentContext, el: Element, *, value: str | None = None, prompt: str = "input_value") -> str:
    """EnterInput: ask the LLM what to type (`prompt`: input_value, or search_query for a search box) unless a
    value is given, then type it. An answer that only names the input or repeats the task is asked again once,
    with that answer shown as wrong; a second such answer means the task gives no text for it ("Focus into the
    textbox"): the field is clicked, which focuses it, and nothing is typed."""
    if value is None and prompt in ("input_value", "search_query"):
        value = value_by_rule(ctx, el)
    if value is None:
        field = field_description(el, ctx.typed_secrets)
        value = await text_value(prompt, _variables(ctx, observation=ctx.observation, field=field))
        if no_text_given(value, el, ctx.task):
            value = await text_value(prompt, _variables(ctx, observation=ctx.observation, field=field, rejected=value))
            if no_text_given(value, el, ctx.task):
                text, _ = await click_element(ctx, el)
                return text
        value = without_own_label(value, el)
        if prompt == "input_value" and ctx.pagemem is not None:
            # A value the task ties to another empty field goes there ("directed by Mosley": the director's field);
            # the default model typed it into the genre's.
            el = field_for_value(ctx.task, value, el, list(ctx.pagemem.all_elements())) or el
            check_page_text_kept(ctx, el, value)
    return await type_text(ctx, el, value)


def check_page_text_kept(ctx: AgentContext, el: Element, value: str) -> None:
    """Typing the model's text over what the page put in a field (a forward's message body), while the task does
    not name that field, is refused once when one other text field is empty (pointing at it) or another field
    holds that very text: the default model, forwarding a mail, typed the sender's name over the body and left "To"
    empty, and on another seed typed the recipient over the body after putting it in "To". Once for each of the two
    reasons; chosen again, it is typed."""
    if ctx.pagemem is None or el.clicked or el.is_password or not (el.value or "").strip():
        return
    if names_in(ctx.task, el.name or "") or set_value_for(ctx.task, el) is not None:
        return  # the task names the field: changing its text is what it asks
    others = [e for e in ctx.pagemem.all_elements() if e.key != el.key and is_text_field(e) and not e.disabled
              and not e.is_password]
    empty = [e for e in others if not (e.value or "").strip()]
    holding = [e for e in others if (e.value or "").strip() and (e.value or "").strip() == value.strip()]
    # Once for each reason: refused while "To" was empty, the default model filled it and then typed the recipient
    # over the body.
    warning = (el.key, ("page text", "held" if holding else "empty"))
    if (len(empty) != 1 and not holding) or warning in ctx.submit_warnings:
        return
    ctx.submit_warnings.add(warning)
    held = " ".join(el.value.split())
    said = f"{label(el)} holds the page's text (\"{held[:40]}{'…' if len(held) > 40 else ''}\"), which typing would replace"
    if holding:
        raise NotYet(f'not typed: {said}, and {label(holding[0])} holds "{value.strip()}" already: go on with the task, '
                     "or this again")
    raise NotYet(f"not typed: {said}, and {label(empty[0])} is empty: fill that, or this again", remedy=empty[0].ref)


async def select_option(ctx: AgentContext, el: Element, *, field_hint: str = "") -> str:
    """SelectOption on a native <select>: the LLM picks one of its options, set by label."""
    if not el.options:
        raise ActionFailed(f"{label(el)} has no options to choose from")
    options = offered_options(ctx.task, el.options)
    if not options:
        raise ActionFailed(f"{label(el)} only offers to delete, and the task asks for no deletion")
    named = set_option_for(ctx.task, el)  # "Change the tier … to Gold": the option "Gold" of "Tier", no call
    if named in options:
        return await set_option(ctx, el, named)
    field = field_description(el, ctx.typed_secrets, options=False) + (f" ({field_hint})" if field_hint else "")
    reply = await llm.decided_twice(lambda v: llm.choose("select_option", v, n=len(options), max_tokens=CHOICE_TOKENS),
                                    _variables(ctx, field=field, options=options), prompt="select_option")
    return await set_option(ctx, el, options[reply.answer.index])


def offered_options(task: str, options: list[str]) -> list[str]:
    """The options the model may choose among: not one that deletes ("Delete selected customers") unless the task
    asks for a deletion. Asked to change a customer's city, the default model filled a customer list's bulk-action
    form with "Delete selected customers" and sent it; only the user's confirmation stood between it and the loss."""
    return options if asks_deletion(task) else [o for o in options if not deletes(o)]


async def set_option(ctx: AgentContext, el: Element, option: str) -> str:
    """Select `option` (one of the native <select>'s labels) as it is, with no LLM call: an option chosen
    directly (a remembered entry of the select offered as its own candidate)."""
    noop = selecting_noop(el, option)
    if noop:
        raise NoOp(noop, say.selected(el, option))
    if option not in offered_options(ctx.task, [option]):
        raise ActionFailed(f'not chosen: "{option}" deletes, and the task asks for no deletion')
    await browser(ctx, ctx.session.select(el.ref, label=option, tab=ctx.tab), f"selecting {option!r} in {label(el)}")
    el.value = el.selected_option = option
    el.clicked = True
    if "multiple" in el.attrs and option not in el.selected_options:  # the others stay selected
        el.selected_options = [o for o in el.options if o in el.selected_options or o == option]
    return say.selected(el, option)


async def set_checked(ctx: AgentContext, el: Element, state: bool | None = None) -> str:
    """Check a checkbox/radio (radios are only ever checked); `state=None` toggles a checkbox."""
    if state is None:
        state = True if el.role == "radio" or el.input_type == "radio" else not bool(el.checked)
    noop = toggle_noop(el, state)
    if noop:
        raise NoOp(noop, say.checked(el, state))
    await browser(ctx, ctx.session.check(el.ref, state, tab=ctx.tab), f"{'checking' if state else 'unchecking'} {label(el)}")
    el.checked = state
    el.clicked = True  # set by the agent: choosing it again on this page would undo this (prefilter.toggle_noop)
    return say.checked(el, state)


async def press_enter(ctx: AgentContext, el: Element, *, done: list[str] | None = None) -> tuple[str, ActionResult]:
    """Enter in a field submits its form: asked first unless the form is a real site search (confirmation.py)."""
    await confirm_action(ctx, "enter", el, done=done)
    result = await browser(ctx, ctx.session.press("Enter", el.ref, tab=ctx.tab), f"pressing Enter in {label(el)}")
    return say.pressed_enter(el), result


def _describe_file(path: Path) -> str:
    size = path.stat().st_size
    try:
        head = " ".join(path.read_text(encoding="utf-8")[:FILE_PREVIEW_CHARS].split())
        return f"{path.name} ({size} bytes): {head}"
    except (UnicodeDecodeError, OSError):
        return f"{path.name} ({size} bytes)"


def _unique_path(directory: Path, filename: str) -> Path:
    path = directory / filename
    stem, suffix, n = path.stem, path.suffix, 1
    while path.exists():
        n += 1
        path = directory / f"{stem}-{n}{suffix}"
    return path


async def upload_file(ctx: AgentContext, el: Element) -> list[str]:
    """UploadFile: choose a file staged for the task (or created earlier), or write a new text file whose
    name and content the LLM gives, then put it into the file input."""
    directory = ctx.files_dir
    paths.private_dir(directory)
    files = sorted(p for p in directory.iterdir() if p.is_file())
    options = [_describe_file(p) for p in files] + [CREATE_NEW_FILE]
    field = field_description(el, ctx.typed_secrets)
    index = 0
    if files:
        reply = await llm.decided_twice(lambda v: llm.choose("upload_file_choice", v, n=len(options), max_tokens=CHOICE_TOKENS),
                                        _variables(ctx, field=field, files=options), prompt="upload_file_choice")
        index = reply.answer.index
    actions: list[str] = []
    if index < len(files):
        path, created = files[index], False
    else:
        reply = await llm.decided_twice(lambda v: llm.ask("new_file_content", v, llm.NewFile, max_tokens=NEW_FILE_TOKENS),
                                        _variables(ctx, field=field), prompt="new_file_content")
        path, created = _unique_path(directory, reply.answer.filename), True
        paths.write_private_text(path, reply.answer.content)
        actions.append(say.created_file(path.name, len(reply.answer.content)))
    await browser(ctx, ctx.session.upload(el.ref, path, tab=ctx.tab), f"uploading {path.name} to {label(el)}")
    actions.append(say.uploaded(el, path.name, created))
    return actions


async def copy_to_clipboard(ctx: AgentContext, el: Element) -> tuple[str, ActionResult]:
    """CopyToClipboard: click the copy control and log the copied text, as the extension saw the page copy it
    (read_clipboard). When nothing can be read, the text is taken from the field the control copies from (the
    one text field with a value in the same section); when there is none the string says the text is unknown."""
    since = time.time() * 1000 - CLOCK_SLACK_MS
    result = await browser(ctx, ctx.session.click(el.ref, tab=ctx.tab), f"clicking {label(el)}")
    el.clicked = True
    text = await _copied_text(ctx, since)
    if text is None:
        section = ctx.pagemem.section_of(el.ref) if ctx.pagemem else None
        sources = [e for e in (section.all_elements() if section else []) if is_text_field(e) and e.value and not e.is_password]
        text = sources[0].value if len(sources) == 1 else None
    return say.copied(el, text), result


async def _copied_text(ctx: AgentContext, since: float) -> str | None:
    """What the page copied since `since` (ms since the epoch); a page may copy after an await, so a few looks."""
    for attempt in range(COPY_READ_ATTEMPTS):
        try:
            copied = await ctx.session.read_clipboard(ctx.tab, since=since)
        except BridgeDisconnected:
            raise
        except BridgeError as exc:  # an older extension, a page we may not script: fall back to the guess
            log.info("reading what was copied failed: %s", exc)
            return None
        if copied.text is not None:
            return copied.text
        if attempt + 1 < COPY_READ_ATTEMPTS:
            await asyncio.sleep(COPY_READ_PAUSE_S)
    return None


SETTLE_ATTEMPTS = 3
SETTLE_PAUSE_S = 0.4


async def settle(ctx: AgentContext):
    """Refresh after an action. A page in the middle of navigating may refuse one snapshot: try again
    briefly; if it keeps failing, leave the PageMem as it was (the action itself did happen)."""
    import asyncio

    for attempt in range(SETTLE_ATTEMPTS):
        try:
            return await ctx.refresh()
        except ActionFailed as exc:
            log.info("refresh after an action failed (attempt %d): %s", attempt + 1, exc)
            await asyncio.sleep(SETTLE_PAUSE_S)
    return None
