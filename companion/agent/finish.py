"""End of a task: LLMVerifyEndTask (is it really complete?) and LLMFinalAnswer (what to tell the user), and the
rule checks that refuse a hollow end before or after them (no LLM call):

  - missing_action: a task that asks for an action ("Focus into the textbox", "Select Bob and click Submit") is
    not complete before an action that could do it ran. The rule reads the task's imperative verbs (a verb
    opening the task or a clause) and asks, for each, one action string of a kind that could do it;
  - unset_at_end: nor is it complete while, on a small page and before anything was submitted, a box, an option
    or a quoted value the task names is not set (act/named_fields.py, the precondition a Submit gets): the
    default model ticked one of three named boxes and ended, its observation saying all three were ticked;
  - unpressed_at_end, nothing_done: an errand that names a button this page shows ("... then press Submit") is not
    complete before an action pressed it, nor one that did nothing at all (each refused once);
  - unnarrowed_count: a count question is not answered while a control the task names (a filter's "Pending") is
    unused on the page (once);
  - unpressed_verb: an errand whose verb names the control that does it on nearly every site ("reply", "forward",
    "delete") is not complete before an action used a control of that name (refused once);
  - unsent: a reply or forward whose form shows a send control nobody pressed is not complete (refused once);
  - unacted_at_last_step: an episode must not end without a single action: on the step budget's last step, with
    no action done in the whole task, end task is refused (then not offered on that page), so the last choice is
    among the page's actions. A question (a "?" and no imperative verb) may be answered from the page as it is;
    a task worded without a verb the rules know ("Like the post", "Retweet it") is not exempt: the default model
    spent eight steps choosing end task and never acted;
  - declined_end: a task that asks to act ends "stopped", saying what the user declined, when it ends after a
    declined action with nothing done since that could have done it another way (never "done");
  - left_to_try: an answer saying the information is not there ("not provided", "no information", "cannot
    find") is not an answer while the places it could be were not looked at: the site's search box (when the
    page has one and no search was typed), links of the page the task's words point to (not opened yet),
    a dialog over the page (not dismissed). Whatever is left is told to the model, which goes on. The same
    holds for an answer to a question that states a number no visited page showed nor supports by a
    computation (invented_answer): asked a price on a page that only links to the price list, the 1.5B model
    answered "$5"; while somewhere is left to look, it is sent there instead of the answer being given. An
    email, date or name no page showed is the same, and so is a value read only away from what the task
    names (another row's email for the order the task names: observe/values.py);
  - wrong_kind_answer: an answer to a question asking for an email or a number ("how many") that holds none is
    refused the same way while somewhere is left to look (the default model answered an email question with the
    customer's name, read off an order list whose search it never used);
  - off_row: a lookup's answer holding nothing of the row the question names is refused once;
  - off_sorted_first: a superlative's final answer holding nothing of the first row of a list sorted as the question
    asks is asked for once more, the model told that row.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Callable, Literal, NamedTuple
from urllib.parse import parse_qsl, urldefrag, urlsplit

from companion import llm
from companion.act.elements import SEARCH_WORDS, is_search_field, label
from companion.act.list_choices import is_paging_link, names_facet
from companion.act.named_fields import fields_in_scope, names_action, unset_named
from companion.act.nth_result import nth_result
from companion.act.prefilter import element_skip_reason
from companion.act.premature import is_closed_opener, named_row_first
from companion.agent.seen_text import SeenText
from companion.llm.answers import FinalAnswer, Verification
from companion.llm.fit import declare
from companion.observe.ranked import off_extreme, ranked_rows
from companion.observe.rows import off_named_row, states_asked_cells
from companion.observe.values import EMAIL, Problem
from companion.pagemem.model import Element, PageMem
from companion.pagemem.widgets import SUBMIT_WORDS, is_text_field
from companion.protocol import ElementRef
from companion.task_asks import ACTION_VERBS, asks_count, is_question, requested_actions
from companion.text import content_words, quoted_as_written

VERIFY_MAX_TOKENS = 130  # a reason of REASON_MAX characters and a boolean (llm/fit.py)
ANSWER_MAX_TOKENS = 520  # FinalAnswer allows 1,000 characters
declare("end_task_verification", Verification, VERIFY_MAX_TOKENS)
declare("final_answer", FinalAnswer, ANSWER_MAX_TOKENS)


async def verify_end_task(task: str, history: str, observation: str, actions_done: list[str],
                          checked_values: list[str] | None = None, parts: list[str] | None = None) -> Verification:
    """actions_done: every basic action of the task so far; listing them (or "(none)") makes a claim of
    completion checkable even for a small model that would otherwise trust a hallucinated observation.
    checked_values: the observation's numbers found in a visited page's text, with the page (seen_text.py).
    parts: a compound task's parts, the done ones ticked (act/task_parts.py), so each is judged as itself."""
    variables = {"task": task, "history": history, "observation": observation, "actions_done": actions_done,
                 "checked_values": checked_values or [], "parts": parts or []}
    reply = await llm.decided_twice(lambda v: llm.ask("end_task_verification", v, Verification, max_tokens=VERIFY_MAX_TOKENS),
                                    variables, prompt="end_task_verification")
    return reply.answer


