"""Sections whose structure says what they are: a table, a form, a search box, a navigation list, a pagination
bar or a filter panel is described by rule from its outline (outline.py), the same words on every visit, with
no LLM call. The model summarises only prose and mixed sections (abstraction.py).

A section is one of these kinds only when that structure is nearly all it holds: a table with a paragraph of
prose around it, or a list of links with sentences between them, is mixed, and goes to the model.
"""

from __future__ import annotations

import re
from typing import Literal
from urllib.parse import urlsplit

from companion.observe.outline import CHOICE_ROLES, Node, Table, all_nodes, parse_outline, read_table
from companion.pagemem.model import PageSection

Kind = Literal["table", "form", "search", "navigation", "pagination", "filters"]
CONTROL_KINDS = frozenset({"search", "navigation", "pagination", "filters"})  # controls only: no fact to extract

FIELD_ROLES = {"textbox", "searchbox", "combobox", "spinbutton", "slider", "listbox"} | CHOICE_ROLES
PROSE_WORDS = 12  # a text line this long is a sentence someone wrote: the section is prose or mixed
TABLE_SHARE = 0.7  # of the section's lines, at least this many belong to the table
NAMES_CHARS = 240  # link names and field labels listed, then "and N more"
CELL_CHARS = 60
_PAGE_WORDS = re.compile(r"^(next|previous|prev|first|last|older|newer|more|»|«|›|‹|…|\.\.\.|>|<|>>|<<)$", re.I)
_NUMBER = re.compile(r"^\d{1,4}$")
_SEARCH = re.compile(r"\bsearch\b|\bfind\b", re.I)


def structural_kind(section: PageSection) -> Kind | None:
    """What the section's structure says it is, or None for prose and mixed sections (the model's)."""
    return classify(parse_outline(section.details), query_links(section))


def describe_structure(section: PageSection) -> tuple[str, str] | None:
    """(purpose, summary) of a section whose structure says it all; None when it is prose or mixed."""
    roots = parse_outline(section.details)
    kind = classify(roots, query_links(section))
    if kind is None:
        return None
    return _DESCRIBE[kind](roots)


def controls_description(section: PageSection) -> tuple[str, str] | None:
    """(purpose, summary) of a section of controls only, whose description loses nothing the page says: a
    navigation list, filter panel or search box with no text besides its controls' names and headings, or a
    pagination bar (its description keeps its texts, "60 orders"). None for any other section."""
    roots = parse_outline(section.details)
    kind = classify(roots, query_links(section))
    if kind not in CONTROL_KINDS:
        return None
    if kind != "pagination" and _has_text(roots):
        return None  # "Welcome, Ada." in a banner of links is a fact the description would drop
    return _DESCRIBE[kind](roots)


_NAMED = {"link", "button", "heading"} | FIELD_ROLES


def _has_text(roots: list[Node]) -> bool:
    """Does the outline say anything besides its controls' names and headings (a text line, or words on a
    container's line that none of its controls is named by)?"""
    nodes = list(all_nodes(roots))
    names = sorted({n.text for n in nodes if n.role in _NAMED and n.text}, key=len, reverse=True)
    for n in nodes:
        if n.role in _NAMED or not n.own:  # a landmark's name (navigation "Main") is a label
            continue
        if n.role == "text":
            return True
        rest = n.own
        for name in names:
            rest = rest.replace(name, " ")
        if re.search(r"\w{2,}", rest):
            return True
    return False


