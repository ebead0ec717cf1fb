"""DropdownAction (App. A.5, Algorithm 10): click the trigger, read what it revealed from the section diff.

A URL change or nothing new: it was a plain click, done. A new modal: the next step handles it with focused
attention. A form-like cluster (IsForm): SubmitForm on a section synthesized from the revealed elements.
Otherwise the LLM picks one revealed element (or none) and it is acted on; a long menu (the paper's 100-option
WorkArena menus) is shown a page at a time (paging.py), so no option is left unseen. What the trigger revealed is
remembered on the element for this document (dropdown_elements) and in the site memory by stable key
(memory/learn.py learn_click: a later visit shows the hidden elements and can pick one directly, open_and_pick);
a click that navigated is recorded as a link between the two pages.
"""

from __future__ import annotations

import logging

from companion.act.basic import CHOICE_TOKENS, click_element, enter_input, select_option, set_checked, set_option, settle
from companion.act.context import AgentContext
from companion.act.errors import ActionFailed, NoOp, NotYet
from companion.act.elements import is_checkable, is_empty, is_form_cluster, is_native_select, label
from companion.act.form import submit_form
from companion.act.models import FieldAction, Outcome
from companion.act.paging import choose_paged
from companion.act.premature import check_reply_for_forward, submits
from companion.memory import learn
from companion.memory.records import RevealedElement
from companion.pagemem.identity import element_key, element_keys, normalize_name
from companion.pagemem.model import Element, PageMem, PageSection
from companion.pagemem.update import revealed_elements
from companion.pagemem.widgets import is_text_field
from companion.text import names_in, quoted_as_written

log = logging.getLogger(__name__)


def _remember(ctx: AgentContext, trigger: Element, revealed: list[Element], trigger_key: str) -> None:
    live = ctx.pagemem.element_by_ref(trigger.ref) if ctx.pagemem else None
    for el in {id(trigger): trigger, id(live): live}.values():
        if el is not None:
            el.explored = True
            if revealed:
                el.dropdown_elements = [e.ref for e in revealed]
    if ctx.store is not None and ctx.pagemem is not None:
        try:
            learn.learn_click(ctx.store, ctx.pagemem, trigger, revealed=revealed, trigger_key=trigger_key)
        except Exception:  # the memory file is a cache: a failed write must not fail the action
            log.exception("could not record what %s revealed", label(trigger))


def remember_navigation(ctx: AgentContext, page: PageMem | None, el: Element, trigger_key: str | None = None) -> None:
    """A click on `el` (on `page`, as it was) led to another document: link the two pages in site memory."""
    if ctx.store is None or page is None or ctx.pagemem is None or ctx.pagemem is page:
        return
    try:
        learn.learn_click(ctx.store, page, el, navigated_to=ctx.pagemem.url, trigger_key=trigger_key)
    except Exception:
        log.exception("could not record where %s led", label(el))


OPTIONS_PER_PAGE = 60  # a longer menu is shown a page at a time: each prompt stays small on CPU


def _remembered_entry(ctx: AgentContext, trigger: Element, key: str) -> RevealedElement | None:
    if ctx.store is None or ctx.pagemem is None:
        return None
    try:
        record = learn.known_dropdowns(ctx.store, ctx.pagemem).get(trigger.key)
    except Exception:
        log.exception("could not read the remembered dropdowns")
        return None
    return next((e for e in record.elements if e.key == key), None) if record is not None else None


def known_dropdown(ctx: AgentContext, el: Element) -> bool:
    """Did exploration, the user or an earlier step see this element reveal elements when clicked (on this
    page, a page of its template, or anywhere on the site when all agree: learn.known_dropdowns)?"""
    if el.dropdown_elements:
        return True
    if ctx.store is None or ctx.pagemem is None:
        return False
    try:
        return el.key in learn.known_dropdowns(ctx.store, ctx.pagemem)
    except Exception:
        log.exception("could not read the remembered dropdowns")
        return False


def find_by_key(pm: PageMem | None, key: str, revealed: list[Element], remembered: RevealedElement | None = None) -> Element | None:
    """The element with this stable key now on the page, preferring what the trigger just revealed (a key
    names one element of the page in a given state; the open menu is that state). Failing that, the one
    revealed element with the remembered role and name (the menu may have landed in another section than
    when it was recorded: the key's section signature then differs, what the element is does not)."""
    if pm is None:
        return None
    keys = element_keys(pm)
    for el in revealed:
        if keys.get(el.key) == key:
            return el
    found = next((el for el in pm.all_elements() if keys.get(el.key) == key and not el.disabled), None)
    return found if found is not None else _the_one_alike(revealed, remembered)


