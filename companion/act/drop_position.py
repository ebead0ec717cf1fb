"""Where a task asks a dragged item to go among its peers, read by rule (pure functions).

A list is ordered and a grid is laid out: "to the 1st position", "to the bottom", "up by one position" count places
in the list's order; "to the top right", "to the center", "left by one" name a cell of the rows and columns the
items' boxes form (a wrapped list of tiles, a 3 by 3 board). The rows and columns come from the boxes, never from a
page's markup, so a vertical list is a grid of one column and a row of tabs one of one row. Asked instead, the
default model dropped a grid's item onto the 7th of 9 for "the center" and dragged list items off their list.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from companion.protocol import Box, ElementRef
from companion.text import COUNTS, ORDINALS

_COUNT = r"(\d+|" + "|".join(COUNTS) + r")"
# "to the 1st position", "into the third place", "to position 4", "to the last spot".
_POSITION = re.compile(r"\b(?:(\d+)(?:st|nd|rd|th)|(" + "|".join(ORDINALS) + r"|last))\s+(?:position|place|spot|slot)\b"
                       r"|\b(?:position|place|spot|slot)\s+(?:number\s+)?(\d+)\b", re.I)
# "to the top right", "to the center left", "to the bottom center", "to the center" (of a grid or a list).
_ROW_WORDS = {"top": "first", "upper": "first", "middle": "middle", "center": "middle", "centre": "middle",
              "bottom": "last", "lower": "last"}
_COL_WORDS = {"left": "first", "middle": "middle", "center": "middle", "centre": "middle", "right": "last"}
_CELL = re.compile(r"\bto the (top|upper|middle|center|centre|bottom|lower)(?:[\s-]+(left|middle|center|centre|right))?\b",
                   re.I)
_END = re.compile(r"\bto the (end|start|beginning)\b", re.I)
# "down by one position", "up 2 places", "left by one" (a grid's neighbour; no unit needed after "by").
_BY = re.compile(r"\b(up|down|left|right)\s+(?:by\s+" + _COUNT + r"|" + _COUNT +
                 r"\s+(?:positions?|places?|spots?|slots?|rows?|columns?|cells?))\b", re.I)


class Position(NamedTuple):
    """What the task asks: ("at", n) the n-th place counted from 1 in order (-1: the last); ("by", n) n rows from
    where it is (negative: up); ("across", n) n columns (negative: left); ("cell", row, col) with "first",
    "middle", "last" or None (any) for the row and the column."""

    kind: str
    n: int = 0
    row: str | None = None
    col: str | None = None


class Peer(NamedTuple):
    """One drop place among the dragged item's peers: its place (k of n) in the list's order and its box."""

    to: ElementRef
    place: tuple[int, int]
    box: Box | None


def asked_position(task: str) -> Position | None:
    m = _POSITION.search(task)
    if m is not None:
        digits, word, after = m.groups()
        if word:
            return Position("at", -1 if word.lower() == "last" else ORDINALS[word.lower()])
        return Position("at", int(digits or after))
    m = _CELL.search(task)
    if m is not None:
        row, col = m.group(1).lower(), (m.group(2) or "").lower()
        if not col and row in ("top", "upper", "bottom", "lower"):  # "to the top": the list's first or last place
            return Position("at", 1 if row in ("top", "upper") else -1)
        return Position("cell", row=_ROW_WORDS[row], col=_COL_WORDS[col] if col else "middle")
    m = _END.search(task)
    if m is not None:
        return Position("at", -1 if m.group(1).lower() == "end" else 1)
    m = _BY.search(task)
    if m is not None:
        count = m.group(2) or m.group(3)
        n = int(count) if count.isdigit() else COUNTS[count.lower()]
        way = m.group(1).lower()
        return Position("by" if way in ("up", "down") else "across", -n if way in ("up", "left") else n)
    return None


def peer_at(peers: list[Peer], own: Box | None, position: Position) -> ElementRef | None:
    """The peer at `position`, or None when none is (or it is the dragged item's own place). The dragged item's
    own place in the order is the one number of its list no peer has."""
    if not peers:
        return None
    total = peers[0].place[1]
    if position.kind == "at":
        want = total if position.n == -1 else position.n
        return next((p.to for p in peers if p.place == (want, total)), None)
    if position.kind in ("by", "across") or position.kind == "cell":
        grid = _grid(peers, own)
        if grid is None:
            return _by_order(peers, position) if position.kind == "by" else None
        rows, cols, cell_of = grid
        if position.kind == "cell":
            at = (_pick(position.row, rows), _pick(position.col, cols))
        else:
            if "own" not in cell_of:
                return None
            r, c = cell_of["own"]
            at = (r + position.n, c) if position.kind == "by" else (r, c + position.n)
        return next((p.to for i, p in enumerate(peers) if cell_of.get(i) == at), None)
    return None


def _by_order(peers: list[Peer], position: Position) -> ElementRef | None:
    total = peers[0].place[1]
    own = set(range(1, total + 1)) - {p.place[0] for p in peers}
    if len(own) != 1:
        return None
    want = own.pop() + position.n
    return next((p.to for p in peers if p.place == (want, total)), None)


def _pick(which: str | None, count: int) -> int:
    return {"first": 0, "middle": count // 2, "last": count - 1}[which or "middle"]


def _grid(peers: list[Peer], own: Box | None) -> tuple[int, int, dict] | None:
    """(rows, columns, cell of each peer by index and of "own") from the boxes' centres, None when a box is
    missing. Centres closer than half the smallest box's side share a row (or a column)."""
    boxes: list[tuple[object, Box]] = [(i, p.box) for i, p in enumerate(peers) if p.box is not None]
    if len(boxes) != len(peers):
        return None
    if own is not None:
        boxes.append(("own", own))
    side = min(min(b.w, b.h) for _, b in boxes) or 1.0

    def bands(centres: list[float]) -> list[float]:
        out: list[float] = []
        for c in sorted(centres):
            if not out or c - out[-1] > side / 2:
                out.append(c)
        return out

    ys = bands([b.y + b.h / 2 for _, b in boxes])
    xs = bands([b.x + b.w / 2 for _, b in boxes])

    def band(centre: float, starts: list[float]) -> int:
        return max(i for i, s in enumerate(starts) if centre >= s - side / 2)

    cell_of = {key: (band(b.y + b.h / 2, ys), band(b.x + b.w / 2, xs)) for key, b in boxes}
    return len(ys), len(xs), cell_of
