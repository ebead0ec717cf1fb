"""Search (App. A.5): type the query, look for suggestions in the diff, offer them (or ignore them), press Enter.

The same steps without the final Enter serve autocomplete comboboxes (a city or airport field): typing
alone is not the choice there, picking the suggestion is (the only one holding the typed text, without a call). A suggestion click and the Enter go through
confirmation.py like any click and Enter: a real site search goes through unasked, a form that only calls
itself a search (a POST form, a card field) is asked about first. Many suggestions are shown a page at a time
(paging.py): none is left unseen."""

from __future__ import annotations

import asyncio
import re
from urllib.parse import parse_qsl, urlsplit

from companion.act.basic import CHOICE_TOKENS, click_element, enter_input, press_enter, settle
from companion.act.context import AgentContext
from companion.act.elements import declares_suggestions, is_form_field, label
from companion.act.errors import ActionFailed, NoOp
from companion.act.models import Outcome
from companion.act.named_fields import affixes, fits_affixes
from companion.act.paging import choose_paged
from companion.pagemem.identity import normalize_name
from companion.pagemem.model import Element
from companion.text import names_in

# Pages debounce their suggestion requests (typically 100-300 ms): give them that long before reading the diff.
SUGGESTION_WAIT_S = 0.5
SUGGESTIONS_PER_PAGE = 20  # more are shown on further pages, one call each
SEARCH_BUTTON = re.compile(r"^\W*(?:search|go|find|submit)\b", re.I)


def shows_results_for(url: str, query: str) -> bool:
    """Is `url` a results page for `query`: does one of its query-string values hold exactly these words?"""
    wanted = normalize_name(query)
    return bool(wanted) and any(normalize_name(value) == wanted for _, value in parse_qsl(urlsplit(url).query))


def only_match(typed: str, suggestions: list[Element]) -> int | None:
    """The one suggestion holding the typed text, else None. For an autocomplete field the typed text is not the
    value, a suggestion is: the one that holds what was typed needs no call (the default model answered "none"
    for "Lisbon, Portugal" after typing Lisbon, and the form was sent without a city)."""
    holding = [i for i, e in enumerate(suggestions) if names_in(e.name or e.text, typed, begun=True)]
    return holding[0] if len(holding) == 1 else None


async def search(ctx: AgentContext, field: Element, *, press: bool = True, value: str | None = None) -> Outcome:
    """value: the text to type (SubmitForm asks for it with the form's prompt); None: EnterInput asks, for a search
    box what to search for (search_query: asked which words to type, the 1.5B model copied the box's description
    for a task phrased as a question), for an autocomplete field the text it takes (input_value)."""
    bounds = affixes(ctx.task) if not press else None
    if bounds and bounds[0] and not (value and fits_affixes(value, *bounds)):
        # "an item that starts with "Ni" and ends with "ria"": the start is what to type, and the suggestion that
        # fits both is the value (the default model typed an invented "Nierra", on two tasks of one seed; a form's
        # value for the field is replaced too unless it fits both).
        value = bounds[0]
    try:
        actions = [await enter_input(ctx, field, value=value, prompt="search_query" if press else "input_value")]
    except NoOp:
        if not press:  # an autocomplete field already holding the text: typing it again shows nothing new
            raise
        actions = []  # the query is already in the box (typed earlier, or by the page): just search for it
    query = field.value or ""
    given = query.strip() or field.key in ctx.typed_secrets or field.has_value  # a secret's value is never read
    if press and not given:  # the model gave no text twice (enter_input clicked the box): Enter searches nothing
        raise ActionFailed(f"no query to search for: no text for {label(field)} was given", actions)
    if press and query.strip() and shows_results_for(ctx.pagemem.url if ctx.pagemem else "", query):
        # The default model, on the results it asked for, searched for the same words again (and went back and
        # forth between the shop and its results) instead of reading them: Enter would only reload this page.
        raise NoOp(f'this page already shows the results for "{query.strip()}" (its address holds that query)',
                   would_be=f"Pressed Enter in {label(field)}", done=actions)
    await asyncio.sleep(SUGGESTION_WAIT_S)
    update = await settle(ctx)
    if ctx.page_changed:  # the page searched as we typed and navigated
        return Outcome(actions=actions, url_changed=True)
    suggestions = [e for e in (update.added_elements if update else [])
                   if e.key != field.key and not is_form_field(e) and not e.disabled]
    if suggestions and not press and not declares_suggestions(field) and not any(
            names_in(e.name or e.text, query, begun=True) for e in suggestions):
        suggestions = []  # a field that only turned the browser's completion off: what appeared suggests nothing typed
    if suggestions:
        index = None if press else only_match(query, suggestions)
        if bounds and (fitting := [i for i, e in enumerate(suggestions) if fits_affixes(e.name or e.text, *bounds)]):
            index = fitting[0] if len(fitting) == 1 else index
        if index is None:
            variables = {"task": ctx.task, "history": ctx.history_text(), "query": query}
            index = (await choose_paged("search_suggestion", variables, [label(e) for e in suggestions], key="suggestions",
                                        per_page=SUGGESTIONS_PER_PAGE, max_tokens=CHOICE_TOKENS)).index
        if index >= 0:
            text, result = await click_element(ctx, suggestions[index], suggestion_for=field, done=actions)
            actions.append(text)
            await settle(ctx)
            if result.url_changed or ctx.page_changed:
                return Outcome(actions=actions, url_changed=True)
    live = ctx.pagemem.element_by_ref(field.ref) if ctx.pagemem else None
    if live is None or not press:  # the suggestion replaced the search box: nothing left to press Enter in
        return Outcome(actions=actions)
    text, result = await press_enter(ctx, live, done=actions)
    actions.append(text)
    update = await settle(ctx)
    if not (result.url_changed or ctx.page_changed) and update is not None and update.empty and (
            button := search_button(ctx, live)):
        # Enter did nothing: a scripted search box listens to its button alone (the default model pressed Enter in
        # it five times, and its results never came).
        text, result = await click_element(ctx, button, done=actions)
        actions.append(text)
        await settle(ctx)
    return Outcome(actions=actions, url_changed=result.url_changed or ctx.page_changed)


def search_button(ctx: AgentContext, field: Element) -> Element | None:
    """The one enabled button beside a search field (in its section) that says it searches, else None."""
    section = ctx.pagemem.section_of(field.ref) if ctx.pagemem else None
    if section is None:
        return None
    buttons = [e for e in section.all_elements() if e.key != field.key and not e.disabled and not is_form_field(e)
               and e.role in ("button", "generic") and SEARCH_BUTTON.search(e.name or e.text or "")]
    return buttons[0] if len(buttons) == 1 else None