UNVERIFIED_ANSWER = "the latest observation's text for the task (not verified)"


class FinalText(NamedTuple):
    text: str
    stood_in: bool  # no valid answer from the model, asked twice: the observation's own text, unverified


async def final_answer(task: str, history: str, observation: str) -> FinalText:
    """The answer for the user. With no valid answer (asked once more without the history), the latest
    observation's text for the task (the page task summary of what the page shows) stands in: what was read,
    never a made-up answer; the caller marks it unverified."""
    ask = lambda v: llm.ask("final_answer", v, FinalAnswer, max_tokens=ANSWER_MAX_TOKENS)  # noqa: E731
    reply = await llm.or_stand_in(llm.decided_twice(ask, {"task": task, "history": history, "observation": observation},
                                                    prompt="final_answer"),
                                  lambda: None, prompt="final_answer", what=UNVERIFIED_ANSWER)
    if reply is None:
        return FinalText(" ".join(observation.split()), True)
    return FinalText(reply.answer.answer.strip(), False)


# ---------------------------------------------------------------------------- a task that asks to act

def missing_action(task: str, actions_done: list[str]) -> str | None:
    """Why the task cannot be complete yet (None: every action it asks for has one that could do it)."""
    kinds = {a.split(" ", 1)[0] for a in actions_done}
    missing = [g for g in requested_actions(task) if not kinds & set(ACTION_VERBS[g][1])]
    if not missing:
        return None
    asked = " and ".join(f'"{g}"' for g in missing)
    return (f"the task asks to {asked} on the page, and no browser action that could do it ran yet: "
            "choose the element the task means and act on it")


# Verbs that are, on nearly every site, the name of the control that does them: "Reply", "Forward", "Delete".
_CONTROL_VERBS = {"reply": r"repl(?:y|ied|ies)", "forward": r"forward(?:ed|s)?", "delete": r"delet(?:e|ed|es)",
                  "retweet": r"retweet(?:ed|s)?", "share": r"shar(?:e|ed|es)", "archive": r"archiv(?:e|ed|es)",
                  "star": r"star(?:red|s)?"}
_ACTION_NAME = re.compile(r'"([^"]*)"')


def unpressed_verb(task: str, done: list[str]) -> str | None:
    """The control verb the task asks for ("reply to them", "should be forwarded to") that no action acted on a
    control of that name for (None: each was, or the task asks none). The default model ended "Find the email by
    Tildie and reply to them" after typing into the inbox's search, its answer a description of the search."""
    if is_question(task):
        return None
    named = " ".join(n for a in done for n in _ACTION_NAME.findall(a)).lower()
    for verb, forms in _CONTROL_VERBS.items():
        if re.search(rf"\b{forms}\b", task, re.I) and not re.search(rf"\b{verb[:4]}", named):
            return verb
    return None


def unclicked_named(task: str, pagemem: PageMem | None, done: list[str]) -> tuple[str, ElementRef] | None:
    """What the task asks to click by a quoted name ("find and click on the link "enim,""), shown on this page by
    exactly one enabled element that no action named: (the quote, that element), else None. The default model opened
    the section holding "enim," and ended, its answer "Clicked tab 'Section #1'", and the verifier agreed."""
    if pagemem is None or is_question(task):
        return None
    for quote in _quotes_to_click(task, done):
        wanted = quote.strip().lower()
        shown = [e for e in pagemem.all_elements() if not e.disabled and (e.name or e.text).strip().lower() == wanted]
        if len(shown) == 1:
            return quote, shown[0].ref
    return None


def _quotes_to_click(task: str, done: list[str]) -> list[str]:
    """The names the task quotes after a verb of clicking ('click on the link "enim,"') that no action named."""
    named = {n.strip().lower() for a in done for n in _ACTION_NAME.findall(a)}
    return [q for q in quoted_as_written(task) if q.strip() and q.strip().lower() not in named and re.search(
        rf"\b(?:click|press|tap|select|choose)\b[^.\"]*\"{re.escape(q)}\"", task, re.I)]


