"""A superlative over a table, read by rule: "Which product has the highest price?" is the row whose cell under
the column the task names ("Price") holds the largest number, shown with its headers like the rows a task names
(rows.py), and with what the rows' order says of the rest of the list.

The default model, given a product table sorted by price with the dearest first, answered the fifth row's product
("the French Press, 182.99") over the first one's (204.99), and on the same list sorted the other way it answered
the cheapest as the highest. A model reading fifteen rows of numbers is the wrong tool for a maximum; a rule is not.

What the rows' order tells: shown largest first (or smallest first for a lowest), the first row is the list's
extreme on every page, as far as the site sorts the whole list; shown the other way, the extreme of the rows shown
may not be the list's (a later page, or the other sort order, holds it); in no order, it is the extreme of the rows
shown. The note says which, so that the actor may sort or page before it answers.
"""

from __future__ import annotations

import re
from typing import Literal

from pydantic import BaseModel

from companion.observe.outline import Table
from companion.observe.rows import holds, row_text, section_rows
from companion.pagemem.model import PageSection
from companion.text import content_words

_HIGH = re.compile(r"\b(?:highest|largest|biggest|greatest|maximum|most expensive|priciest|dearest)\b", re.I)
_LOW = re.compile(r"\b(?:lowest|smallest|least expensive|cheapest|minimum)\b", re.I)
# A superlative of cost names no column of its own: it ranks the column of prices.
_COST = re.compile(r"\b(?:most expensive|least expensive|priciest|dearest|cheapest)\b", re.I)
_COST_HEADER = re.compile(r"\b(?:price|cost|amount|total|fee)\b", re.I)
# "$1,204.99", "US$ 5", "12 kg", "-3"; not a code ("SKU-142")
_NUMBER = re.compile(r"^(?:[A-Z]{0,3}[^\w\s-]\s?)?(-?\d[\d,]*(?:\.\d+)?)\s*[^\d\s]{0,4}$")
MIN_NUMERIC_SHARE = 0.8  # most of the column's cells are numbers: it can be ranked


class Ranked(BaseModel):
    positions: list[int]  # 0-based rows holding the extreme (ties: all)
    text: str  # the extraction: the rows with their headers, and what the order says
    header: str  # the ranked column's header
    order: Literal["asked", "reverse", "none"]  # the rows sorted as the question asks, the other way, or neither


def number(cell: str) -> float | None:
    m = _NUMBER.match(cell.strip())
    return float(m.group(1).replace(",", "")) if m else None


def _direction(task: str) -> int:
    high, low = _HIGH.search(task), _LOW.search(task)
    if bool(high) == bool(low):
        return 0
    return 1 if high else -1


def _column(task: str, table: Table, rows: list[list[str]]) -> int | None:
    """The column the superlative ranks: the one numeric column whose header the task names (a word in common), or
    for a superlative of cost the one numeric column headed like a price."""
    asked = set(content_words(task))

    def numeric(col: int) -> bool:
        values = [number(r[col]) for r in rows if col < len(r) and r[col]]
        return len(values) >= 2 and sum(v is not None for v in values) >= MIN_NUMERIC_SHARE * len(values)

    named = [i for i, h in enumerate(table.headers) if h and set(content_words(h)) & asked and numeric(i)]
    if not named and _COST.search(task):
        named = [i for i, h in enumerate(table.headers) if _COST_HEADER.search(h) and numeric(i)]
    return named[0] if len(named) == 1 else None


def ranked_rows(task: str, section: PageSection) -> Ranked | None:
    """The rows holding the extreme the task asks for in the column it names, or None (no superlative, no such
    column, fewer than two rows)."""
    sense = _direction(task)
    if not sense:
        return None
    table, rows = section_rows(section)
    if table is None or not table.headers or len(rows) < 2:
        return None
    col = _column(task, table, rows)
    if col is None:
        return None
    values = [number(r[col]) if col < len(r) else None for r in rows]
    shown = [(i, v) for i, v in enumerate(values) if v is not None]
    best = max(v for _, v in shown) if sense > 0 else min(v for _, v in shown)
    positions = [i for i, v in shown if v == best]
    head = table.headers[col]
    word = "Highest" if sense > 0 else "Lowest"
    ordered = [v for _, v in shown]
    if ordered == sorted(ordered, reverse=sense > 0):
        order, said = "asked", f"the rows are sorted by {head}, {word.lower()} first: the first row is the list's {word.lower()}"
    elif ordered == sorted(ordered, reverse=sense < 0):
        order, said = "reverse", (f"the rows are sorted by {head}, {'lowest' if sense > 0 else 'highest'} first: a later "
                                  f"page, or the other sort order, may hold a {'higher' if sense > 0 else 'lower'} one")
    else:
        order, said = "none", f"of the {len(rows)} rows shown"
    lines = [f"- row {i + 1}: {row_text(table, rows[i])}" for i in positions]
    return Ranked(positions=positions, text=f"{word} {head} ({said}):\n" + "\n".join(lines), header=head, order=order)


