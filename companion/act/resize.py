"""Resizing a box by its handle: what a task asks ("make the textarea wider", "so that the height is smaller than
its initial size"), which element a handle resizes and by which edge, read by rule from the boxes; and the workflow,
a drag of the handle by an offset (content/gestures.js, synthetic pointer and mouse events, as for any drag).

A handle is what the page draws with a resize cursor (SnapshotElement.resize: jQuery UI's resizable, split panes,
column splitters). It has no name, so the element it resizes is read from the boxes: the smallest element whose box
holds the handle's centre (a few pixels of slack: handles sit on the edge) and is much larger than the handle. Which
edge it moves comes from where it sits on that box. Offered only when the task asks for a size; otherwise a handle
is nothing a person clicks.
"""

from __future__ import annotations

import re
from typing import Iterable, NamedTuple

from companion.act.basic import browser
from companion.act.confirmation import confirm_action
from companion.act.context import AgentContext
from companion.act.elements import label
from companion.act.errors import ActionFailed
from companion.act.models import Candidate
from companion.pagemem.model import Element
from companion.protocol import Box

# "wider", "narrower", "taller", "shorter": an axis and a way.
_AXIS_WORDS = {"wider": ("x", 1), "broader": ("x", 1), "narrower": ("x", -1), "thinner": ("x", -1),
               "taller": ("y", 1), "shorter": ("y", -1)}
_GROW = re.compile(r"\b(larger|bigger|greater|more|increase[sd]?|enlarge[sd]?|expand(?:ed|s)?|grow)\b", re.I)
_SHRINK = re.compile(r"\b(smaller|less|decrease[sd]?|reduce[sd]?|shrink(?:s)?)\b", re.I)
_AXIS = re.compile(r"\b(width|height)\b", re.I)
_SIZE_TASK = re.compile(r"\b(resize[sd]?|width|height|wider|narrower|taller|shorter|enlarge|shrink|size)\b", re.I)
SLACK_PX = 6  # a handle sits on its box's edge, partly outside it
OWNER_AREA = 4  # the resized element is at least this many times the handle's area
SHARE = 0.3  # of the element's size, the drag's length
MIN_PX, MIN_LEFT_PX = 20, 12  # the shortest drag; the least a shrunk element keeps


class Ask(NamedTuple):
    """What the task asks: the axis ("x" width, "y" height, None either) and the way (+1 larger, -1 smaller)."""

    axis: str | None
    way: int


def asked_resize(task: str) -> Ask | None:
    """None when the task asks no size change."""
    if not _SIZE_TASK.search(task):
        return None
    words = re.findall(r"[a-z]+", task.lower())
    for word in words:
        if word in _AXIS_WORDS:
            return Ask(*_AXIS_WORDS[word])
    grow, shrink = _GROW.search(task), _SHRINK.search(task)
    if (grow is None) == (shrink is None):
        return None
    axis = _AXIS.search(task)
    return Ask({"width": "x", "height": "y"}[axis.group(1).lower()] if axis else None, 1 if grow else -1)


class Handle(NamedTuple):
    handle: Element
    owner: Element
    edges: str  # of "n", "s", "e", "w": the edges of the owner's box it moves


def _holds(box: Box, x: float, y: float) -> bool:
    return box.x - SLACK_PX <= x <= box.x + box.w + SLACK_PX and box.y - SLACK_PX <= y <= box.y + box.h + SLACK_PX


def _edges(owner: Box, x: float, y: float) -> str:
    edges = ""
    if y <= owner.y + owner.h / 4:
        edges += "n"
    elif y >= owner.y + owner.h * 3 / 4:
        edges += "s"
    if x <= owner.x + owner.w / 4:
        edges += "w"
    elif x >= owner.x + owner.w * 3 / 4:
        edges += "e"
    return edges


def handles(elements: Iterable[Element]) -> list[Handle]:
    """Every resize handle with the element it resizes and the edges it moves; a handle in the middle of its element
    (no edge) is left out."""
    elements = [e for e in elements if e.box is not None and e.box.w > 0 and e.box.h > 0]
    found = []
    for h in (e for e in elements if e.resize):
        x, y = h.box.x + h.box.w / 2, h.box.y + h.box.h / 2
        area = h.box.w * h.box.h
        owners = [e for e in elements if not e.resize and e.box.w * e.box.h >= OWNER_AREA * area and _holds(e.box, x, y)]
        if not owners:
            continue
        owner = min(owners, key=lambda e: e.box.w * e.box.h)
        edges = _edges(owner.box, x, y)
        if edges:
            found.append(Handle(h, owner, edges))
    return found