def hidden_click_target(task: str, pagemem: PageMem | None, done: list[str]) -> tuple[str, Element] | None:
    """What the task asks to click by a quoted name that no element of this page bears and no action named, while a
    tab or section of the page is closed and was never opened: (the quote, the first such opener), else None. The
    default model opened one tab of three, did not find "Nisl" there, and ended with "Clicked tab 'Tab #2'"."""
    if pagemem is None or is_question(task):
        return None
    shown = [e for e in pagemem.all_elements() if not e.disabled]
    for quote in _quotes_to_click(task, done):
        if any((e.name or e.text).strip().lower() == quote.strip().lower() for e in shown):
            continue
        closed = [e for e in shown if is_closed_opener(e) and not e.clicked]
        # The ones after the last opened, first, as a person goes through tabs (one shown at the start was seen).
        last = max((e.index for e in shown if e.clicked and (e.role == "tab" or e.expanded is not None)), default=-1)
        closed.sort(key=lambda e: (e.index < last, e.index))
        closed = named_row_first(task, closed)  # a "more" in the row the task names before the others
        if closed:
            return quote, closed[0]
    return None


_MESSAGE_VERB = re.compile(r"\b(?:repl(?:y|ied|ies)|forward(?:ed|s)?|send|sent)\b", re.I)
_SENDS = re.compile(r"^(?:send|send (?:it|message|email|mail|reply)|post|post reply)$", re.I)


def unsent(task: str, pagemem: PageMem | None, done: list[str]) -> str | None:
    """The send control of a message the task replies to or forwards, shown on the page and not used since the
    reply or forward began (None: none shown, or used). The default model clicked "Forward" and ended with the
    forward's form open, its answer "The user clicked on the 'Forward' button"."""
    if pagemem is None or is_question(task) or not _MESSAGE_VERB.search(task):
        return None
    sends = [e for e in pagemem.all_elements() if not e.disabled and not e.clicked and _SENDS.match((e.name or e.text).strip())]
    if not sends:
        return None
    begun = max((i for i, a in enumerate(done) if re.search(r'"(?:reply|forward)', a, re.I)), default=-1)
    if any(re.search(r'"(?:send|post)', a, re.I) for a in done[begun + 1:]):
        return None
    return label(sends[0])


MAX_SEND_WORDS = 3  # a control named in a few words ("Submit", "Go!", "Search now"), not a sentence holding one


def typed_unsent(task: str, pagemem: PageMem | None, done: list[str]) -> Element | None:
    """The page's one send control (a submit-like name: "Submit", "Search", "Go") while the errand typed into this
    page's fields and nothing sent them yet (None: a question, nothing typed or held, sent, or no one such control).
    "Search for political movies directed by Hurley from year 1985": the default model filled the three fields and
    ended the task, the Submit beside them never pressed."""
    if pagemem is None or is_question(task) or submitted(done) or not any(a.startswith("Typed ") for a in done):
        return None
    elements = list(pagemem.all_elements())
    if not any(is_text_field(e) and (e.value or "").strip() for e in elements):
        return None
    sends = [e for e in elements if not e.disabled and not e.clicked and not is_text_field(e)
             and len((e.name or e.text).split()) <= MAX_SEND_WORDS and SUBMIT_WORDS.search(e.name or e.text)]
    return sends[0] if len(sends) == 1 else None


def unacted_at_last_step(task: str, done: list[str], last_step: bool) -> str | None:
    """Why the last step of a task that did nothing cannot end it (None: an action ran, steps are left, or the
    task is a question, whose answer may be on the page as it is)."""
    if not last_step or done or is_question(task):
        return None
    return ("this is the last step and no action was done in the whole task: choose the page's action that best "
            "does what the task asks")


# What can still bring a task forward after the user declined an action: acting on the page (a click, a submit,
# Enter) or going somewhere. Typing, ticking or choosing alone leave the declined submit or click undone.
_MOVES_ON = ("Clicked", "Submitted", "Pressed", "Navigated", "Switched")


def moves_on(actions: list[str], url_changed: bool) -> bool:
    """Whether an executed action could have done, another way, what a declined one would have."""
    return url_changed or any(a.split(" ", 1)[0] in _MOVES_ON for a in actions)


def declined_end(task: str, declined: str | None) -> str | None:
    """Why a task that asks to act ends declined, not done (None: it may end): the user declined `declined` (the
    question they answered) and no action that could do it another way ran since. A question task is left to the
    other checks: the answer it reads from a page does not depend on an action it declined."""
    if declined is None or not requested_actions(task):
        return None
    return f"you declined: {declined}"


def submitted(actions_done: list[str]) -> bool:
    """A form was submitted, or a submit-like button clicked, in the task: after that the page's fields may have
    been reset (a scripted page starts over, a comment box empties), so their state says nothing of the task."""
    return any(a.startswith("Submitted ") or (a.startswith(("Clicked button", "Clicked generic", "Pressed"))
                                                 and SUBMIT_WORDS.search(a))
               for a in actions_done)