def classify(roots: list[Node], same_page: bool = False) -> Kind | None:
    """`same_page`: the section's links all lead to one page under other query strings (filters of a list)."""
    nodes = list(all_nodes(roots))
    fields = [n for n in nodes if n.role in FIELD_ROLES]
    typed = [f for f in fields if f.role not in CHOICE_ROLES]
    links = [n for n in nodes if n.role == "link"]
    prose = sum(1 for n in nodes if n.role == "text" and len(n.text.split()) > PROSE_WORDS)
    if not nodes or prose > len(typed) // 3:  # a form may carry a help sentence for every three fields
        return None
    if len(roots) == 1 and roots[0].role == "navigation" and len(links) >= 3 * max(1, len(fields)):
        # A sidebar may lay its links out as a table, with a filter box above; a list's filter panel is a landmark too.
        return "filters" if _is_filters(roots, nodes, same_page) else "navigation"
    table = read_table(roots)
    grid = [n for t in nodes if t.role in ("table", "grid") for n in t.walk()]
    if table is not None and not any(n.role in FIELD_ROLES - CHOICE_ROLES for n in grid):
        return "table" if len(grid) >= TABLE_SHARE * len(nodes) else None
    if fields:  # a table of fields is an editable grid: part of its form
        return "search" if _is_search(fields, nodes) else "form"
    if len(links) < 2:
        return None
    texts = [n for n in nodes if n.role == "text"]
    if _is_pagination(links, texts):
        return "pagination"
    if _is_filters(roots, nodes, same_page):
        return "filters"
    return "navigation" if len(texts) <= len(links) // 3 else None


def query_links(section: PageSection) -> bool:
    """Do the section's links all lead to one path under query strings (a list's filter choices, not a site's
    navigation)?"""
    urls = [urlsplit(e.url or e.attrs.get("href", "")) for e in section.all_elements() if e.role == "link"]
    return (bool(urls) and len({(u.netloc, u.path) for u in urls}) == 1
            and 2 * sum(1 for u in urls if u.query) >= len(urls))  # "All" links may clear the query


def _is_filters(roots: list[Node], nodes: list[Node], same_page: bool) -> bool:
    """Two or more titled groups of choices, the links to this list under other queries, no text between."""
    return same_page and len(_groups(roots)) >= 2 and not any(n.role == "text" for n in nodes)


def _is_search(fields: list[Node], nodes: list[Node]) -> bool:
    """One text field (selects beside it allowed: a scope, a sort order) and at most one button, saying 'search'
    somewhere (or a search landmark)."""
    typed = [f for f in fields if f.role in ("textbox", "searchbox")]
    buttons = [n for n in nodes if n.role == "button"]
    said = any(_SEARCH.search(n.text) or n.role in ("search", "searchbox") for n in nodes)
    return len(typed) == 1 and len(buttons) <= 1 and said


def _is_pagination(links: list[Node], texts: list[Node]) -> bool:
    """Links (and the current page as text) that are page numbers or next/previous, a number among them."""
    words = [n.text for n in links + texts]
    pages = [w for w in words if _NUMBER.match(w) or _PAGE_WORDS.match(w)]
    numbers = [int(w) for w in pages if _NUMBER.match(w)]
    # Years (2022, 2023) in a date drill-down are not page numbers: a page bar counts from the first pages.
    return bool(numbers) and min(numbers) < 1000 and len(pages) >= 2 and len(pages) >= len(words) - 2


def _titles(roots: list[Node]) -> set[int]:
    """The nodes (by id) that title a group of choices besides headings: a disclosure's button (<details><summary>)."""
    return {id(g.children[0]) for g in all_nodes(roots) if g.role == "group" and g.children
            and g.children[0].role in ("button", "text")}


def choice_titles(section: PageSection, *, titles_only: bool = False) -> dict[int, str]:
    """Element number -> the title of the group of choices it sits under (the heading or disclosure button before
    it, as _groups reads a filter panel: "By is active" for its "Yes" and "No"). With `titles_only`, the numbers of
    the disclosure buttons that title a group, each with its own name."""
    roots = parse_outline(section.details)
    titles = _titles(roots)
    out: dict[int, str] = {}
    current: str | None = None
    for node in all_nodes(roots):
        if node.role == "heading" or id(node) in titles:
            current = node.text
            if titles_only and node.index is not None and id(node) in titles:
                out[node.index] = node.text
        elif current is not None and node.index is not None and not titles_only:
            out[node.index] = current
    return out


def _groups(roots: list[Node]) -> list[tuple[str, list[str]]]:
    """Headings (or a group's first button) each followed by links or choices: (heading, choice names). A filter
    panel is two or more."""
    groups: list[tuple[str, list[str]]] = []
    titles = _titles(roots)
    for node in all_nodes(roots):
        if node.role == "heading" or id(node) in titles:
            groups.append((node.text, []))
        elif groups and (node.role == "link" or node.role in FIELD_ROLES) and node.text:
            groups[-1][1].append(node.text)
    return [(h, names) for h, names in groups if names]


