"""The rule pre-filter: drop candidates that cannot help before the LLM ever sees them (pure functions).

Removed: navigating to the current page (also same-page #anchors and an empty query, "?"), clicking a checked radio, re-opening a menu
that is already open (aria-expanded=true on a popup trigger), switching to the active tab, print/tel/mailto/
javascript: links, disabled elements, and links, navigations and tabs the task's site policy refuses
(act/sites.py: non-web schemes, URLs cut by the extension, malformed URLs, sites outside --allow-domain), and a
like, star or chosen button the agent already clicked on this page (a second click would undo it). A link to a site
the user would be asked about stays: it is asked when chosen.

Some no-ops show only once the value is known (the LLM picks it inside the workflow): typing the text a field
already holds, selecting the option already selected, checking a box that is checked, toggling back a box the
agent itself set on this page. typing_noop / selecting_noop / toggle_noop name them; the basic actions raise
NoOp with that reason, so the attempt fails, says why and is removed from the step's candidates (the loop's
retry rule) instead of repeating an action that changes nothing.
"""

from __future__ import annotations

import re

from companion.act.context import same_document_url
from companion.act.elements import is_checkable, label
from companion.act.models import Candidate
from companion.act.sites import SitePolicy, domain_allowed, element_target
from companion.pagemem.model import Element, PageMem
from companion.pagemem.widgets import is_text_field

DEAD_SCHEMES = ("tel:", "mailto:", "javascript:", "sms:", "fax:")
PRINT = re.compile(r"^\s*print(\s+(this|page|receipt|order))*\s*$", re.I)

Sites = SitePolicy | list[str] | None

__all__ = ["prefilter", "usable_elements", "element_skip_reason", "candidate_skip_reason", "domain_allowed",
           "typing_noop", "selecting_noop", "toggle_noop"]


def _policy(sites: Sites) -> SitePolicy:
    """A list is --allow-domain's (empty: no restriction, every web site is asked about when chosen)."""
    if isinstance(sites, SitePolicy):
        return sites
    return SitePolicy(allowed_domains=list(sites or []))


def element_skip_reason(el: Element, page_url: str, sites: Sites = None) -> str | None:
    """Why this element is a no-op or off-limits (None: keep it)."""
    if el.disabled:
        return "disabled"
    if el.role == "radio" and el.checked:
        return "radio already checked"
    if el.expanded and _has_popup(el) and not is_text_field(el):
        return "its menu is already open"  # its entries are on the page: choose one of them instead
    href = el.attrs.get("href")
    if href is not None and el.tag in ("a", "area"):
        h = href.strip().lower()
        if h.startswith(DEAD_SCHEMES):
            return f"{h.split(':', 1)[0]}: link"
        target, truncated = element_target(el, page_url)
        decision = _policy(sites).decide(target, page_url, truncated=truncated)
        if decision.verdict == "refuse":
            return f"link not followed: {decision.reason}"
        resolved = decision.url.href if decision.url else ""
        if h and (h.startswith("#") or same_document_url(_without_empty_query(resolved), _without_empty_query(page_url))) \
                and not _has_popup(el):
            return "link to the current page"  # a list's "All" facet (href "?") on the list as it is, too
    if PRINT.match(el.name or el.text or ""):
        return "print"
    if el.clicked and el.role not in _STATED_ROLES and not is_text_field(el) \
            and (el.selected or _TOGGLE.match(el.name or el.text or "")):
        return "used already on this page: a second click would undo it"
    return None


# Controls that mark an item and unmark it when clicked again (a post's like, a mail's star). Used by the agent on
# this page, a second click undoes it: the default model liked a post twice and so left it unliked, and pressed an
# "Odd" it had chosen, which unchose it. Boxes, radios, tabs and options say their state and are judged by it.
_TOGGLE = re.compile(r"^\s*(?:un)?(?:like|love|heart|star|favou?rite|follow|retweet|repost|bookmark|upvote|downvote|pin|"
                     r"mute)\b", re.I)
_STATED_ROLES = frozenset({"checkbox", "radio", "switch", "tab", "option", "menuitemcheckbox", "menuitemradio", "treeitem"})


def _without_empty_query(url: str) -> str:
    """'/orders/?' is '/orders/': an empty query string asks for the same page."""
    head, hash_, fragment = url.partition("#")
    return (head[:-1] if head.endswith("?") else head) + hash_ + fragment


def _has_popup(el: Element) -> bool:
    # href="#" menus that open something are not no-ops.
    return el.attrs.get("aria-haspopup", "false").lower() != "false" or "aria-expanded" in el.attrs or "aria-controls" in el.attrs


def candidate_skip_reason(c: Candidate, pagemem: PageMem | None, page_url: str, active_tab: int | None,
                          sites: Sites = None) -> str | None:
    policy = _policy(sites)
    if c.kind == "navigate" and c.url is not None:
        if same_document_url(c.url, page_url):
            return "the current page"
        decision = policy.decide(c.url)
        if decision.verdict == "refuse":
            return decision.reason
    if c.kind == "switch_tab" and c.tab_id is not None and c.tab_id == active_tab:
        return "the active tab"
    if c.kind == "element" and c.element is not None and pagemem is not None:
        el = pagemem.element_by_ref(c.element)
        if el is None:
            return "no longer on the page"
        return element_skip_reason(el, page_url, policy)
    return None


def prefilter(candidates: list[Candidate], pagemem: PageMem | None, *, page_url: str, active_tab: int | None = None,
              allowed_domains: list[str] | None = None, sites: SitePolicy | None = None) -> list[Candidate]:
    policy = _policy(sites if sites is not None else allowed_domains)
    return [c for c in candidates if candidate_skip_reason(c, pagemem, page_url, active_tab, policy) is None]


def usable_elements(elements: list[Element], page_url: str, sites: Sites = None) -> list[Element]:
    policy = _policy(sites)
    return [e for e in elements if element_skip_reason(e, page_url, policy) is None]


# ---------------------------------------------------------------------------- no-ops known once the value is


def _same_text(a: str | None, b: str | None) -> bool:
    return " ".join((a or "").split()) == " ".join((b or "").split())


def typing_noop(el: Element, text: str) -> str | None:
    """Why typing `text` into `el` changes nothing (None: it does). A secret's value is never read: unknown."""
    if el.is_password or el.value is None or not text.strip():
        return None
    if _same_text(el.value, text):
        return f'{label(el)} already holds "{" ".join(text.split())[:80]}": typing it again changes nothing'
    return None


def selecting_noop(el: Element, option: str) -> str | None:
    """Why selecting `option` in the native select `el` changes nothing (None: it does)."""
    if el.secret or el.selected_option is None:
        return None
    if _same_text(el.selected_option, option):
        return f'"{option[:80]}" is already the selected option of {label(el)}: selecting it again changes nothing'
    return None


def toggle_noop(el: Element, state: bool) -> str | None:
    """Why setting the box `el` to `state` is a no-op (None: it is not). Setting the state it has changes
    nothing; toggling back a box the agent itself set on this page (Element.clicked) undoes its own action
    (a small model re-chooses the box it just checked because its name still matches the task)."""
    if not is_checkable(el):
        return None
    if el.checked is not None and bool(el.checked) == state:
        return f"{label(el)} is already {'checked' if state else 'unchecked'}"
    if el.clicked and el.checked is not None:
        was = "checked" if el.checked else "unchecked"
        return f"{label(el)} was {was} by an earlier action on this page: {'checking' if state else 'unchecking'} it would undo that"
    return None