def _the_one_alike(elements: list[Element], remembered: RevealedElement | None) -> Element | None:
    """The one element among `elements` with the remembered entry's role and name (None: none, or several)."""
    if remembered is None:
        return None
    alike = [el for el in elements
             if el.role == remembered.role and normalize_name(el.name) == normalize_name(remembered.name)]
    return alike[0] if len(alike) == 1 else None


def _shown_entry(pm: PageMem | None, pick: str, remembered: RevealedElement | None) -> Element | None:
    """The remembered entry when the page already shows it: by its stable key, or the one element of the page
    with its role and name."""
    found = find_by_key(pm, pick, [])
    if found is not None or pm is None or remembered is None or not remembered.name:
        return found
    return _the_one_alike([el for el in pm.all_elements() if not el.disabled], remembered)


def _native_option(select: Element, remembered: RevealedElement | None) -> str | None:
    """The select's option label that is the remembered entry (names compared as people read them)."""
    if remembered is None:
        return None
    wanted = normalize_name(remembered.name)
    return next((o for o in select.options if normalize_name(o) == wanted), None)


async def act_on_revealed(ctx: AgentContext, option: Element, done: list[str] | None = None) -> tuple[list[str], bool]:
    """Act on the chosen revealed element as it requires (not through DropdownAction again). A click is asked
    about like any other (confirmation.py); `done` (the trigger's click) is kept when the user declines."""
    if is_text_field(option):
        return [await enter_input(ctx, option)], False
    if is_native_select(option):
        return [await select_option(ctx, option)], False
    if is_checkable(option):
        return [await set_checked(ctx, option)], False
    text, result = await click_element(ctx, option, done=done)
    return [text], result.url_changed


def shows_named_option(ctx: AgentContext, trigger: Element) -> bool:
    """Does the trigger show, as its own name, one of the options it revealed on this document (a custom select
    showing its choice), and one the task names? Opening it again can then only undo the task's choice."""
    shown = normalize_name(trigger.name or "")
    return bool(shown) and shown in ctx.menu_options.get((trigger.ref.frame, trigger.ref.id), ()) and names_in(
        ctx.task, trigger.name)


MENU_ROLES = frozenset({"menuitem", "menuitemcheckbox", "menuitemradio", "option", "treeitem"})


def is_open(pm: PageMem | None, trigger: Element) -> bool:
    """The trigger's menu is open: it says so (aria-expanded), or every element its last click revealed on this
    document is still on the page and they are a menu's entries. A "Load more" that revealed rows is not a menu:
    clicking it again loads more."""
    shown = [pm.element_by_ref(ref) for ref in trigger.dropdown_elements] if pm is not None else []
    if not shown or any(e is None for e in shown):
        return False
    return trigger.expanded is True or all(e.role in MENU_ROLES for e in shown)


def sends_empty(el: Element, revealed: list[Element], typed_secrets: set[tuple[int, int]]) -> bool:
    """A send or submit control revealed beside a text field that is still empty (a reply's "send" under its empty
    message box): not a menu's entry to pick. Picked, it sent an empty reply the task never asked for; the fields
    are the next choice's to fill."""
    return submits(el) and any(is_text_field(e) and is_empty(e, typed_secrets) for e in revealed)


def quoted_elsewhere(task: str, revealed: list[Element]) -> bool:
    """The task quotes names, and no revealed element bears one of them."""
    wanted = quoted_as_written(task)
    return bool(wanted) and not any(names_in(e.name or e.text, q) for e in revealed for q in wanted)


def quoted_entry(task: str, revealed: list[Element]) -> Element | None:
    """The one revealed entry whose whole name is a name the task quotes ('For the user @kenda, click on the "Report"
    button' and a post's menu of six), else None: the task has chosen, and a call could only choose otherwise."""
    wanted = {normalize_name(q) for q in quoted_as_written(task)}
    found = [e for e in revealed if normalize_name(e.name or e.text) in wanted]
    return found[0] if len(found) == 1 else None