def unset_at_end(task: str, pagemem: PageMem | None, actions_done: list[str],
                 typed_secrets: set[tuple[int, int]] | frozenset[tuple[int, int]] = frozenset()) -> tuple[str, ...]:
    """What a task that asks to act names on this small page and is not set, while nothing was submitted yet
    (empty: the end may go on). A question names no action, and a large page's labels may be named for another
    reason: neither is checked."""
    if pagemem is None or not requested_actions(task) or submitted(actions_done):
        return ()
    return tuple(unset_named(task, fields_in_scope(pagemem), typed_secrets))


def unpressed_at_end(task: str, pagemem: PageMem | None, actions_done: list[str]) -> tuple[str, ...]:
    """The buttons an errand names that this page shows and no action pressed ("... then press Submit"): the default
    model generated a number four times and ended with "2" as its answer, Submit never pressed. A question names
    no button to press; an enabled button only; none once anything was submitted."""
    if pagemem is None or is_question(task) or submitted(actions_done):  # Enter in a search box does a "Search"
        return ()
    return tuple(dict.fromkeys(f'button "{el.name or el.text}" is not pressed' for el in pagemem.all_elements()
                               if el.role == "button" and not el.disabled and SUBMIT_WORDS.search(el.name or el.text)
                               and names_action(task, el.name or el.text)))


def nothing_done(task: str, actions_done: list[str]) -> str | None:
    """An errand ended before any action in the whole task ("Use the terminal below to delete a file ending with
    .gif": the default model ended at once, its answer saying it typed the command). Refused once: a task may ask
    for a state the page already has."""
    if actions_done or is_question(task):
        return None
    return "nothing was done in this task yet, and it asks for something to be done: do it on the page first"


_NARROWING_ROLES = frozenset({"link", "button", "option", "checkbox", "radio", "tab", "menuitem"})


def _whole_list(target: str | None, page: str) -> bool:
    """A link to this page's own path with no query: the whole list again ("Orders" in a breadcrumb), no narrowing."""
    if not target:
        return False
    to, here = urlsplit(target), urlsplit(page)
    return to.path == here.path and not to.query


def unnarrowed_count(task: str, pagemem: PageMem | None, actions_done: list[str]) -> tuple[str, ...]:
    """For a count question ("How many orders are pending?"): the controls this page shows that the task names and
    no action used, a filter's choice above all (link "Pending"). The default model answered "60", the list's
    total under its paginator, for the pending count, the "Pending" filter beside it never applied. A yes/no
    choice or a closed facet the task names by its title counts too ("No" under "By is active" for "How many
    customers are inactive?": act/list_choices.names_facet; the model answered the list's total, 30). A choice the
    page's address already holds (?status=pending) is applied."""
    return tuple(dict.fromkeys(f'{el.role} "{el.name}" is not used'
                               for el in _narrowing_controls(task, pagemem, actions_done)))


def _adds_to(target: str | None, page: str) -> bool:
    """A link to this page's own path that keeps every parameter of its address and adds some: it narrows the list
    as it is now ("?all=" -> "?all=&tier__exact=gold"), so the list was not narrowed by that choice yet."""
    if not target:
        return False
    to, here = urlsplit(target), urlsplit(page)
    theirs, ours = parse_qsl(to.query, keep_blank_values=True), parse_qsl(here.query, keep_blank_values=True)
    return to.path == here.path and len(theirs) > len(ours) and all(p in theirs for p in ours)


def _narrowing_controls(task: str, pagemem: PageMem | None, actions_done: list[str]) -> list[Element]:
    # After a link was followed or a form sent, the list may be narrowed already (by another choice: the model's to
    # judge), unless the choice's own link only adds to the page's address: the default model followed "Show all"
    # ("?all=") and answered the list's total, 30, for the Gold tier's count, the "Gold" link beside it unused.
    # A button clicked on a list that no query narrows (a facet's menu opened) narrowed nothing.
    if pagemem is None or not is_question(task) or not asks_count(task):
        return []
    moved = any(a.startswith(("Clicked link", "Submitted", "Navigated")) for a in actions_done) or (
        any(a.startswith("Clicked") for a in actions_done) and urlsplit(pagemem.url).query)
    used = " ".join(actions_done)
    address = pagemem.url.lower()
    return [el for el in pagemem.all_elements()
            if (not moved or _adds_to(el.url, pagemem.url))
            and el.role in _NARROWING_ROLES and not el.disabled and not el.clicked and el.name and not el.column_header
            and (names_action(task, el.name) or names_facet(task, pagemem, el)) and f'"{el.name}"' not in used
            and el.name.lower() not in address and element_skip_reason(el, pagemem.url) is None
            and not _whole_list(el.url, pagemem.url)]


def narrowing_choice(task: str, pagemem: PageMem | None, actions_done: list[str]) -> ElementRef | None:
    """The one choice link unnarrowed_count finds (a filter's "Pending", a facet's "No"), which the step then takes
    itself: refused once for the count, the default model was offered that link first and chose "view all", a row
    and the list's page 2 instead. None when there is not exactly one link (a closed facet's button: the model's
    to open)."""
    links = [el for el in _narrowing_controls(task, pagemem, actions_done) if el.role == "link"]
    return links[0].ref if len(links) == 1 else None