def cut(names: list[str], limit: int = NAMES_CHARS) -> str:
    """Names joined while they fit in `limit` characters, then "and N more"."""
    shown: list[str] = []
    used = 0
    for name in names:
        if shown and used + len(name) + 2 > limit:
            return ", ".join(shown) + f" and {len(names) - len(shown)} more"
        shown.append(name)
        used += len(name) + 2
    return ", ".join(shown)


def _short(text: str) -> str:
    return text if len(text) <= CELL_CHARS else text[: CELL_CHARS - 1] + "…"


def describe_table(roots: list[Node]) -> tuple[str, str]:
    table = read_table(roots)
    assert table is not None
    return table_purpose(table), table_summary(table)


def table_purpose(table: Table) -> str:
    if table.caption:
        return f"Table '{table.caption}'"
    named = [h for h in table.headers if h]
    return f"Table of {cut(named, 60)}" if named else "Table"


def table_summary(table: Table) -> str:
    count = len(table.rows)
    parts = [f"{table_purpose(table)}: {count} row{'s' if count != 1 else ''}"]
    named = [h for h in table.headers if h]
    if named:
        parts.append(f"columns {cut(named)}")
    first = [_short(v) for _, v in table.labelled(table.rows[0])]
    if first:
        parts.append("first: " + " | ".join(first))
    return "; ".join(parts)


def describe_form(roots: list[Node]) -> tuple[str, str]:
    nodes = list(all_nodes(roots))
    named = [n.text.rstrip(" :") for n in nodes if n.role in FIELD_ROLES]
    fields = list(dict.fromkeys(name for name in named if name))
    if len(fields) < len(named):
        fields.append(f"{len(named) - len(fields)} unnamed")
    buttons = [n.text for n in nodes if n.role == "button" and n.text]
    first_field = next(i for i, n in enumerate(nodes) if n.role in FIELD_ROLES)
    # Its title: a heading above its fields (a heading further down titles a part of it), else its one button.
    title = next((n.text for n in nodes[:first_field] if n.role == "heading"), "") or (buttons[0] if len(buttons) == 1 else "")
    summary = f"Form{f' {title!r}' if title else ''}: fields {cut(fields)}"
    if buttons:
        summary += f"; buttons {cut(buttons, 80)}"
    return (f"Form: {title}" if title else "Form"), summary


def describe_search(roots: list[Node]) -> tuple[str, str]:
    nodes = list(all_nodes(roots))
    field = next(n for n in nodes if n.role in ("textbox", "searchbox"))
    subject = " ".join(_SEARCH.sub("", field.text).split()).strip(" .:…")
    summary = f"search box ({subject})" if subject else "search box"
    return "Search box", summary


def describe_navigation(roots: list[Node]) -> tuple[str, str]:
    names = list(dict.fromkeys(n.text for n in all_nodes(roots) if n.role == "link" and n.text))
    label = next((n.text for n in all_nodes(roots) if n.role in ("heading", "navigation") and n.text), "")
    purpose = f"Navigation: {label}" if label else "Navigation"
    return purpose, f"{purpose}: links {cut(names)}"


def describe_pagination(roots: list[Node]) -> tuple[str, str]:
    words = [n.text for n in all_nodes(roots) if n.role in ("link", "text") and n.text]
    numbers = sorted({int(w) for w in words if _NUMBER.match(w)})
    steps = list(dict.fromkeys(w.lower() for w in words if _PAGE_WORDS.match(w) and w not in ("…", "...")))
    others = [w for w in words if not _NUMBER.match(w) and not _PAGE_WORDS.match(w)]
    summary = f"pages {numbers[0]}–{numbers[-1]}" if len(numbers) > 1 else f"page {numbers[0]}"
    return "Pagination", ", ".join([summary] + steps + others)


def describe_filters(roots: list[Node]) -> tuple[str, str]:
    groups = _groups(roots)
    return "Filters", "Filters: " + "; ".join(f"{h}: {cut(names, 100)}" for h, names in groups)


_DESCRIBE = {"table": describe_table, "form": describe_form, "search": describe_search, "navigation": describe_navigation,
             "pagination": describe_pagination, "filters": describe_filters}