async def dropdown_action(ctx: AgentContext, trigger: Element, *, fill: FieldAction, pick: str | None = None) -> Outcome:
    """pick: the stable key of a remembered hidden element to act on once the trigger has opened (the agent
    chose it directly from the observation); None asks the LLM which revealed element to use.
    fill: ElementAction (routing.element_action), for SubmitForm on a form the trigger revealed."""
    pm = ctx.pagemem
    modal_before = pm is not None and pm.modal() is not None
    key = element_key(pm, trigger) if pm is not None else None  # before the click changes the page around it
    remembered = _remembered_entry(ctx, trigger, pick) if pick is not None else None
    shown = _shown_entry(pm, pick, remembered) if pick is not None else None
    if shown is not None:
        # The menu is open already (a filter list the page shows expanded, like the Django admin's; a menu left
        # open): clicking its trigger would close it and hide the entry. The entry is acted on as it is.
        actions, url_changed = await act_on_revealed(ctx, shown)
        await settle(ctx)
        return Outcome(actions=actions, url_changed=url_changed or ctx.page_changed)
    if pick is not None and is_native_select(trigger):
        # Its options are its own (exploration read them without a click): the remembered one is selected as
        # it is. Opening a native select shows no elements, so the entry was never found that way.
        option = _native_option(trigger, remembered)
        if option is None:
            raise ActionFailed(f"{label(trigger)} no longer has the remembered option")
        return Outcome(actions=[await set_option(ctx, trigger, option)], url_changed=ctx.page_changed)
    if pick is None and is_open(pm, trigger):
        # The default model clicked a menu's button five times in one step, opening and closing its menu in turn.
        raise NoOp(f"{label(trigger)} is open: what it showed is on the page now; clicking it again would close it",
                   would_be=f"Clicked {label(trigger)}")
    if pick is None and shows_named_option(ctx, trigger):
        # The default model, its menu set to the team the task names, opened it again and picked another team.
        raise NoOp(f'{label(trigger)} already shows "{trigger.name}", the option the task names',
                   would_be=f'Clicked option "{trigger.name}"')
    text, result = await click_element(ctx, trigger)
    actions = [text]
    update = await settle(ctx)
    if result.url_changed or ctx.page_changed:
        remember_navigation(ctx, pm, trigger, key)
        if pick is not None:
            raise ActionFailed(f"{label(trigger)} led to another page instead of opening its menu", done=actions)
        return Outcome(actions=actions, url_changed=True)
    pm = ctx.pagemem
    if not modal_before and pm is not None and pm.modal() is not None:
        _remember(ctx, trigger, [], key)
        return Outcome(actions=actions, modal_opened=True)
    revealed = revealed_elements(update.added_elements if update else [], trigger)
    _remember(ctx, trigger, revealed, key)
    ctx.menu_options.setdefault((trigger.ref.frame, trigger.ref.id), set()).update(
        normalize_name(e.name) for e in revealed if e.name)
    if pick is not None:
        option = find_by_key(pm, pick, revealed, remembered)
        if option is None:
            raise ActionFailed(f"{label(trigger)} opened, but the remembered option is not among what it showed", done=actions)
        more, url_changed = await act_on_revealed(ctx, option, actions)
        actions.extend(more)
        await settle(ctx)
        return Outcome(actions=actions, url_changed=url_changed or ctx.page_changed)
    if not revealed:
        return Outcome(actions=actions)
    if is_form_cluster(revealed):
        section = PageSection(id=f"revealed-by-{trigger.index}", kind="form", roots=[e.ref for e in revealed], tag="form",
                              elements=revealed, purpose=f"form revealed by {label(trigger)}")
        out = await submit_form(ctx, section, fill=fill, detached=True)
        return Outcome(actions=actions + out.actions, url_changed=out.url_changed, modal_opened=out.modal_opened)
    if quoted_elsewhere(ctx.task, revealed):
        # The task quotes what it is after ('click on the link "semper"') and the trigger revealed nothing of that
        # name (a tab of other words): asked anyway, the default model picked one of them, which ended the episode.
        return Outcome(actions=actions)
    offered = [e for e in revealed if not sends_empty(e, revealed, ctx.typed_secrets)]
    if not offered:
        return Outcome(actions=actions)
    named = quoted_entry(ctx.task, offered)
    if named is not None:
        chosen = named  # the one entry the task quotes ('click on the "Report" button'): no call
    else:
        variables = {"task": ctx.task, "history": ctx.history_text(), "trigger": label(trigger)}
        choice = await choose_paged("dropdown_option", variables, [label(e) for e in offered], key="options",
                                    per_page=OPTIONS_PER_PAGE, max_tokens=CHOICE_TOKENS)
        if choice.index < 0:
            return Outcome(actions=actions)
        chosen = offered[choice.index]
        try:
            # The model's pick among what the click revealed is held to the reply rule as a click of its own is: a
            # mail opened from its row revealed "Reply" and "Forward", and the model replied to a message the task
            # sends on to someone else.
            check_reply_for_forward(ctx, chosen)
        except NotYet as exc:
            exc.done = list(actions)
            raise
    more, url_changed = await act_on_revealed(ctx, chosen, actions)
    actions.extend(more)
    await settle(ctx)
    return Outcome(actions=actions, url_changed=url_changed or ctx.page_changed)