def unsorted_extreme(task: str, pagemem: PageMem | None) -> tuple[str, ElementRef] | None:
    """For a superlative question ("Which product has the highest price?") on a list of several pages whose rows
    are not sorted as it asks (observe/ranked.py): why the list's extreme is not in sight, and the ranked column's
    sort link, which the step takes (sorted as asked, the list's first row holds it). The default model answered the
    highest of the first page's fifteen unsorted products, then sorted by price the wrong way and stopped there."""
    if pagemem is None or not is_question(task) or not any(is_paging_link(el) for el in pagemem.all_elements()):
        return None
    for section in pagemem.sections:
        ranked = ranked_rows(task, section)
        if ranked is None or ranked.order == "asked":
            continue
        heading, asked = set(content_words(ranked.header)), set(content_words(task))
        # The header's link the task names ("Price"), not its "Toggle sorting" or "1" beside it once sorted.
        sorts = [el for el in pagemem.all_elements() if el.role == "link" and el.column_header
                 and (words := set(content_words(el.name or ""))) and words <= heading and words & asked]
        if len(sorts) == 1:
            said = "sorted the other way" if ranked.order == "reverse" else "not sorted by it"
            return (f"the list has more pages and its rows are {said}: sort it by {ranked.header} as the question "
                    f"asks (link \"{sorts[0].name}\"), then its first row answers", sorts[0].ref)
    return None


def sorted_as_asked(task: str, pagemem: PageMem | None) -> bool:
    """A superlative question on a list whose rows are sorted as it asks (observe/ranked.py: the highest price
    first for "Which product has the highest price?"): the first row is the answer. On the held-out admin the
    default model's page task summary said "the Seed Starter Kit, which costs 204.99" on the list sorted by price,
    highest first, and the actor went on clicking the sort links until the task's time ran out."""
    return pagemem is not None and is_question(task) and any(
        (ranked := ranked_rows(task, section)) is not None and ranked.order == "asked" for section in pagemem.sections)


def narrowed_as_asked(task: str, pagemem: PageMem | None) -> bool:
    """A count question on a page whose address narrows its list by a word the task names (?status=pending for
    "How many orders are pending?", ?q=kettle for "How many kettles ..."): the count asked for is in sight. On
    the held-out admin the default model read "10 orders pending" there and then chose to go back to the whole
    list, whose total it answered; the end check runs first on such a page (agent/step.py). Or a page that is
    where a choice the task names links to (?is_active__exact=0, the "No" of "By is active" for "inactive": the
    model read "3 inactive customers listed" there and went on to a year's filter)."""
    if pagemem is None or not is_question(task) or not asks_count(task):
        return False
    values = [v for _, v in parse_qsl(urlsplit(pagemem.url).query) if re.search(r"[^\W\d_]", v)]
    if any(names_action(task, v) for v in values):
        return True
    here = urldefrag(pagemem.url)[0]
    return bool(urlsplit(here).query) and any(
        el.role == "link" and el.url == here and el.name  # (not an anchor within the page: "#orders")
        and (names_action(task, el.name) or names_facet(task, pagemem, el)) for el in pagemem.all_elements())


def answered_by_named_row(task: str, pagemem: PageMem | None, observation: str) -> bool:
    """A question that looks up a row the task names, on a page that shows that row, with an observation stating
    the row's cells under the columns the task names ("Price: 138.99" in the Turntable's row, for its price): the
    answer is the page's, verified by rule, and the verification call is not asked. On the held-out admin that
    call said "The task does not ask for information about the price of the Turntable" of that very answer, and
    the task wandered on. Not for a count (no row holds it)."""
    if pagemem is None or not is_question(task) or asks_count(task):
        return False
    return states_asked_cells(task, pagemem.sections, observation)


# ---------------------------------------------------------------------------- an answer that found nothing

NOT_THERE = re.compile(
    r"\b(?:not (?:provided|available|found|shown|listed|mentioned|given|displayed|specified|present|visible|stated|"
    r"included|known)|no (?:information|info|data|details|mention|record|price|results?)\b|unavailable|unknown|"
    r"can ?not (?:find|be found|locate|determine|see)|can't (?:find|locate|determine|see)|"
    r"could ?n[o']?t (?:find|locate|determine|see)|unable to (?:find|locate|determine)|"
    r"does(?: not|n't) (?:show|contain|list|mention|include|provide|say|state)|"
    r"is(?: not|n't) (?:shown|listed|available|provided|mentioned))", re.I)
MAX_LINKS_TO_TRY = 3


def says_not_there(answer: str) -> bool:
    """The answer says the information is not on the page/site instead of giving it."""
    return bool(NOT_THERE.search(answer))


