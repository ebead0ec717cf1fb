"""Tables and lists as data: when the task names something a row is identified by (an order number such as
110 or #110, a SKU, an email, a quoted value, a person's name), the rows holding it are found by rule and shown
verbatim with their column headers ("Number: 110 | Customer: Ann Lee | Status: Shipped"), in place of a model's
pick of the items and its paraphrase of them.

When the task names a code ("SO-1010") that no row holds while most rows hold codes of its shape, that is said
instead ("No row holds SO-1010 (20 rows shown, SO-1060 … SO-1041)"), and no row is picked: the held-out admin's
first page of orders did not hold the order asked for, and the model picked another order and read its customer
as the answer. A question about a name that a table of records shows nowhere gets the same note
(absent_names), without the extraction call that only said so.

A value identifies rows only when it is found in a few of them (at most MAX_SHARE of the rows, and at least one):
a status or a city shared by half the table names no row. A number counts when it is written as one (#110), is
at least three digits, or is a code of letters, a hyphen and digits (SKU-100): a small count in the task ("the 5
latest orders") is not an identifier. What the task identifies its rows by is values.identifiers, the one
definition the grounding checks and the compound searches read too.
"""

from __future__ import annotations

import re

from companion.observe.outline import Table, all_nodes, cells, is_header_row, parse_outline, read_table
from companion.observe.values import identifiers as task_identifiers, lower_lines
from companion.pagemem.model import PageSection
from companion.task_asks import asks_count, is_question
from companion.text import content_words, names_in, whole_words

MAX_SHARE = 0.5
_TOKEN = re.compile(r"(?<![\w$€£.,-])#?[A-Za-z0-9](?:[\w-]*[A-Za-z0-9])?")


def identifiers(task: str) -> list[str]:
    """The values in the task a row may be identified by, as written (without a leading '#'): values.identifiers,
    the one definition the grounding checks and the compound searches use too."""
    return [v.text for v in task_identifiers(task, one_word=True)]


def holds(cell: str, value: str) -> bool:
    """The cell shows the value as a whole (a number not inside a price or a longer number)."""
    if any(ch.isalpha() for ch in value) and " " in value:
        return names_in(cell, value)
    pattern = rf"(?<![\w.$€£-]){re.escape(value)}(?![\w-]|[.,]\d)"
    return re.search(pattern, cell, re.IGNORECASE) is not None


def row_holds(row: list[str], value: str) -> bool:
    """A cell shows the value; a person's name may be split over columns ("Last name", "First name")."""
    if any(holds(cell, value) for cell in row):
        return True
    words = set(whole_words(value.lower()))
    return " " in value and any(ch.isalpha() for ch in value) and words <= set(whole_words(" ".join(row).lower()))


def matching(task: str, rows: list[list[str]]) -> list[int]:
    """Positions of the rows that hold a value the task identifies a row by (none when no value is identifying)."""
    return _holding(rows, identifiers(task))


def _holding(rows: list[list[str]], values) -> list[int]:
    """Positions of the rows holding one of `values`, each value counted when few rows hold it (MAX_SHARE)."""
    found: set[int] = set()
    for value in values:
        hits = [i for i, row in enumerate(rows) if row_holds(row, value)]
        if hits and len(hits) <= max(1, int(MAX_SHARE * len(rows))):
            found.update(hits)
    return sorted(found)


def rows_holding(section: PageSection, values: list[str]) -> list[int]:
    """Positions (0-based) of the section's rows that hold one of `values`: the names a row the task names was seen
    to hold (related_values: the order's customer), on the list they lead to."""
    _, rows = section_rows(section)
    return _holding(rows, values) if rows and values else []


def section_rows(section: PageSection) -> tuple[Table | None, list[list[str]]]:
    """The section's table (for its headers) and its rows: one per list item (its cells, or its lines), or a
    table's data rows for a section that is not divided into items."""
    table = read_table(parse_outline(section.details))
    if section.kind != "list" or not section.items:
        return table, table.rows if table is not None else []
    rows = []
    for item in section.items:
        own = read_table(parse_outline(item.details))
        rows.append(own.rows[0] if own is not None else _lines(item.details))
    return table, rows


def _lines(details: str) -> list[str]:
    """A list item that is no table row: the texts and names it shows, in order."""
    return [n.text for n in all_nodes(parse_outline(details)) if n.text]


def matched_rows(task: str, section: PageSection) -> list[int]:
    """Positions (0-based) of the section's rows the task identifies by rule."""
    _, rows = section_rows(section)
    return matching(task, rows) if rows else []


def row_text(table: Table | None, row: list[str]) -> str:
    """One row as data: "Header: value | Header: value" (a value under no header alone)."""
    if table is None or not table.headers:
        return " | ".join(v for v in row if v)
    return " | ".join(f"{h}: {v}" if h else v for h, v in table.labelled(row))