def off_extreme(task: str, sections: list[PageSection], answer: str) -> str | None:
    """On a list sorted as the superlative question asks, the extreme row ("Product: Seed Starter Kit | Price:
    204.99") when the answer holds none of its cells; else None. The default model, the end checked on the list
    sorted by price with the dearest first, answered the Throw Pillow at 71.99: the first row of the same list
    sorted the other way, two steps earlier, which grounding let through as a value a visited page showed."""
    for section in sections:
        ranked = ranked_rows(task, section)
        if ranked is None or ranked.order != "asked":
            continue
        table, rows = section_rows(section)
        extreme = [rows[i] for i in ranked.positions]
        shown = [cell.strip().lstrip("$€£").strip() for row in extreme for cell in row]
        if any(len(cell) >= 2 and holds(answer, cell) for cell in shown):
            return None
        return "; ".join(row_text(table, row) for row in extreme)
    return None


# ---------------------------------------------------------------- alike controls, one per card

# A superlative and what it ranks: "cheapest" a price, "shortest" a duration, "highest <label>" the number after it.
_CARD_SUPERLATIVE = re.compile(
    r"\b(?P<word>cheapest|least expensive|most expensive|priciest|dearest|shortest|quickest|fastest|longest|"
    r"slowest|highest|lowest|largest|smallest|biggest|greatest)\b(?:\s+(?P<noun>[a-z][\w-]*))?", re.I)
_COST_WORDS = {"cheapest": -1, "least expensive": -1, "most expensive": 1, "priciest": 1, "dearest": 1}
_DURATION_WORDS = {"shortest": -1, "quickest": -1, "fastest": -1, "longest": 1, "slowest": 1}
_COST_NOUNS = {"price", "cost", "fare", "fee", "total", "amount"}
_AMOUNT = re.compile(r"(?:[$€£¥]|\b(?:USD|EUR|GBP))\s?(\d[\d,]*(?:\.\d+)?)")
_DURATION = re.compile(r"\b(?:(\d+)\s*(?:h|hrs?|hours?)\b\.?\s*(?:(\d+)\s*(?:m|mins?|minutes?)\b)?|(\d+)\s*(?:m|mins?|minutes?)\b)",
                       re.I)


class RankedControls(BaseModel):
    best: list[int]  # positions of the controls whose card holds the extreme (ties: all)
    values: list[str]  # each control's value as its card writes it ("8h 37m", "$1476")
    said: str  # "the shortest duration"


def _amounts(text: str) -> set[float]:
    return {float(m.group(1).replace(",", "")) for m in _AMOUNT.finditer(text)}


def _durations(text: str) -> dict[float, str]:
    out = {}
    for m in _DURATION.finditer(text):
        minutes = int(m.group(3)) if m.group(3) else int(m.group(1)) * 60 + int(m.group(2) or 0)
        out[float(minutes)] = m.group(0).strip()
    return out


def _labelled(noun: str, text: str) -> tuple[float, str] | None:
    """The number a card gives under the label the task names ("highest rating": "Rating: 4.5")."""
    m = re.search(rf"\b{re.escape(noun[:5])}\w*\s*:?\s*([$€£]?\s?-?\d[\d,]*(?:\.\d+)?)", text, re.I)
    return (float(re.sub(r"[^\d.-]", "", m.group(1))), m.group(1).strip()) if m else None


def ranked_controls(task: str, cards: list[str]) -> RankedControls | None:
    """Of alike controls, one per card (`cards`: the text of each one's card with its own name), those
    whose card holds the extreme the task's superlative asks for: the least or most price ("the cheapest"), the
    shortest or longest duration ("8h 37m", "95 min"), or the highest or lowest number under a label the task
    names. None when the task has no such superlative or some card holds no single such value. The default model,
    asked for "the ticket with the shortest duration" among four cards, booked the one it had just said was not."""
    m = _CARD_SUPERLATIVE.search(task)
    if m is None or len(cards) < 2:
        return None
    word, noun = " ".join(m.group("word").lower().split()), (m.group("noun") or "").lower()
    values: list[tuple[float, str]] = []
    for text in cards:
        if word in _COST_WORDS or noun in _COST_NOUNS:
            found = {a: f"${a:g}" for a in _amounts(text)}
        elif word in _DURATION_WORDS:
            found = _durations(text)
        elif noun and (one := _labelled(noun, text)) is not None:
            found = {one[0]: one[1]}
        else:
            return None
        if len(found) != 1:
            return None
        values.append(next(iter(found.items())))
    sense = _COST_WORDS.get(word) or _DURATION_WORDS.get(word) or (1 if _HIGH.search(word) else -1)
    extreme = (max if sense > 0 else min)(v for v, _ in values)
    if all(v == extreme for v, _ in values):
        return None  # nothing to tell apart
    what = {**{w: "price" for w in _COST_WORDS}, **{w: "duration" for w in _DURATION_WORDS}}.get(word, noun or "value")
    return RankedControls(best=[i for i, (v, _) in enumerate(values) if v == extreme],
                          values=[shown for _, shown in values], said=f"the {word} {what}")