_EDGE_WORDS = {"e": "right edge", "w": "left edge", "s": "bottom edge", "n": "top edge", "se": "bottom right corner",
               "sw": "bottom left corner", "ne": "top right corner", "nw": "top left corner"}
_SIZE_WORDS = {("x", 1): "wider", ("x", -1): "narrower", ("y", 1): "taller", ("y", -1): "shorter",
               (None, 1): "larger", (None, -1): "smaller"}


def _fits(edges: str, axis: str | None) -> bool:
    moves_x, moves_y = any(e in edges for e in "ew"), any(e in edges for e in "ns")
    return {"x": moves_x and not moves_y, "y": moves_y and not moves_x, None: moves_x and moves_y}[axis]


def resize_candidates(task: str, found: list[Handle]) -> list[Candidate]:
    """One candidate per element the task's size change can be made on, by the handle that moves just the asked
    axis (the corner for "larger" alone), else any handle moving it (no section: the caller's)."""
    ask = asked_resize(task)
    if ask is None:
        return []
    out: dict[int, Candidate] = {}
    for exact in (True, False):
        for h in found:
            key = id(h.owner)
            if key in out:
                continue
            moves = {"x": "ew", "y": "ns", None: "nsew"}[ask.axis]
            if not (_fits(h.edges, ask.axis) if exact else any(e in h.edges for e in moves)):
                continue
            out[key] = Candidate(kind="resize", element=h.handle.ref,
                                 label=f"make {_what(h.owner)} {_SIZE_WORDS[ask]} (drag its {_EDGE_WORDS.get(h.edges, 'edge')})",
                                 text=f"{ask.axis or ''}{'+' if ask.way > 0 else '-'}")
    return list(out.values())


def _what(el: Element) -> str:
    return label(el) if el.name or el.text else f"the {el.role or el.tag}"


def offset(h: Handle, ask: Ask) -> tuple[float, float]:
    """The drag that changes the owner's size the asked way along the asked axis (both for None), by about a third
    of its size, never leaving it less than a few pixels."""
    box = h.owner.box

    def along(size: float, plus: str, minus: str, asked: bool) -> float:
        if not asked or not any(e in h.edges for e in plus + minus):
            return 0.0
        step = max(MIN_PX, size * SHARE)
        if ask.way < 0:
            step = min(step, max(size - MIN_LEFT_PX, 1.0))
        # Moving the far edge (right, bottom) out grows the box; moving the near one (left, top) out is the other way.
        direction = 1 if any(e in h.edges for e in plus) else -1
        return direction * ask.way * step

    return (along(box.w, "e", "w", ask.axis in ("x", None)), along(box.h, "s", "n", ask.axis in ("y", None)))


async def resize(ctx: AgentContext, candidate: Candidate) -> str:
    pm = ctx.pagemem
    ask = Ask((candidate.text or "")[:-1] or None, 1 if (candidate.text or "").endswith("+") else -1)
    h = next((h for h in handles(pm.all_elements()) if h.handle.ref == candidate.element), None) if pm else None
    if h is None:
        raise ActionFailed("the resize handle is no longer on the page")
    dx, dy = offset(h, ask)
    await confirm_action(ctx, "click", h.handle)
    result = await browser(ctx, ctx.session.drag(h.handle.ref, None, dx=dx, dy=dy, tab=ctx.tab), f"resizing {label(h.owner)}")
    done = f"Made {_what(h.owner)} {_SIZE_WORDS[ask]} (dragged its {_EDGE_WORDS.get(h.edges, 'edge')} by {_px(dx, dy)})"
    return done + (f" ({result.note})" if result.note else "")


def _px(dx: float, dy: float) -> str:
    return ", ".join(f"{round(v):+d} px {axis}" for v, axis in ((dx, "across"), (dy, "down")) if v)
