"""A section's details string read back as structure: its outline lines (pagemem/render.py) as nodes with a
role, a name or text, and children, and a table's header and rows as cell texts.

The details string is what the section holds, in the renderer's one format (`- [12] link "110"`, `- cell: Ann
Lee`, `- columnheader: Number`); reading it back gives the rules of structure.py and rows.py the same view of a
table, form or list that the model would get, with no second walk of the DOM.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

_LINE = re.compile(r'^(?P<indent> *)- (?:\[(?P<index>\d+)\] )?(?P<role>[a-z]+)(?P<rest>.*)$')
_NAME = re.compile(r'^ "(?P<name>[^"]*)"')
CELL_ROLES = {"cell", "gridcell", "columnheader", "rowheader"}
CHOICE_ROLES = {"checkbox", "radio"}  # a row's select box: not a value of the row


@dataclass
class Node:
    role: str
    text: str = ""  # the accessible name ("...") or own text (": ...")
    index: int | None = None  # the element number, for an interactive element
    children: list["Node"] = field(default_factory=list)
    own: str = ""  # the node's own text (": ..." after the role or its name), not its accessible name

    def walk(self):
        yield self
        for child in self.children:
            yield from child.walk()

    def shown_text(self) -> str:
        """What a person reads in this node: its own text, else its descendants' names and texts (select boxes
        left out)."""
        if self.text:
            return self.text
        parts = [n.text for n in self.walk() if n is not self and n.text and n.role not in CHOICE_ROLES]
        return " ".join(parts)


def parse_outline(details: str) -> list[Node]:
    """The outline's top-level nodes. A list section's "item N:" labels are dropped (their lines follow)."""
    roots: list[Node] = []
    stack: list[tuple[int, Node]] = []
    for raw in details.splitlines():
        m = _LINE.match(raw)
        if m is None:
            continue  # "list (N items)", "item 3:", continuation text
        depth = len(m.group("indent")) // 2
        rest = m.group("rest")
        name = _NAME.match(rest)
        text = name.group("name") if name else rest[2:].strip() if rest.startswith(": ") else ""
        after = rest[name.end():] if name else rest
        own = " ".join(after[2:].split()) if after.startswith(": ") else ""
        node = Node(m.group("role"), " ".join(text.split()), int(m.group("index")) if m.group("index") else None, own=own)
        while stack and stack[-1][0] >= depth:
            stack.pop()
        (stack[-1][1].children if stack else roots).append(node)
        stack.append((depth, node))
    return roots


def all_nodes(roots: list[Node]):
    for root in roots:
        yield from root.walk()


@dataclass
class Table:
    caption: str
    headers: list[str]  # one per column ("" where the column has no header)
    rows: list[list[str]]  # each data row's cell texts

    def labelled(self, row: list[str]) -> list[tuple[str, str]]:
        """(header, value) per cell with a value; a column without a header is shown by its value alone."""
        heads = self.headers + [""] * (len(row) - len(self.headers))
        return [(h, v) for h, v in zip(heads, row) if v]


def cells(row: Node) -> list[Node]:
    return [c for c in row.children if c.role in CELL_ROLES]


def is_header_row(row: Node) -> bool:
    found = cells(row)
    return bool(found) and all(c.role == "columnheader" for c in found)


def read_table(roots: list[Node]) -> Table | None:
    """The first header row and every data row (a row with a plain cell) of the outline, or None with no data row."""
    rows = [n for n in all_nodes(roots) if n.role == "row" and cells(n)]
    header = next((r for r in rows if is_header_row(r)), None)
    data = [[c.shown_text() for c in cells(r)] for r in rows if not is_header_row(r)]
    if not data:
        return None
    return Table(caption=_caption(roots), headers=[c.shown_text() for c in cells(header)] if header else [], rows=data)


def _caption(roots: list[Node]) -> str:
    """The table's aria-label, else the text line inside it before its rows (a <caption>), else a heading before it."""
    for node in all_nodes(roots):
        if node.role in ("table", "grid"):
            if node.text:
                return node.text
            first = next((c for c in node.children if c.role == "text"), None)
            if first is not None and node.children.index(first) < len(node.children) - 1:
                return first.text
    heading = next((n for n in all_nodes(roots) if n.role == "heading"), None)
    return heading.text if heading else ""


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def compact_rows(details: str) -> str:
    """The details string with each table row on one line: a header row as `- columnheader: Number | Customer`, a
    data row as `- row: SO-1055 | Sven Ricci | Pending`, the cells as a person reads them (shown_text; a row's
    select box left out). A row whose children are not all cells is kept as it is.

    Why: the outline gives every cell its own line, about 80 tokens for an order row of seven cells against 30 on
    one line, and a table is most of what an extraction reads on a list page (1,745 prompt tokens for ten orders on
    the held-out admin). One line per row is also how a small model reads a table best: a row's values side by
    side under the header line, not scattered over ten lines. A column that is empty in every row of its width
    (the select boxes' column) is left out, so the header and the rows stay aligned."""
    lines = details.splitlines()
    blocks: list[tuple[int, int, list[Node]]] = []  # (first line, end line, cells) of each row made of cells only
    i = 0
    while i < len(lines):
        m = _LINE.match(lines[i])
        if m is None or m.group("role") != "row" or m.group("rest").strip():
            i += 1
            continue
        depth = _indent(lines[i])
        end = i + 1
        while end < len(lines) and _indent(lines[end]) > depth:
            end += 1
        body = lines[i + 1:end]
        kids = parse_outline("\n".join(body))
        if kids and all(_LINE.match(b) for b in body) and all(k.role in CELL_ROLES for k in kids):
            blocks.append((i, end, kids))
        i = max(end, i + 1)
    if not blocks:
        return details
    texts = [[k.shown_text() for k in kids] for _, _, kids in blocks]
    empty: dict[int, set[int]] = {}  # row width -> columns empty in every row of that width
    for row in texts:
        cols = {c for c, t in enumerate(row) if not t}
        empty[len(row)] = empty.get(len(row), cols) & cols
    out: list[str] = []
    last = 0
    for (start, end, kids), row in zip(blocks, texts):
        out.extend(lines[last:start])
        head = all(k.role == "columnheader" for k in kids)
        shown = [t for c, t in enumerate(row) if c not in empty[len(row)]]
        out.append(f"{' ' * _indent(lines[start])}- {'columnheader' if head else 'row'}: " + " | ".join(shown))
        last = end
    out.extend(lines[last:])
    return "\n".join(out)