def shape(token: str) -> str:
    """A code's shape: letters as A, digits as 9 ("SO-1010" -> "AA-9999")."""
    return re.sub(r"[A-Za-z]", "A", re.sub(r"\d", "9", token))


def absent(task: str, rows: list[list[str]]) -> list[tuple[str, list[str]]]:
    """The task's codes (with a digit: "SO-1010", "#110") that no row holds while most rows hold a code of the same
    shape: the rows are identified by such codes and the one asked for is not among them (another page of the list,
    or filtered out). Each with the codes of that shape the rows show, in order."""
    out = []
    for value in identifiers(task):
        if not any(ch.isdigit() for ch in value) or any(row_holds(row, value) for row in rows):
            continue
        want = shape(value)
        seen = [next((t.lstrip("#") for cell in row for t in _TOKEN.findall(cell) if shape(t.lstrip("#")) == want), None)
                for row in rows]
        if sum(1 for t in seen if t) * 2 > len(rows):
            out.append((value, [t for t in seen if t]))
    return out


MIN_ROWS_ABSENT = 3  # fewer rows say too little about what the table lists


def absent_names(task: str, section: PageSection, rows: list[list[str]]) -> list[str]:
    """The names a question identifies its row by ("What is the price of the Turntable?") when the section shows
    none of the task's identifiers anywhere, rows or other text, in a table of a few rows or more: what the
    question asks about is not on this part of the page (another page of the list, or another list). The
    held-out admin's first page of products did not hold the product asked for, and an extraction call of 2,100
    prompt tokens only said so. Not for an errand (a row the task does not name may be the one to act on: "the
    cheapest flight from Boston" among rows showing airport codes), nor for a count (a list narrowed by a choice
    its rows do not show still holds the count asked for)."""
    if len(rows) < MIN_ROWS_ABSENT or not is_question(task) or asks_count(task):
        return []
    if sorted(len([c for c in row if c]) for row in rows)[len(rows) // 2] < 2:
        return []  # rows of one cell are a list of links (a navigation bar), not records that could hold it
    values = task_identifiers(task, one_word=True)
    text = lower_lines(section.details)
    folded = set(content_words(section.details))
    if not values or any(v.in_text(text) or set(content_words(v.text)) <= folded for v in values):
        return []  # (a plural on the page, "Kettles" for the task's "Kettle", is the same name)
    return [v.text for v in values if v.kind == "name"]


def absent_note(task: str, section: PageSection, *, codes: bool = True) -> str | None:
    """"No row holds SO-1010 (20 rows shown, SO-1060 … SO-1041)", "No row holds Turntable (15 rows shown)", or None
    (module docstring: absent; absent_names). `codes=False` leaves the codes out: a table inside a mixed section
    (a form around it) may not be what lists the codes, and the extraction call reads the rest."""
    _, rows = section_rows(section)
    if not rows:
        return None
    notes = [f"No row holds {value} ({len(rows)} rows shown, {found[0]} … {found[-1]})" if len(found) > 1
             else f"No row holds {value} ({len(rows)} rows shown)" for value, found in (absent(task, rows) if codes else [])]
    notes += [f"No row holds {name} ({len(rows)} rows shown)" for name in absent_names(task, section, rows)]
    return "; ".join(notes) or None


def rows_extraction(task: str, section: PageSection, named_only: bool = False) -> str | None:
    """The rows the task identifies, each with its headers, as this section's extraction; when none match, the
    note that what the task names is on no row (absent_note; a code's only without `named_only`), else None."""
    table, rows = section_rows(section)
    hits = matching(task, rows) if rows else []
    if not hits:
        return absent_note(task, section, codes=not named_only)
    label = f"Row{'s' if len(hits) > 1 else ''} matching the task ({len(hits)} of {len(rows)})"
    return label + ":\n" + "\n".join(f"- row {i + 1}: {row_text(table, rows[i])}" for i in hits)


MAX_ROWS_SHOWN = 15  # picked rows shown as data; more are counted, not listed


def picked_rows_extraction(section: PageSection, positions: list[int]) -> str | None:
    """The rows SelectListItems picked (1-based positions), each with its headers, as the table's extraction: the
    rows are the facts, copied by rule, not paraphrased by a model. None for a list that is not a table."""
    table, rows = section_rows(section)
    if not rows or len(rows) != len(section.items) or table is None:
        return None
    shown = [p for p in positions if 1 <= p <= len(rows)]
    if not shown:
        return f"No row of the {len(rows)} shown is relevant to the task."
    label = f"Row{'s' if len(shown) > 1 else ''} relevant to the task ({len(shown)} of {len(rows)})"
    lines = [f"- row {p}: {row_text(table, rows[p - 1])}" for p in shown[:MAX_ROWS_SHOWN]]
    if len(shown) > MAX_ROWS_SHOWN:
        lines.append(f"- … and {len(shown) - MAX_ROWS_SHOWN} more rows")
    return label + ":\n" + "\n".join(lines)


def asked_cells(task: str, section: PageSection) -> list[list[str]]:
    """Per row the task names by rule, the values of its cells under a column header that shares a word with the
    task ("Price" for "What is the price of the Turntable?"; "Customer" and "Email" for "the email address of the
    customer who placed order 117"), the cell that identifies the row aside. Empty for a table with no headers."""
    table, rows = section_rows(section)
    if table is None or not table.headers or not rows:
        return []
    asked = set(content_words(task))
    anchors = task_identifiers(task, one_word=True)
    out = []
    for i in matching(task, rows):
        cells = [v for h, v in table.labelled(rows[i])
                 if h and set(content_words(h)) & asked and not any(row_holds([v], a.text) for a in anchors)]
        if cells:
            out.append(cells)
    return out


def states_asked_cells(task: str, sections: list[PageSection], text: str) -> bool:
    """`text` states every asked cell (asked_cells) of a row the task names on these sections: the question is a
    lookup the page answers, and the text gives that answer."""
    return any(all(names_in(text, v) for v in cells) for s in sections for cells in asked_cells(task, s))



# A value an answer states that a row could hold: a token with a digit (a number, a price, a code, a date's day) or an
# email. Words alone are left out: a name may be written otherwise than in its cell.
_ANSWER_VALUE = re.compile(r"[\w.+-]+@[\w-]+\.[\w.]+|[$€£]?\d[\d,]*(?:\.\d+)?")


def off_named_row(task: str, sections: list[PageSection], answer: str) -> tuple[list[str], str] | None:
    """When a row the question names is on these sections, the answer's values (numbers, prices, emails: the
    task's own identifiers aside) if none of them is in that row, with the row's identifier; else None. The
    default model answered "1" for the total quantity of an order whose row on the order list shows no quantity
    at all ("1" was the list's "1 result"); the order's own page lists its lines."""
    anchors = identifiers(task)
    rest = answer
    for a in anchors:
        rest = re.sub(re.escape(a), " ", rest, flags=re.IGNORECASE)
    values = [v for v in (t.lstrip("$€£").rstrip(".,") for t in _ANSWER_VALUE.findall(rest)) if v]
    if not values:
        return None
    for section in sections:
        _, rows = section_rows(section)
        hits = matching(task, rows) if rows else []
        if not hits:
            continue
        held = " | ".join(cell for i in hits for cell in rows[i])  # a value after its currency sign counts
        if any(re.search(rf"(?<![\w.,-]){re.escape(v)}(?![\w-]|[.,]\d)", held, re.IGNORECASE) for v in values):
            return None
        anchor = next((a for a in anchors if any(row_holds(rows[i], a) for i in hits)), anchors[0] if anchors else "")
        return values, anchor
    return None


def key_value(sections: list[PageSection], key: str) -> str | None:
    """The value a key/value table pairs with `key`: the second cell of the one two-cell row whose first cell reads
    as the key ("Religion" | "Buddhist" for "Religion:"), over every table of the sections; None for none or several."""
    want = _key(key)
    found = []
    for section in sections:
        for row in all_nodes(parse_outline(section.details)):
            if row.role != "row":
                continue
            texts = [c.shown_text().strip() for c in cells(row)]
            if len(texts) == 2 and want and _key(texts[0]) == want and texts[1]:
                found.append(texts[1])
    return found[0] if len(set(found)) == 1 else None


def _key(text: str) -> str:
    return " ".join(text.replace(":", " ").split()).lower()


def named_row_links(task: str, section: PageSection) -> list[int]:
    """The element numbers of the links in the rows the task names by rule (the record's own page, as a list links
    it from its row), in page order."""
    roots = parse_outline(section.details)
    rows = [n for n in all_nodes(roots) if n.role == "row" and cells(n) and not is_header_row(n)]
    hits = matching(task, [[c.shown_text() for c in cells(r)] for r in rows])
    return [n.index for i in hits for n in rows[i].walk() if n.role == "link" and n.index is not None]


_RELATED = re.compile(r"[\w.+-]+@[\w-]+\.[\w.]+|^[A-Z][\w'’-]+(?: [A-Z][\w'’-]+)+$|^[A-Za-z]+-\d+$")


def related_values(task: str, section: PageSection) -> list[str]:
    """The names, emails and codes a row the task names holds under a column the task speaks of: what joins the
    task to another list ("Daniel Ricci" under "Customer" in order SO-1010's row, for "the email address of the
    customer who placed order SO-1010"). The customer list is then searched for him (act/search_for.py)."""
    return list(dict.fromkeys(v for cells in asked_cells(task, section) for v in cells if _RELATED.search(v.strip())))
