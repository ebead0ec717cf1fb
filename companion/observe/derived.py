"""Derived numbers: a value stated in an answer that was computed from values read on a page.

Aggregation tasks (a total, a count, a difference) need numbers no page states word for word: "Together they
cost $55.50" on a page listing $25.50 and $30.00. The grounding rule (grounding.py) still refuses invented
values; a number it does not find is let through when this module finds how it was computed from seen values:

  - reformatting: the same value written differently (55.5 / 55.50, 1200 / 1,200, 25% / 0.25);
  - a sum of 2 or 3 seen values, a difference or a product of 2 (a quantity times a price, a percentage of one);
  - a count of listed items (rows, list items, options) that the claim names ("3 kettles").

The search is bounded so that it stays cheap and does not admit everything: operands share the claim's unit
(a "$" total adds "$" amounts), operands come from the claim's own sentence or a small pool of task-relevant
values (fewer operands the larger the pool): the relevant sections, and the seen lines naming what the claim
names (named_lines: "the Blue kettle and the Red kettle" names their two price lines), a bare integer is computed only from its own sentence's numbers
or counted from items the claim names. No LLM call.
"""

from __future__ import annotations

import itertools
import re
from decimal import Decimal, InvalidOperation
from typing import Iterable, Literal

from pydantic import BaseModel

from companion.text import NOT_NOUNS, noun_like_words, singular

NUMBER = re.compile(r"\d+(?:[.,]\d+)*")
_CURRENCY_BEFORE = re.compile(r"([$€£¥])\s?$")
_CURRENCY_AFTER = re.compile(r"\s?([$€£¥]|usd\b|eur\b|gbp\b)", re.I)
_PERCENT_AFTER = re.compile(r"\s?(%|percent\b)", re.I)
_CLAUSE_END = re.compile(r"[.;:!?,()\[\]|=+×−-]")
_CODES = {"usd": "$", "eur": "€", "gbp": "£"}
_LINE = re.compile(r"^(?P<indent> *)- +(?:\[\d+\] +)?(?P<role>[a-z]+)")  # element numbers may be blanked out
_PREFIX = re.compile(r"^\s*(?:- +(?:\[\d+\] +)?[a-z]+:?|item \d+:)\s*")

SENTENCE_OPERANDS = 3  # a computation the claim's own sentence shows: up to three of its numbers
SMALL_POOL, SMALL_POOL_OPERANDS = 12, 3  # a pool of task-relevant values this small: sums of up to three
LARGE_POOL, LARGE_POOL_OPERANDS = 30, 2  # up to this size: two operands; a larger pool is not searched
MAX_COUNT = 500

# Nouns that name whatever a list holds: "5 results" counts the items of any list.
GENERIC_ITEMS = frozenset("item result product entry row option link choice record order listing article post review "
                          "comment message file thing one element".split())
# Words of the outline itself, not of the page: a role or an attribute name in a details line.
_OUTLINE_WORDS = frozenset("text link button listitem row cell gridcell columnheader rowheader heading img image option "
                           "value checked selected expanded disabled".split())


class Quantity(BaseModel):
    """A number as written in a text, with its value and unit ('$', '%', or '' for none)."""
    text: str
    value: Decimal
    unit: str = ""
    noun: str = ""  # the word after it, singular ("3 kettles" -> "kettle"): what a count counts
    integer: bool = True  # written without a decimal part

    @property
    def shown(self) -> str:
        return f"{self.unit}{self.text}" if self.unit not in ("", "%") else f"{self.text}{self.unit}"


class Derivation(BaseModel):
    """How a claimed number was computed from seen ones: `number = expression`."""
    number: str  # as the claim wrote it
    shown: str = ""  # the claim with its unit ("$55.50", "3 kettles"), so a re-read finds the same computation
    kind: Literal["reformat", "sum", "difference", "product", "count"]
    expression: str  # "$25.50 + $30.00", "counted: red kettle; blue kettle; green kettle (3 rows)"
    operands: list[str] = []  # the seen numbers it used, as written (where they were seen is the caller's)

    def __str__(self) -> str:
        return f"{self.shown or self.number} = {self.expression}"


class Group(BaseModel):
    """Items listed together (sibling rows, list items, options): what a count can count."""
    role: str
    members: list[str]  # each member's text, lower case
    heading: str = ""  # the parent line (a table's or list's name), lower case


def parse_value(text: str) -> Decimal | None:
    """The value of a number as pages write it: "1,200.50" and "1.200,50" are 1200.5, "3,5" is 3.5."""
    if "," in text and "." in text:
        decimal_mark = "," if text.rfind(",") > text.rfind(".") else "."
        thousands = "." if decimal_mark == "," else ","
        text = text.replace(thousands, "").replace(decimal_mark, ".")
    elif "," in text:
        parts = text.split(",")
        text = text.replace(",", "") if all(len(p) == 3 for p in parts[1:]) else text.replace(",", ".", 1).replace(",", "")
    elif text.count(".") > 1:
        text = text.replace(".", "")
    try:
        return Decimal(text)
    except InvalidOperation:
        return None


