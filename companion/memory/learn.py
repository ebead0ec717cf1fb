"""Learn from this page / this click: the one way site memory is written (ARCHITECTURE "three writers").

Exploration (companion/explore), passive learning (pages and clicks the extension reports while the user
browses) and the agent's own visits all call these functions, so what one writer records every reader finds:

learn_page(store, pagemem, source=...)
    Registers a page: fills its summaries and purposes from the caches (apply_cached), matches it against
    the site's templates (MatchesTemplate) and creates one when the page has a list section or was reached
    from a list item (paper A.2), stores it (scrubbed of typed and password values), counts the visit and
    the links it shows, and re-derives the learned bookmarks.
learn_click(store, page, element, revealed=[...] | navigated_to=url)
    Records element behaviour by stable key (pagemem/identity.py): the element is explored (E_w); elements
    a click revealed on the same page become its dropdown elements (a later visit shows them before the
    trigger is clicked); a click that navigated links the two pages.
known_dropdowns(store, pagemem)
    The dropdown record of every trigger on the page (the observation shows them, the agent can choose
    one of their elements directly).
add_bookmark(store, url, ...)
    A bookmark the user (or a caller) made: never replaced by the learned ones.

The bookmark rule (bookmarks.py, learned_bookmarks) ranks pages from the page stats kept here: the distinct
pages that link to each (outside long content lists: a site's navigation repeats on every page, a product
list links each product once), the times the agent or the user entered it or clicked to it (exploration's
own visits and clicks do not count), and its recorded controls.

Memory is a cache: callers that must not fail on a memory error (the agent) catch exceptions themselves.
"""

from __future__ import annotations

import logging
from typing import Iterable
from urllib.parse import urljoin, urlsplit

from companion.memory.bookmarks import AUTH_PAGE, BOOKMARK_MIN_SCORE, MAX_LEARNED_BOOKMARKS, learned_bookmarks
from companion.memory.records import DropdownRecord, LinkRecord, PageStats, RevealedElement, Source
from companion.memory.store import WebsiteMemStore, normalize_url, site_key
from companion.pagemem.identity import element_keys, element_key
from companion.pagemem.model import Bookmark, Element, PageMem, Template

log = logging.getLogger(__name__)

# Pages worth remembering: a site's own pages. about:blank, chrome:// and data: URLs are no site.
REMEMBERED_SCHEMES = ("http", "https", "file")
LINKED_FROM_CAP = 20  # distinct linking pages kept per page: enough to rank, bounded in size
CONTENT_LIST_ITEMS = 12  # a list with more items is content (orders, products), not navigation
MAX_REVEALED = 60  # a mega-menu is remembered by its first entries (and how many it has: DropdownRecord.revealed)
NAME_CHARS = 80


def remembered(url: str) -> bool:
    return urlsplit(url).scheme in REMEMBERED_SCHEMES


# --------------------------------------------------------------------------- pages


def learn_page(store: WebsiteMemStore, pagemem: PageMem, *, source: Source, visit: bool = True,
               from_list_item: bool | None = None) -> PageMem:
    """Register a page in its site's memory (see the module docstring) and return it with the cached
    summaries and purposes applied (the same object, filled in place).

    visit: count this call as a page entry (the agent calls once per step on one page: only the first is a
    visit). from_list_item: the page was reached by clicking a list item's element; None looks it up in the
    recorded links."""
    if not remembered(pagemem.url):
        return pagemem
    store.apply_cached(pagemem)
    register_template(store, pagemem, from_list_item)
    store.remember(pagemem)
    counted = visit and source != "explore"
    stats = store.update_page_stats(lambda stats: _count_page(stats, store.site, pagemem, counted_visit=counted))
    refresh_bookmarks(store, stats)
    return pagemem


def register_template(store: WebsiteMemStore, pagemem: PageMem, from_list_item: bool | None = None) -> Template | None:
    """MatchesTemplate, then the paper's rule: a page with a list section, or reached from a list item, is a
    template for the pages that match it. Returns the page's template (None: it is no template page)."""
    known = store.find_template(pagemem)
    if known is not None:
        return known
    if from_list_item is None:
        url = normalize_url(pagemem.url)
        from_list_item = any(link.in_list_item and link.to_url == url for link in store.links())
    if from_list_item or any(s.kind == "list" for s in pagemem.sections):
        return store.add_template(pagemem)
    return None


def _count_page(stats: dict[str, PageStats], site: str, pagemem: PageMem, counted_visit: bool) -> list[PageStats]:
    """Update `stats` in place for a page entry: its own title, summary and visits, and one more linking page
    for every same-site page it links to. Returns the stats that changed."""
    url = normalize_url(pagemem.url)
    changed: dict[str, PageStats] = {}
    before = stats.get(url)
    me = before.model_copy(deep=True) if before is not None else PageStats(url=url)
    me.title = pagemem.title or me.title
    me.summary = (None if pagemem.summary_stood_in else pagemem.summary) or me.summary  # a stand-in is not kept
    if counted_visit:
        me.visits += 1
    stats[url] = me
    if me != before:
        changed[url] = me
    for target, name in _links_shown(pagemem, site):
        if target == url:
            continue
        st = stats.get(target) or PageStats(url=target)
        if url in st.linked_from:
            continue
        if len(st.linked_from) >= LINKED_FROM_CAP:
            continue
        st.linked_from.append(url)
        st.name = st.name or name
        stats[target] = changed[target] = st
    return list(changed.values())


