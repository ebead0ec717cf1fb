"""A page's controls: the links that only change its query string (sort, filter, page number, view flags) and
its search box. Exploration maps an application, not its URLs: such a link is one of the page's controls,
recorded in memory (memory/records.py ControlRecord), not a page of its own.

The rule (query_params_changed, is_same_view), and why it is general:
- A *query variant* of a registered page has the page's scheme, host and path, and a query that adds
  parameters to the page's own or sets them differently (`?o=2` of a list is about `o`). The page registered
  first at a path is the base of its variants (explorer.py).
- A query string can also BE the identity of a page (`index.php?page=orders`, `item?id=42` next to
  `item?id=7`). URLs cannot tell the two apart, the pages can: a parameter is a control when the page it
  leads to is the same view as the base page: the same structure (PageMem.template_id: a sorted, filtered
  or later page of a list only changes rows), or the base page's working parts (sections with controls, and
  lists) with some left out: a popup flag that drops the site's chrome. A parameter that leads to other
  working parts (`?page=customers` after `?page=orders` with another form or table; a dashboard's
  `?page=orders` that adds a list) selects another page. This is the evidence DividePage gives on any site; one load per parameter and path pattern settles it
  (explorer.py), and the verdict holds for the parameter's other values there, which are then not loaded.
  Two pages that differ only by a query value AND share one layout (`item?id=7`, `item?id=42`) are one
  view: exploration registers one of them, as MatchesTemplate would skip the other.

Controls are read from the base page's structure (page_controls), grouped by the parameter that differs:
- search: a typing field that is the only one of its form and says it searches (its name, label or button
  in several languages, or type=search / role=searchbox);
- pagination: the group's link names are page numbers or next/previous words;
- view: a parameter whose name starts with "_" (the site's own flags: a popup, facet counts);
- sort: most of the group's links are named as the page's table columns, or several sit in a list's header (a
  list section's elements outside its rows), or the parameter's name says it sorts;
- filter: any other group; its label is the parameter's name in words (a date range sets two parameters
  at once: the group is the pair).
"""

from __future__ import annotations

import re
from collections import Counter
from urllib.parse import parse_qsl, urlsplit

from companion.explore.should_skip import link_url
from companion.memory.records import ControlRecord
from companion.memory.store import normalize_url
from companion.observe.outline import parse_outline, read_table
from companion.pagemem.model import Element, PageMem
from companion.pagemem.widgets import is_page_link_name, is_text_field

# Query parameter names that say they sort (whole words of the name).
SORT_PARAM = re.compile(r"(^|[_-])(sort|sortby|order|orderby|ordering|dir|direction)($|[_-])", re.I)
# A search: the field's or its button's words (several languages).
SEARCH_WORDS = re.compile(r"\b(search|find|query|suche|suchen|rechercher?|buscar|b[úu]squeda|cerca|cercare|"
                          r"pesquisar?|procurar|zoeken|zoek)\b", re.I)
MAX_CHOICES = 20  # a filter is remembered by its first choices
NAME_CHARS = 60


def split_url(url: str) -> tuple[str, dict[str, str]]:
    """(scheme://host/path, query parameters) of a URL; a repeated parameter keeps its last value."""
    p = urlsplit(url)
    return f"{p.scheme}://{p.netloc}{p.path.rstrip('/') or '/'}", dict(parse_qsl(p.query, keep_blank_values=True))


def query_params_changed(url: str, base_url: str) -> tuple[str, ...] | None:
    """The parameters `url` adds to `base_url` or sets differently, sorted; None when `url` is no query variant of
    it: another path, the very same URL, or one that drops a parameter of the base (the list without the filter
    the base was registered with is the list itself, a page)."""
    where, query = split_url(url)
    base_where, base_query = split_url(base_url)
    if where != base_where or not set(base_query) <= set(query):
        return None
    changed = tuple(sorted(k for k in query if query[k] != base_query.get(k)))
    return changed or None


def is_same_view(page: PageMem, base: PageMem) -> bool:
    """The variant `page` shows the base page's view (module docstring): its structure, or the base's working parts
    with some left out: every section of the variant that holds a control or a list is one of the base's."""
    if page.template_id == base.template_id:
        return True
    mine, theirs = _working_parts(page), _working_parts(base)
    return bool(mine) and not (mine - theirs)