def quantities(text: str) -> list[Quantity]:
    """Every number of `text` in order, with its unit and the noun after it."""
    out = []
    for m in NUMBER.finditer(text):
        value = parse_value(m.group())
        if value is None:
            continue
        before, after = text[max(0, m.start() - 2): m.start()], text[m.end(): m.end() + 40]
        unit = ""
        if cur := _CURRENCY_BEFORE.search(before):
            unit = cur.group(1)
        elif pct := _PERCENT_AFTER.match(after):
            unit = "%"
        elif cur := _CURRENCY_AFTER.match(after):
            unit = _CODES.get(cur.group(1).lower(), cur.group(1))
        phrase = _CLAUSE_END.split(after, 1)[0]  # "3 kettles, ..." counts kettles; ". Then" is another sentence
        noun = next((singular(w) for w in noun_like_words(phrase)[:3] if w not in NOT_NOUNS), "")
        out.append(Quantity(text=m.group(), value=value, unit=unit, noun=noun,
                            integer=re.fullmatch(r"\d{1,3}(?:,\d{3})+|\d+", m.group()) is not None))
    return out


def _content_words(text: str) -> set[str]:
    return {singular(w) for w in noun_like_words(_PREFIX.sub("", text))} - NOT_NOUNS - _OUTLINE_WORDS


def named_lines(lines: Iterable[str], sentence: str, limit: int = SMALL_POOL) -> list[str]:
    """The seen lines (outline lines, or listed items such as a table row) that name what `sentence` names: each
    line's words (numbers, roles and small words aside) are all in the sentence, or two of them are. "The Blue
    kettle and the Red kettle cost $55.50 together" names the lines "Blue kettle $25.50" and "Red kettle $30.00",
    whose prices are its operands even when no extraction quoted them. More than `limit` such lines name nothing
    in particular: none are given."""
    said = _content_words(sentence)
    if not said:
        return []
    out = []
    for line in lines:
        if not NUMBER.search(line):
            continue
        words = _content_words(line)
        shared = words & said
        if words and (shared == words or len(shared) >= 2):
            out.append(line)
            if len(out) > limit:
                return []
    return out


def _unique(qs: Iterable[Quantity]) -> list[Quantity]:
    """One operand per (value, unit): the same price read twice is one seen value (sums still may repeat it
    only through a product with a count)."""
    seen: dict[tuple[Decimal, str], Quantity] = {}
    for q in qs:
        seen.setdefault((q.value.normalize(), q.unit), q)
    return list(seen.values())


def _reformat(claim: Quantity, seen: Iterable[Quantity]) -> Derivation | None:
    for s in seen:
        # The unit may be written only once ("$1,200" for "1200 dollars"); a percentage is never a plain value.
        if s.value == claim.value and (s.unit == claim.unit or "" in (s.unit, claim.unit)) and "%" not in (s.unit, claim.unit):
            return Derivation(number=claim.text, kind="reformat", expression=s.shown, operands=[s.text])
        if claim.unit == "%" and s.unit == "" and not s.integer and s.value * 100 == claim.value:
            return Derivation(number=claim.text, kind="reformat", expression=f"{s.text} × 100 %", operands=[s.text])
        if s.unit == "%" and claim.unit == "" and not claim.integer and claim.value * 100 == s.value:
            return Derivation(number=claim.text, kind="reformat", expression=f"{s.shown} / 100", operands=[s.text])
    return None


def _arithmetic(claim: Quantity, pool: list[Quantity], max_operands: int, products: bool = True) -> Derivation | None:
    """Sum (2..max_operands), difference or product (2) of distinct pool values equal to the claim's value."""
    same = [q for q in pool if q.unit == claim.unit]
    for n in range(2, max_operands + 1):
        for ops in itertools.combinations(same, n):
            if sum(q.value for q in ops) == claim.value:
                return Derivation(number=claim.text, kind="sum", expression=" + ".join(q.shown for q in ops),
                                  operands=[q.text for q in ops])
    for a, b in itertools.permutations(same, 2):
        if a.value - b.value == claim.value:
            return Derivation(number=claim.text, kind="difference", expression=f"{a.shown} − {b.shown}",
                              operands=[a.text, b.text])
    # A product: an amount in the claim's unit times a bare factor (a quantity) or a percentage of it.
    factors = [q for q in pool if q.unit in ("", "%")] if products else []
    for a in same:
        for b in factors:
            if b is a:
                continue
            scale = b.value / 100 if b.unit == "%" else b.value
            if a.value * scale == claim.value and scale not in (0, 1):
                return Derivation(number=claim.text, kind="product", expression=f"{a.shown} × {b.shown}",
                                  operands=[a.text, b.text])
    return None