def _searched(actions_done: list[str]) -> bool:
    return any(a.startswith("Typed ") and (" into searchbox" in a or SEARCH_WORDS.search(a.rsplit(" into ", 1)[-1]))
               for a in actions_done)


def left_to_try(task: str, pagemem: PageMem | None, actions_done: list[str], visited: list[str]) -> list[str]:
    """Where the information could still be: the page's search box when nothing was searched, links of the page
    whose names share a word with the task and that were not opened, a dialog over the page not dismissed."""
    if pagemem is None:
        return []
    out: list[str] = []
    elements = [e for e in pagemem.all_elements() if not e.disabled]
    search = next((e for e in elements if is_search_field(e, pagemem.section_of(e.ref))), None)
    if search is not None and not _searched(actions_done):
        out.append(f"search the site with {label(search)}")
    modal = pagemem.modal()
    if modal is not None:
        mine = {label(e) for e in modal.all_elements()}
        if not any(m in a for a in actions_done for m in mine):
            out.append(f"dismiss the dialog ({modal.purpose or 'open over the page'}): the page behind it may hold the answer")
    task_words = set(content_words(task))
    seen = {urldefrag(u)[0] for u in visited} | {urldefrag(pagemem.url)[0]}
    links = []
    for e in elements:
        target = urldefrag(e.url)[0] if e.role == "link" and e.url else ""
        if target and target.startswith(("http://", "https://")) and target not in seen and task_words & set(content_words(e.name)):
            seen.add(target)
            links.append(f"open {label(e)}")
    out.extend(links[:MAX_LINKS_TO_TRY])
    return out


def hollow_answer(answer: str, task: str, pagemem: PageMem | None, actions_done: list[str], visited: list[str]) -> str | None:
    """Why an answer that found nothing cannot end the task yet (None: it is an answer, or nothing is left)."""
    if not says_not_there(answer):
        return None
    left = left_to_try(task, pagemem, actions_done, visited)
    if not left:
        return None
    return ("the answer says the information is not there, but not every place it could be was looked at; "
            "left to try: " + "; ".join(left))


def invented_answer(unseen: list[str], task: str, pagemem: PageMem | None, actions_done: list[str],
                    visited: list[str], misplaced: list[Problem] = ()) -> str | None:
    """Why an answer stating values no page showed (`unseen`), or values found only away from what the task
    names (`misplaced`: another row's email), cannot end a question task yet (None: it states none, the task
    asks for an action, or nowhere is left to look: then it is given with a note)."""
    if not (unseen or misplaced) or requested_actions(task):
        return None
    left = left_to_try(task, pagemem, actions_done, visited)
    if not left:
        return None
    return f"{not_supported(unseen, misplaced)}; left to try: " + "; ".join(left)


# What a question asks for, by its words, and what an answer giving it holds. The default model, asked for the email
# of an order's customer, answered with the customer's name from the order list, whose search it never used.
_ASKED_KINDS: tuple[tuple[str, re.Pattern[str], re.Pattern[str]], ...] = (
    ("an email address", re.compile(r"\be-?mail\b", re.I), EMAIL),
    ("a number", re.compile(r"\bhow\s+(?:many|much)\b", re.I), re.compile(r"\d")),
)


def wrong_kind_answer(answer: str, task: str, pagemem: PageMem | None, actions_done: list[str],
                      visited: list[str]) -> str | None:
    """Why an answer without the kind of value the question asks for (an email, a number) cannot end it yet (None:
    it has one, the task asks for no such value or for an action, or nowhere is left to look)."""
    if requested_actions(task):
        return None
    wanted = [what for what, asks, holds in _ASKED_KINDS if asks.search(task) and not holds.search(answer)]
    if not wanted:
        return None
    left = left_to_try(task, pagemem, actions_done, visited)
    if not left:
        return None
    return (f"the task asks for {wanted[0]} and the answer gives none; left to try: " + "; ".join(left))


def off_row(answer: str, task: str, pagemem: PageMem | None) -> str | None:
    """Why a lookup's answer whose values are all outside the row the question names, that row in sight, cannot
    end it yet (refused once: the row's own page may hold what the list does not show; observe/rows.off_named_row)."""
    if pagemem is None or not is_question(task) or asks_count(task) or requested_actions(task):
        return None
    off = off_named_row(task, pagemem.sections, answer)
    if off is None:
        return None
    values, anchor = off
    return (f"the answer's {', '.join(values)} is not in the row of {anchor} on this page, and that row shows no such "
            f"value: the record's own page (the row's link) may show what the question asks")


def off_sorted_first(answer: str, task: str, pagemem: PageMem | None) -> str | None:
    """Why a superlative's answer that names nothing of the first row of a list sorted as the question asks is not
    the answer (the first row is: observe/ranked.off_extreme); None when it names something of that row."""
    if pagemem is None or not is_question(task) or asks_count(task) or requested_actions(task):
        return None
    row = off_extreme(task, pagemem.sections, answer)
    if row is None:
        return None
    return (f"this list is sorted as the question asks, so its first row answers it ({row}), and the answer names "
            "nothing of that row: answer from it")