def _working_parts(page: PageMem) -> Counter:
    """Signatures of the sections a person works with: those holding elements, and lists (a message such as
    "0 results" holds none). DividePage groups a much smaller page otherwise, so a list filtered to nothing may
    read as another view: it is then registered as a page, which costs budget and loses nothing."""
    return Counter(s.signature for s in page.sections if s.kind == "list" or next(s.all_elements(), None) is not None)


def page_controls(page: PageMem, params: set[str]) -> list[ControlRecord]:
    """The controls of `page` (module docstring): its search boxes, and one record per group of links that change
    the same parameters, all in `params` (those found to be controls), in document order."""
    url = normalize_url(page.url)  # what the controls table is keyed by (a browser's URL may end in a slash)
    out = [r for r in (_search_box(url, s.elements) for s in page.sections if s.form is not None) if r is not None]
    groups: dict[str, list[tuple[Element, bool]]] = {}
    for section in page.sections:
        header = {e.key for e in section.elements} if section.kind == "list" and section.items else set()
        for el in section.all_elements():
            href = link_url(el, page.url)
            changed = query_params_changed(href, page.url) if href else None
            if changed is not None and set(changed) <= params:
                groups.setdefault(",".join(changed), []).append((el, el.key in header))
    headers = _column_headers(page) if groups else set()
    for key, links in groups.items():
        names = list(dict.fromkeys((el.name or el.text).strip()[:NAME_CHARS] for el, _ in links if (el.name or el.text).strip()))
        columns = [n for n in names if _names_column(n, headers)]
        kind = _kind(key, links, names, columns)
        if kind == "sort" and columns:
            names = columns  # the columns, not a sorted one's "Toggle sorting"
        out.append(ControlRecord(url=url, kind=kind, param=key, label=_words(key),
                                 choices=names[:MAX_CHOICES], count=len(names)))
    return out


def _kind(param: str, links: list[tuple[Element, bool]], names: list[str], columns: list[str]) -> str:
    """`columns`: the names among `names` that are the page's table columns."""
    if names and all(is_page_link_name(n) for n in names):
        return "pagination"
    if param.startswith("_"):
        return "view"  # a leading underscore marks the site's own flag (a popup, facet counts), not the data's field
    if SORT_PARAM.search(param) or (columns and len(columns) * 2 >= len(names)):
        return "sort"  # most of its links are named as the table's columns: the sortable headers
    if any(in_header for _, in_header in links) and len(names) > 1:
        return "sort"
    return "filter"


def _names_column(name: str, headers: set[str]) -> bool:
    """A link named as a column: its header's text, or its last words (a sorted column's header cell also holds its
    "Toggle sorting" and order links before its name)."""
    n = name.lower()
    return any(h == n or h.endswith(" " + n) for h in headers)


def _column_headers(page: PageMem) -> set[str]:
    """The column headers of the page's tables, lower-cased (a sortable header's link is named as its column)."""
    heads: set[str] = set()
    for section in page.sections:
        table = read_table(parse_outline(section.details))
        if table is not None:
            heads.update(h.strip().lower() for h in table.headers if h.strip())
    return heads


def _search_box(url: str, elements: list[Element]) -> ControlRecord | None:
    fields = [e for e in elements if is_text_field(e) and e.input_type != "password"]
    if len(fields) != 1 or any(e.input_type == "password" for e in elements):
        return None
    field = fields[0]
    said = " ".join([field.name, field.attrs.get("name", ""), field.attrs.get("placeholder", "")]
                    + [e.name or e.attrs.get("value", "") for e in elements if e is not field and e.tag in ("button", "input")])
    if not (field.input_type == "search" or field.role == "searchbox" or SEARCH_WORDS.search(said)):
        return None
    # What it searches, when its name says more than "Search" ("Search orders" -> "orders").
    label = SEARCH_WORDS.sub("", field.name or field.attrs.get("placeholder", "")).strip(" .:…-").lower()
    return ControlRecord(url=url, kind="search", param=field.attrs.get("name", ""), label=label[:NAME_CHARS])


def _words(param: str) -> str:
    """A parameter's name in words: 'status__exact' -> 'status', 'placed_at__gte,placed_at__lt' -> 'placed at',
    'sortBy' -> 'sort by'."""
    head = re.split(r"__|\[|\.|,", param, maxsplit=1)[0] or param
    head = re.sub(r"(?<=[a-z])(?=[A-Z])", " ", head)
    return re.sub(r"[_\-\s]+", " ", head).strip().lower() or param


__all__ = ["ControlRecord", "is_same_view", "page_controls", "query_params_changed", "split_url"]