def _links_shown(pagemem: PageMem, site: str) -> Iterable[tuple[str, str]]:
    """(normalized target URL, link name) of the same-site links outside long content lists."""
    def links(elements: Iterable[Element]) -> Iterable[tuple[str, str]]:
        for el in elements:
            target = link_target(el, pagemem.url)
            if target and site_key(target) == site:
                yield target, el.name[:NAME_CHARS]

    for section in pagemem.sections:
        yield from links(section.elements)
        if len(section.items) <= CONTENT_LIST_ITEMS:
            for item in section.items:
                yield from links(item.all_elements())


def link_target(el: Element, page_url: str) -> str | None:
    """The normalized http(s) URL a link leads to (None: no link, a same-page anchor or another scheme)."""
    href = el.attrs.get("href")
    if el.tag not in ("a", "area") or not href or href.strip().startswith("#") or el.url_truncated:
        return None
    target = el.url or urljoin(page_url, href.strip())
    if urlsplit(target).scheme not in ("http", "https"):
        return None
    return normalize_url(target)


# --------------------------------------------------------------------------- bookmarks


def refresh_bookmarks(store: WebsiteMemStore, stats: dict[str, PageStats] | None = None) -> list[Bookmark]:
    """Re-derive the learned bookmarks from the page stats and store them (written only when they changed)."""
    bookmarks = learned_bookmarks((stats if stats is not None else store.page_stats()).values(), store.controls())
    store.set_learned_bookmarks(bookmarks)
    return bookmarks


def add_bookmark(store: WebsiteMemStore, url: str, title: str = "", note: str = "") -> Bookmark:
    """A bookmark made by the user: kept as given, never replaced by the learned ones."""
    bookmark = Bookmark(url=normalize_url(url), title=title, note=note)
    store.add_bookmark(bookmark)
    return bookmark


# --------------------------------------------------------------------------- clicks


def learn_click(store: WebsiteMemStore, page: PageMem, element: Element, *, revealed: list[Element] | None = None,
                navigated_to: str | None = None, source: Source = "agent", trigger_key: str | None = None) -> str:
    """Record what a click on `element` did (module docstring). `page` is the page as it is after the click
    when it revealed elements (it holds them), else as it was. trigger_key: the element's stable key when the
    caller computed it before the click (the click may change the page around it). Returns that key."""
    key = trigger_key or element_key(page, element)
    store.mark_explored([key])
    if revealed:
        keys = element_keys(page)
        others = [e for e in revealed if e.key != element.key]
        shown = others[:MAX_REVEALED]
        record = DropdownRecord(
            trigger_key=key, url=normalize_url(page.url), template_id=page.template_id, role=element.role,
            name=element.name[:NAME_CHARS], source=source, revealed=len(others),
            elements=[RevealedElement(key=keys.get(e.key) or element_key(page, e), role=e.role, name=e.name[:NAME_CHARS])
                      for e in shown])
        store.save_dropdown(record)
    target = normalize_url(navigated_to) if navigated_to and remembered(navigated_to) else None
    if target and remembered(page.url) and target != normalize_url(page.url):
        in_item = any(element.key in {e.key for e in item.all_elements()} for s in page.sections for item in s.items)
        store.count_link(LinkRecord(from_url=normalize_url(page.url), to_url=target, key=key,
                                    name=element.name[:NAME_CHARS], in_list_item=in_item))
        if site_key(target) == store.site and source != "explore":  # people's clicks rank bookmarks, not the crawler's
            def clicked_in(stats: dict[str, PageStats]) -> list[PageStats]:
                st = stats.get(target) or PageStats(url=target)
                st.clicks_in += 1
                st.name = st.name or element.name[:NAME_CHARS]
                stats[target] = st
                return [st]

            store.update_page_stats(clicked_in)
    return key


def known_dropdowns(store: WebsiteMemStore, pagemem: PageMem) -> dict[tuple[int, int], DropdownRecord]:
    """The remembered dropdown of every trigger on the page, by the trigger's wire address. A record of this
    page wins, then one of a page of the same template; records from elsewhere on the site serve only
    when they come from several pages and all agree (a header menu), since one trigger may open different menus
    on different pages (a list's "Actions" differ per model; a held-out admin's orders showed the products' "By
    status" menu, Active/Draft/Discontinued, recorded on the product list alone). Triggers now expanded are left out (what they
    opened is on the page already), as are records none of whose elements are known."""
    records: dict[str, list[DropdownRecord]] = {}
    for r in store.dropdowns():
        if r.elements:
            records.setdefault(r.trigger_key, []).append(r)
    if not records:
        return {}
    url = normalize_url(pagemem.url)
    out: dict[tuple[int, int], DropdownRecord] = {}
    keys = element_keys(pagemem)
    for el in pagemem.all_elements():
        found = records.get(keys.get(el.key, ""))
        if not found or el.expanded or el.attrs.get("aria-expanded") == "true":
            continue
        choice = (next((r for r in found if r.url == url), None)
                  or next((r for r in found if r.template_id and r.template_id == pagemem.template_id), None))
        if (choice is None and len({r.url for r in found}) > 1
                and len({tuple(e.key for e in r.elements) for r in found}) == 1):
            choice = found[0]
        if choice is not None:
            out[el.key] = choice
    return out


__all__ = ["AUTH_PAGE", "BOOKMARK_MIN_SCORE", "MAX_LEARNED_BOOKMARKS", "add_bookmark", "known_dropdowns", "learn_click",
           "learn_page", "learned_bookmarks", "link_target", "refresh_bookmarks", "register_template", "remembered"]
