"""The rule pre-filter: drop candidates that cannot help before the LLM ever sees them (pure functions).

Removed: navigating to the current page (also same-page #anchors), clicking a checked radio, switching to
the active tab, print/tel/mailto/javascript: links, disabled elements, and links or navigations leaving
the allowed domains when the task restricts them.
"""

from __future__ import annotations

import re
from urllib.parse import urljoin, urlsplit

from companion.act.context import same_document_url
from companion.act.models import Candidate
from companion.pagemem.model import Element, PageMem

DEAD_SCHEMES = ("tel:", "mailto:", "javascript:", "sms:", "fax:")
PRINT = re.compile(r"^\s*print(\s+(this|page|receipt|order))*\s*$", re.I)


def domain_allowed(url: str, allowed_domains: list[str]) -> bool:
    """True when no restriction is set, or the URL's host is an allowed domain or a subdomain of one.
    An entry with a port ("127.0.0.1:8000") must match host and port."""
    if not allowed_domains:
        return True
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https"):
        return True  # about:, data:, chrome: are not "leaving" a website
    host = (parts.hostname or "").lower()
    netloc = f"{host}:{parts.port}" if parts.port else host
    for domain in allowed_domains:
        d = domain.lower().strip().removeprefix("https://").removeprefix("http://").rstrip("/")
        if ":" in d:
            if netloc == d:
                return True
        elif host == d or host.endswith("." + d):
            return True
    return False


def element_skip_reason(el: Element, page_url: str, allowed_domains: list[str]) -> str | None:
    """Why this element is a no-op or off-limits (None: keep it)."""
    if el.disabled:
        return "disabled"
    if el.role == "radio" and el.checked:
        return "radio already checked"
    href = el.attrs.get("href")
    if href is not None and el.tag in ("a", "area"):
        h = href.strip().lower()
        if h.startswith(DEAD_SCHEMES):
            return f"{h.split(':', 1)[0]}: link"
        target = urljoin(page_url, href.strip())
        if h and (h.startswith("#") or same_document_url(target, page_url)) and not _has_popup(el):
            return "link to the current page"
        if not domain_allowed(target, allowed_domains):
            return "link outside the allowed domains"
    if PRINT.match(el.name or el.text or ""):
        return "print"
    return None


def _has_popup(el: Element) -> bool:
    # href="#" menus that open something are not no-ops.
    return el.attrs.get("aria-haspopup", "false").lower() != "false" or "aria-expanded" in el.attrs or "aria-controls" in el.attrs


def candidate_skip_reason(c: Candidate, pagemem: PageMem | None, page_url: str, active_tab: int | None,
                          allowed_domains: list[str]) -> str | None:
    if c.kind == "navigate" and c.url is not None:
        if same_document_url(c.url, page_url):
            return "the current page"
        if not domain_allowed(c.url, allowed_domains):
            return "outside the allowed domains"
    if c.kind == "switch_tab" and c.tab_id is not None and c.tab_id == active_tab:
        return "the active tab"
    if c.kind == "element" and c.element is not None and pagemem is not None:
        el = pagemem.element_by_ref(c.element)
        if el is None:
            return "no longer on the page"
        return element_skip_reason(el, page_url, allowed_domains)
    return None


def prefilter(candidates: list[Candidate], pagemem: PageMem | None, *, page_url: str, active_tab: int | None = None,
              allowed_domains: list[str] | None = None) -> list[Candidate]:
    domains = allowed_domains or []
    return [c for c in candidates if candidate_skip_reason(c, pagemem, page_url, active_tab, domains) is None]


def usable_elements(elements: list[Element], page_url: str, allowed_domains: list[str] | None = None) -> list[Element]:
    domains = allowed_domains or []
    return [e for e in elements if element_skip_reason(e, page_url, domains) is None]