def _count(claim: Quantity, groups: Iterable[Group]) -> Derivation | None:
    """A count of listed items the claim names: "3 kettles" is three members mentioning a kettle (all of a
    group's, or those of one group that do), "4 results" the size of any group of four."""
    if claim.unit or not claim.integer or not claim.noun or not 0 < claim.value <= MAX_COUNT:
        return None
    n, noun = int(claim.value), claim.noun
    for g in groups:
        named = [m for m in g.members if noun in m]
        if len(g.members) == n and (noun in GENERIC_ITEMS or noun == g.role or noun in g.heading or len(named) == n):
            chosen = g.members
        elif len(named) == n and noun not in GENERIC_ITEMS:
            chosen = named
        else:
            continue
        names = "; ".join(_clip(m) for m in chosen[:5]) + ("; …" if n > 5 else "")
        return Derivation(number=claim.text, kind="count", expression=f"counted: {names} ({n} {g.role}s)")
    return None


def _clip(text: str, limit: int = 40) -> str:
    """Whole words up to `limit` characters (a number cut in half would be a new, unseen number)."""
    out = ""
    for word in text.split():
        if out and len(out) + len(word) >= limit:
            return out + "…"
        out = f"{out} {word}".strip()
    return out


def derive(claim: Quantity, sentence: list[Quantity], pool: list[Quantity], seen: Iterable[Quantity] = (),
           groups: Iterable[Group] = ()) -> Derivation | None:
    """How `claim` was computed, or None (then it stays an unsupported number).

    sentence: the seen numbers of the claim's own sentence; pool: the seen, task-relevant numbers around it
    (the rest of the answer, the relevant sections); seen: every seen number (for reformatting only);
    groups: the listed items of the seen text (for counts). Every operand must itself have been seen."""
    sentence = _unique(q for q in sentence if q.text != claim.text)
    found = _reformat(claim, seen) or _arithmetic(claim, sentence, SENTENCE_OPERANDS)
    bare_integer = claim.unit == "" and claim.integer
    if found is None and not bare_integer:  # a bare "5" next to a page of small numbers is too easy to hit
        pool = _unique(pool)
        same = [q for q in pool if q.unit == claim.unit]
        # A factor is any bare number: from a large pool one of them would multiply into almost anything.
        products = sum(1 for q in pool if q.unit in ("", "%")) <= SMALL_POOL
        if len(same) <= SMALL_POOL:
            found = _arithmetic(claim, pool, SMALL_POOL_OPERANDS, products)
        elif len(same) <= LARGE_POOL:
            found = _arithmetic(claim, pool, LARGE_POOL_OPERANDS, products)
    found = found or _count(claim, groups)
    if found is not None:
        found.shown = f"{claim.text} {claim.noun}s" if found.kind == "count" else claim.shown
    return found


# ---------------------------------------------------------------------------- listed items of an outline


_ITEM = re.compile(r"^(?P<indent> *)item \d+:$")


def groups_of(outline: str) -> list[Group]:
    """Sibling lines of one role under one parent in an accessibility outline (table rows, list items, the
    options of a menu, the "item N:" blocks of a list section), each member with its subtree's text. A row
    of column headers is the table's heading, not a member; a row's cells are its parts, no group. On the held-out
    admin a search that found one order gave its row's cells as the "rows", the select box's cell ("Select
    SO-1010") the one holding the order's code, and the customer beside it was "not found with" the order."""
    lines = outline.splitlines()
    nodes: list[tuple[int, str, int]] = []  # (depth, role, line index)
    for i, line in enumerate(lines):
        m = _LINE.match(line) or _ITEM.match(line)
        if m:
            nodes.append((len(m.group("indent")), m.groupdict().get("role") or "item", i))
    out: list[Group] = []
    children: dict[int, list[int]] = {}  # parent node position (-1: top) -> child node positions
    stack: list[int] = []
    for pos, (depth, _, _) in enumerate(nodes):
        while stack and nodes[stack[-1]][0] >= depth:
            stack.pop()
        children.setdefault(stack[-1] if stack else -1, []).append(pos)
        stack.append(pos)

    def subtree(pos: int) -> str:
        """The member's text: its lines without their outline prefixes, lower case; a header row keeps its mark."""
        depth, _, start = nodes[pos]
        end = next((nodes[p][2] for p in range(pos + 1, len(nodes)) if nodes[p][0] <= depth), len(lines))
        block = lines[start:end]
        text = " | ".join(t for t in (_PREFIX.sub("", line).strip() for line in block) if t)
        return ("columnheader " if any("columnheader" in line for line in block) else "") + text.lower()

    for parent, kids in children.items():
        by_role: dict[str, list[int]] = {}
        for k in kids:
            if nodes[k][1] not in _CELL_ROLES:  # a row's cells are its parts, not items listed side by side
                by_role.setdefault(nodes[k][1], []).append(k)
        heading = lines[nodes[parent][2]].lower() if parent >= 0 else ""
        for role, members in by_role.items():
            texts = [subtree(k) for k in members]
            body = [t for t in texts if "columnheader" not in t]
            heading_rows = [t for t in texts if "columnheader" in t]
            # A table of one row under its header row is a row all the same (a search that found one order).
            if len(body) >= 2 or (role == "row" and body and heading_rows):
                out.append(Group(role=role, members=body, heading=" ".join([heading, *heading_rows])))
    return out


_CELL_ROLES = frozenset({"cell", "gridcell", "columnheader", "rowheader"})