def not_supported(unseen: list[str], misplaced: list[Problem] = ()) -> str:
    """'the answer states 5, which no page visited showed; its bob@shop.test was not found with 110 on any page'."""
    said = [f"the answer states {', '.join(unseen)}, which no page visited showed"] if unseen else []
    said += [f"its {p.value} was not found with {p.anchor} on any page visited" for p in misplaced]
    return "; ".join(said)


def split_problems(problems: list[Problem]) -> tuple[list[str], list[Problem]]:
    """(the values no page showed, the values found only away from what the task names)."""
    return [p.value for p in problems if not p.anchor], [p for p in problems if p.anchor]


# ---------------------------------------------------------------------------- the end-task gate


@dataclass(frozen=True)
class Refused:
    """End task refused: the task goes on. `by` says how the refusal is told: "unseen" (the observation says its
    values are not verified), "rule" (the observation and the history's next step say why), "verifier" (a note:
    the one verification call judged the task not complete)."""

    why: str
    by: Literal["unseen", "rule", "verifier"]
    # The one way the rule names (the narrowing choice of a count): the step takes it next, with no choice to make.
    remedy: ElementRef | None = None


@dataclass(frozen=True)
class Answer:
    """End task accepted: the answer for the user; stood_in: the model gave none, it is the observation's text."""

    text: str
    stood_in: bool


@dataclass(frozen=True)
class EndFacts:
    """What the gate reads of the step that chose end task."""

    observation: str
    done: list[str]  # every basic action of the task so far, this step's included
    already_so: list[str]  # no-op actions refused because what they asked for was there (act.errors.NoOp)
    pagemem: PageMem | None
    typed_secrets: set[tuple[int, int]]
    parts: list[str]  # the task's parts, the done ones ticked (act/task_parts.py)
    visited: list[str]
    history: Callable[[bool], str]  # the history with this step's actions so far (notes: bool)
    last_step: bool = False  # the step budget's last step
    read: bool = False  # the observation is the page's own text (shown whole) and listed changes: no claim in it
    declined: bool = False  # the user declined an action of this task: ending with nothing done is theirs to choose


