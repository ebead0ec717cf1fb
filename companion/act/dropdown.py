"""DropdownAction (App. A.5, Algorithm 10): click the trigger, read what it revealed from the section diff.

A URL change or nothing new: it was a plain click, done. A new modal: the next step handles it with focused
attention. A form-like cluster (IsForm): SubmitForm on a section synthesized from the revealed elements.
Otherwise the LLM picks one revealed element (or none) and it is acted on. What the trigger revealed is
remembered on the element (dropdown_elements) and the element is marked explored in the site memory.
"""

from __future__ import annotations

import logging

from companion import llm
from companion.act.basic import CHOICE_TOKENS, click_element, enter_input, select_option, set_checked, settle
from companion.act.context import AgentContext
from companion.act.elements import is_checkable, is_form_cluster, is_native_select, is_text_field, label
from companion.act.form import submit_form
from companion.act.models import Outcome
from companion.memory.store import element_site_key
from companion.pagemem.model import Element, PageSection

log = logging.getLogger(__name__)


def _remember(ctx: AgentContext, trigger: Element, revealed: list[Element]) -> None:
    live = ctx.pagemem.element_by_ref(trigger.ref) if ctx.pagemem else None
    for el in {id(trigger): trigger, id(live): live}.values():
        if el is not None:
            el.explored = True
            if revealed:
                el.dropdown_elements = [e.ref for e in revealed]
    if ctx.store is not None:
        try:
            ctx.store.mark_explored([element_site_key(trigger)])
        except Exception:  # the memory file is a cache: a failed write must not fail the action
            log.exception("could not record %s as explored", label(trigger))


# A revealed listbox/menu is the container of the options, not an option: offering it would be a no-op.
CONTAINER_ROLES = {"listbox", "menu", "menubar", "tree", "grid", "tablist", "radiogroup", "group", "list"}


MAX_OPTIONS = 60  # a mega-menu is offered by its first entries: the prompt must stay small on CPU


def revealed_elements(added: list[Element], trigger: Element) -> list[Element]:
    out = [e for e in added if not e.disabled and e.key != trigger.key]
    leaves = [e for e in out if e.role not in CONTAINER_ROLES]
    return leaves or out


def known_dropdown(ctx: AgentContext, el: Element) -> bool:
    """Did exploration (or an earlier step) see this element reveal elements when clicked?"""
    if el.dropdown_elements:
        return True
    if ctx.store is None or ctx.pagemem is None:
        return False
    try:
        stored = ctx.store.load_page(ctx.pagemem.url)
    except Exception:
        return False
    if stored is None:
        return False
    identity = el.identity_key()
    return any(e.dropdown_elements and e.identity_key() == identity for e in stored.all_elements())


async def act_on_revealed(ctx: AgentContext, option: Element) -> tuple[list[str], bool]:
    """Act on the chosen revealed element as it requires (not through DropdownAction again)."""
    if is_text_field(option):
        return [await enter_input(ctx, option)], False
    if is_native_select(option):
        return [await select_option(ctx, option)], False
    if is_checkable(option):
        return [await set_checked(ctx, option)], False
    text, result = await click_element(ctx, option)
    return [text], result.url_changed


async def dropdown_action(ctx: AgentContext, trigger: Element) -> Outcome:
    pm = ctx.pagemem
    modal_before = pm is not None and pm.modal() is not None
    text, result = await click_element(ctx, trigger)
    actions = [text]
    update = await settle(ctx)
    if result.url_changed or ctx.page_changed:
        return Outcome(actions=actions, url_changed=True)
    pm = ctx.pagemem
    if not modal_before and pm is not None and pm.modal() is not None:
        _remember(ctx, trigger, [])
        return Outcome(actions=actions, modal_opened=True)
    revealed = revealed_elements(update.added_elements if update else [], trigger)
    _remember(ctx, trigger, revealed)
    if not revealed:
        return Outcome(actions=actions)
    if is_form_cluster(revealed):
        section = PageSection(id=f"revealed-by-{trigger.index}", kind="form", roots=[e.ref for e in revealed], tag="form",
                              elements=revealed, purpose=f"form revealed by {label(trigger)}")
        out = await submit_form(ctx, section, detached=True)
        return Outcome(actions=actions + out.actions, url_changed=out.url_changed, modal_opened=out.modal_opened)
    offered = revealed[:MAX_OPTIONS]
    variables = {"task": ctx.task, "history": ctx.history_text(), "trigger": label(trigger),
                 "options": [label(e) for e in offered]}
    reply = await llm.choose("dropdown_option", variables, n=len(offered), allow_none=True, max_tokens=CHOICE_TOKENS)
    if reply.answer.index < 0:
        return Outcome(actions=actions)
    more, url_changed = await act_on_revealed(ctx, offered[reply.answer.index])
    actions.extend(more)
    await settle(ctx)
    return Outcome(actions=actions, url_changed=url_changed or ctx.page_changed)