@dataclass
class EndGate:
    """The end-task gate, one per task: the rule checks on every end-task choice (an observation stating a number
    no page showed, an action the task asks for and none did, a field the task names left unset), the one
    verification call of the task (paper App. A.4), the final answer, and the checks on that answer."""

    task: str
    seen: SeenText
    verified: bool = False  # at most one verification per task (a resumed task keeps its checkpoint's)
    end_warnings: set[tuple[str, ...]] = field(default_factory=set)  # unset fields already refused for
    results_per_page: int | None = None  # a results list's page size read on an earlier page (nth_result)

    def unsorted_once(self, pagemem: PageMem | None) -> tuple[str, ElementRef] | None:
        """unsorted_extreme, once per page: at a step's start (agent/step.py, before any choice) or as an end's
        refusal, whichever comes first; sorted the wrong way, it is said again."""
        unsorted = unsorted_extreme(self.task, pagemem)
        if unsorted is None or pagemem is None or ("unsorted", pagemem.url) in self.end_warnings:
            return None
        self.end_warnings.add(("unsorted", pagemem.url))
        return unsorted

    async def decide(self, f: EndFacts) -> Refused | Answer:
        # The rule checks run on every end-task choice (they are not the one LLM verification of the paper): an
        # observation stating a number no page showed is an invention, not an answer.
        invented, misplaced = split_problems([] if f.read else self.seen.unsupported(f.observation))
        if invented or misplaced:
            llm.record_dropped(str(p) for p in [*map(Problem, invented), *misplaced])
            said = [f"the value(s) {', '.join(invented)} appear on no page visited so far"] if invented else []
            said += [str(p) for p in misplaced]
            return Refused("; ".join(said), "unseen")
        # Before the rules that only say something is undone: this one names the way.
        counted = nth_result(self.task, f.pagemem, self.results_per_page)
        if counted is not None and not counted.last_page:
            self.results_per_page = counted.per_page
        if counted is not None and counted.way is not None and ("nth result", counted.current) not in self.end_warnings \
                and not (counted.target is not None and counted.target.clicked):
            self.end_warnings.add(("nth result", counted.current))  # once a page: page 2 may be where it is
            return Refused(counted.where(), "rule", remedy=counted.way.ref)
        unacted = unacted_at_last_step(self.task, f.done, f.last_step)
        if unacted:
            return Refused(unacted, "rule")
        missing = missing_action(self.task, f.done + f.already_so)
        if missing:
            return Refused(missing, "rule")
        send = unsent(self.task, f.pagemem, f.done)
        if send and ("unsent",) not in self.end_warnings:
            self.end_warnings.add(("unsent",))
            return Refused(f"the message is not sent yet: {send} is on the page and was not pressed", "rule")
        target = unclicked_named(self.task, f.pagemem, f.done)
        if target and ("unclicked", target[0]) not in self.end_warnings:
            self.end_warnings.add(("unclicked", target[0]))
            return Refused(f'the task asks to click "{target[0]}", which is on this page and was not clicked', "rule",
                           remedy=target[1])
        hidden = hidden_click_target(self.task, f.pagemem, f.done)
        if hidden and ("hidden target", hidden[1].key) not in self.end_warnings:
            self.end_warnings.add(("hidden target", hidden[1].key))
            return Refused(f'the task asks to click "{hidden[0]}", which no element on this page bears; {label(hidden[1])} '
                           "is closed and was not opened yet", "rule", remedy=hidden[1].ref)
        verb = unpressed_verb(self.task, f.done + f.already_so)
        if verb and ("unpressed verb", verb) not in self.end_warnings:  # once: the site may name it otherwise
            self.end_warnings.add(("unpressed verb", verb))
            return Refused(f'the task asks to "{verb}", and no action pressed or chose anything named so: find the '
                           f'"{verb.capitalize()}" control (on the item\'s own page) and use it', "rule")
        # Refused once per set of unset fields: the task may name a label for another reason.
        left = unset_at_end(self.task, f.pagemem, f.done, f.typed_secrets)
        if left and left not in self.end_warnings:
            self.end_warnings.add(left)
            return Refused(f"the task names what is unset on this page ({'; '.join(left)}): set that first", "rule")
        # A button is asked for only once nothing named is left unset: "set that first" and "press it" in turn
        # sent an insistent model round in circles.
        unpressed = () if left else unpressed_at_end(self.task, f.pagemem, f.done)
        if unpressed and unpressed not in self.end_warnings:
            self.end_warnings.add(unpressed)
            return Refused(f"the task names what is not pressed yet on this page ({'; '.join(unpressed)}): press "
                           "it to finish", "rule")
        send = typed_unsent(self.task, f.pagemem, f.done)
        if send is not None and ("typed unsent",) not in self.end_warnings:
            self.end_warnings.add(("typed unsent",))
            return Refused(f"what was typed on this page is not sent yet: {label(send)} is on the page and was not "
                           "pressed", "rule", remedy=send.ref)
        narrowing = unnarrowed_count(self.task, f.pagemem, f.done)
        if narrowing and narrowing not in self.end_warnings:
            self.end_warnings.add(narrowing)
            return Refused(f"the count is not narrowed yet: the task names what this page offers to narrow it "
                           f"({'; '.join(narrowing)}): use it, then count", "rule",
                           remedy=narrowing_choice(self.task, f.pagemem, f.done))
        unsorted = self.unsorted_once(f.pagemem)
        if unsorted:
            return Refused(unsorted[0], "rule", remedy=unsorted[1])
        idle = None if f.declined else nothing_done(self.task, f.done + f.already_so)
        if idle and ("nothing done",) not in self.end_warnings:
            self.end_warnings.add(("nothing done",))
            return Refused(idle, "rule")
        if not self.verified and answered_by_named_row(self.task, f.pagemem, f.observation):
            self.verified = True  # the page's own row answers it, and the observation says so: no call to judge
        if not self.verified:
            self.verified = True
            verdict = await verify_end_task(self.task, f.history(False), f.observation, f.done,
                                            self.seen.where_seen(f.observation), f.parts)
            if not verdict.complete:
                return Refused(verdict.reason, "verifier")
        final = await final_answer(self.task, f.history(True), f.observation)
        first = off_sorted_first(final.text, self.task, f.pagemem)
        if first:  # asked once more, told the row: cheaper than a refused end and another step on the same page
            final = await final_answer(self.task, f.history(True), f"{f.observation}\n(Note: {first}.)")
        unseen, misplaced = split_problems(self.seen.unsupported(final.text, answer=True))
        hollow = (hollow_answer(final.text, self.task, f.pagemem, f.done, f.visited)
                  or invented_answer(unseen, self.task, f.pagemem, f.done, f.visited, misplaced)
                  or wrong_kind_answer(final.text, self.task, f.pagemem, f.done, f.visited))
        if hollow:  # "not provided", or an unseen price, while the site was not searched
            llm.record_dropped(str(p) for p in [*map(Problem, unseen), *misplaced])
            return Refused(hollow, "rule")
        beside = off_row(final.text, self.task, f.pagemem)
        if beside and ("off the named row",) not in self.end_warnings:
            self.end_warnings.add(("off the named row",))
            return Refused(beside, "rule")
        return Answer(final.text, final.stood_in)
