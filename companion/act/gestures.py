"""Pointer gestures as candidate actions, and their workflows: drag an element onto another or in a direction, set a
slider to a value, select a text, scroll a box of text to its end. The extension does them with synthetic DOM events (content/gestures.js), never
chrome.debugger. Offered only where the page has one: an element a person would drag (SnapshotElement.drag), a
slider (a range input, role=slider, a slider library's handle), or, for a task that asks for text to be highlighted
or selected, the text blocks holding it; for a task that asks to scroll, its text areas and long text blocks. A drag is no submit: it goes through the click's confirmation hook (a drop
onto a button a person would be asked about is asked about); a slider, like typing, only for another origin's frame.
"""

from __future__ import annotations

import re
from typing import Callable, Iterable, NamedTuple

from companion import llm
from companion.act import action_strings as say
from companion.act.basic import CHOICE_TOKENS, browser, settle, text_value
from companion.act.confirmation import confirm_action
from companion.act.context import AgentContext
from companion.act.drop_position import Peer, Position, asked_position, peer_at
from companion.act.elements import label
from companion.act.errors import ActionFailed, NoOp
from companion.act.models import GESTURE_KINDS, Candidate
from companion.act.menu_path import follow_path, menu_path, path_candidate
from companion.act.named_fields import LISTED_NUMBER, same_number, slider_now, slider_values
from companion.act.resize import handles, resize, resize_candidates
from companion.act.sort_list import ask_words, asked_sort, sort_by_dragging
from companion.act.style_text import style_candidate, style_offers, style_text
from companion.llm.fit import declare_choice
from companion.pagemem.model import Element, PageMem
from companion.pagemem.widgets import is_slider
from companion.protocol import Box, ElementRef, Snapshot, SnapshotElement
from companion.text import names_in, quoted_spans, states_the_task

declare_choice("drop_place", CHOICE_TOKENS)

# The task asks for text to be selected: "highlight ...", "select the words/text/phrase ...".
_SELECT_TEXT = re.compile(r"\bhighlight|\b(select|mark)\b[^.]{0,40}?\b(text|words?|phrase|sentence|paragraph|line)\b", re.I)
_TEXT_TAGS = frozenset({"p", "div", "span", "li", "td", "blockquote", "pre", "article", "section", "label", "dd", "em",
                        "b", "strong", "i"})
MAX_TEXT_BLOCKS = 5
# The task asks to scroll, and which way: "scroll to the bottom of the textarea", "scroll the terms up to the top".
_SCROLL = re.compile(r"\bscroll", re.I)
_SCROLL_BACK = re.compile(r"\b(top|beginning|start|up)\b", re.I)
SCROLL_WORDS = 30  # a text block this long may be a box of its own that scrolls (an agreement, a log)
MAX_SCROLL_TARGETS = 3
SCROLL_PX = 1_000_000  # past any end: the browser stops at it
MAX_DROP_PLACES = 24
MAX_SORT_SHOWN = 4  # items named in a sort's label
DIRECTIONS = {"left": (-1, 0), "right": (1, 0), "up": (0, -1), "down": (0, 1)}
MIN_DRAG_PX = 60
MOVED_PX = 8  # a dragged element that moved less than this stayed
MAX_PLACE_CHARS = 40
CLICKED_ROLES = frozenset({"button", "link", "menuitem", "tab", "option", "checkbox", "radio", "switch"})


def is_draggable(el: Element) -> bool:
    return el.drag and not is_slider(el) and not el.disabled


def _name(el: Element) -> str:
    return " ".join((el.name or el.text).split())[:80]


def _quoted(el: Element) -> str:
    name = _name(el)
    return f'"{name}"' if name else label(el)


# ----------------------------------------------------------------------------- candidates


def slider_state(el: Element) -> str:
    """'now 10, from 0 to 50', as far as the page says."""
    a = el.attrs
    now = slider_now(el)
    low, high = (a.get("min"), a.get("max")) if el.tag == "input" else (a.get("aria-valuemin"), a.get("aria-valuemax"))
    parts = [f"now {now}"] if now else []
    if low is not None and high is not None:
        parts.append(f"from {low} to {high}")
    return ", ".join(parts)


def _slider_candidate(el: Element, section_id: str, page: "PageGestures") -> list[Candidate]:
    """A slider set to the value the task gives it by rule, else asked on choosing. When the task gives several
    sliders' values, one action sets them all, offered on the first: the default model, offered one per slider, set
    the two sliders meant for 15 four times and never the one meant for 13."""
    values = page.slider_values
    order = [s.ref for s in page.sliders]
    if values is not None and len(values) > 1:
        if el.ref != order[0]:
            return []
        states = [slider_state(s).removeprefix("now ").split(",")[0] or "?" for s in page.sliders]
        now = f" (now {', '.join(states)})" if any(x != "?" for x in states) else ""
        return [Candidate(kind="slider", label=f"set the {len(values)} sliders{now} to {', '.join(values)}, in page order",
                          element=el.ref, section_id=section_id, each=list(zip(order, values)))]
    value = values[0] if values is not None else None
    state = slider_state(el)
    what = f"slider {_quoted(el)}" if _name(el) else "slider"
    about = f" ({state})" if state else ""
    to = value if value is not None else "the value the task gives"
    return [Candidate(kind="slider", label=f"set the {what}{about} to {to}", element=el.ref, section_id=section_id, text=value)]


def _drag_candidates(task: str, el: Element, section_id: str, page: "PageGestures") -> list[Candidate]:
    """Onto each element the task names when it names the dragged one too; and a drag whose place is chosen after."""
    pairs = [Candidate(kind="drag", label=f'drag {_quoted(el)} onto "{name}"', element=el.ref, to=ref, section_id=section_id)
             for ref, name in page.named_targets(el)] if _name(el) and names_in(task, _name(el)) else []
    if page.by_size is not None and page.by_size[0] is el:
        onto = page.by_size[1]
        said, said_onto = page.size_words
        pairs.append(Candidate(kind="drag", label=f"drag {_quoted(el)} (the {said}) onto {_quoted(onto)} (the {said_onto})",
                               element=el.ref, to=onto.ref, section_id=section_id))
    return pairs + [Candidate(kind="drag", label=f"drag {_quoted(el)} (then choose where to drop it)", element=el.ref,
                              section_id=section_id)]


def _sort_candidates(el: Element, section_id: str, page: "PageGestures") -> list[Candidate]:
    """On the first item of a list of draggable items, for a task asking for an order: the whole list sorted."""
    if page.sort is None:
        return []
    items = next((group for group in page.lists if group[0] is el), None)
    if items is None or len(items) < 2:
        return []
    shown = ", ".join(f'"{_name(e)}"' for e in items[:MAX_SORT_SHOWN]) + (", …" if len(items) > MAX_SORT_SHOWN else "")
    return [Candidate(kind="sort", label=f"sort the list ({shown}) in {ask_words(page.sort)} order, by dragging",
                      element=el.ref, section_id=section_id, each=[(e.ref, _name(e)) for e in items])]


def element_candidates(task: str, el: Element, section_id: str, page: "PageGestures",
                       plain: Callable[[Element, str], Candidate]) -> list[Candidate]:
    """The candidates for one element: its gestures for a slider, a draggable element or a resize handle, else
    `plain`'s."""
    if el.resize:  # nothing to click: offered only for a size the task asks
        return [c.model_copy(update={"section_id": section_id}) for c in page.resizes if c.element == el.ref]
    path = path_candidate(page.menu_path, el)
    if path is not None:  # a menu entry with a submenu, clicked, is chosen itself: only pointed at on the way
        opener = el.attrs.get("aria-haspopup", "false").lower() not in ("", "false")
        return [path.model_copy(update={"section_id": section_id})] + ([] if opener else [plain(el, section_id)])
    styled = [style_candidate(o).model_copy(update={"section_id": section_id}) for o in page.styles if o.editor.ref == el.ref]
    if styled:  # the editor is still typed into as well
        return styled + [plain(el, section_id)]
    if is_slider(el):
        return _slider_candidate(el, section_id, page)
    if is_draggable(el):
        # A draggable link or button still does what a click does.
        clicked = [plain(el, section_id)] if el.role in CLICKED_ROLES else []
        if any(el in group for group in page.lists):
            # A list the task asks in an order is sorted as a whole: offered its items' drags too, the default model
            # dragged three of them "down by 403 pixels" before the sort and one after it.
            return _sort_candidates(el, section_id, page) + clicked
        return _drag_candidates(task, el, section_id, page) + clicked
    return [plain(el, section_id)]


def _part(pm: PageMem, el: Element) -> str:
    """The top-level part of the page an element is in (its section's first id): a list's items share it."""
    section = pm.section_of(el.ref)
    return section.id.split(".")[0] if section is not None else ""


class PageGestures:
    """What one page offers gestures on, worked out once per candidate gathering (or drop-place question)."""

    def __init__(self, task: str, pm: PageMem, snapshot: Snapshot | None) -> None:
        elements = list(pm.all_elements())
        self.sliders = [e for e in elements if is_slider(e)]
        self.slider_values = slider_values(task, self.sliders)
        self.draggables = [e for e in elements if is_draggable(e)]
        self.sort = asked_sort(task)
        self.by_size, self.size_words = _sized_pair(task, self.draggables)
        # The draggable items of each part of the page (a list's), in page order, for a sort; named ones only.
        self.lists: list[list[Element]] = []
        if self.sort is not None:
            parts: dict[str, list[Element]] = {}
            for e in self.draggables:
                parts.setdefault(_part(pm, e), []).append(e)
            self.lists = [group for group in parts.values() if all(_name(e) for e in group)]
        self._named = list(_named_places(task, snapshot))
        self.resizes = resize_candidates(task, handles(elements)) if any(e.resize for e in elements) else []
        self.styles = style_offers(task, elements)
        self.menu_path = menu_path(task)  # read once, not per element

    def named_targets(self, el: Element) -> list[tuple[ElementRef, str]]:
        """Drop places the task names by their text. Left out: the dragged element, what is inside it, and a text
        naming it (the task's own sentence shown on the page describes the drag; it is no place)."""
        own = _name(el)
        return [(ref, name) for ref, name in self._named
                if ref != el.ref and not names_in(own, name) and not (own and names_in(name, own))]


# "Drag the smaller box so that it is completely inside the larger box": two draggables told apart by their size.
_SIZED = re.compile(r"\b(smaller|smallest|larger|largest|bigger|biggest)\b", re.I)
_SMALL = ("smaller", "smallest")


def _sized_pair(task: str, draggables: list[Element]) -> tuple[tuple[Element, Element] | None, tuple[str, str]]:
    """(dragged, onto) when the task tells the page's two draggable elements apart by their size, the dragged one
    named first ("the smaller box ... inside the larger box"), with the words it used; else (None, ...)."""
    words = [m.group(1).lower() for m in _SIZED.finditer(task)]
    boxed = [e for e in draggables if e.box is not None]
    if len(words) < 2 or (words[0] in _SMALL) == (words[1] in _SMALL) or len(boxed) != 2 or len(draggables) != 2:
        return None, ("", "")
    small, large = sorted(boxed, key=lambda e: e.box.w * e.box.h)
    if small.box.w * small.box.h == large.box.w * large.box.h:
        return None, ("", "")
    pair = (small, large) if words[0] in _SMALL else (large, small)
    return pair, (words[0], words[1])


def _named_places(task: str, snapshot: Snapshot | None) -> Iterable[tuple[ElementRef, str]]:
    """Visible elements with a short text of their own that the task names ("box B"), in document order."""
    if snapshot is None:
        return
    for frame in snapshot.frames:
        for el in frame.elements:
            name = " ".join(el.text.split())
            if el.visible and 0 < len(name) <= MAX_PLACE_CHARS and names_in(task, name):
                yield ElementRef(frame=frame.frame, id=el.id), name


_HIGHLIGHT = re.compile(r"\bhighlight", re.I)
_CHOICE_TYPES = frozenset({"checkbox", "radio"})
_CHOICE_ROLES = frozenset({"checkbox", "radio", "option", "menuitemcheckbox", "menuitemradio"})


def _has_choices(snapshot: Snapshot | None) -> bool:
    """The page shows boxes, radios or options to select."""
    return snapshot is not None and any(
        el.visible and (el.attrs.get("role", "") in _CHOICE_ROLES
                        or (el.tag == "input" and el.attrs.get("type", "").lower() in _CHOICE_TYPES))
        for f in snapshot.frames for el in f.elements)


def _text_blocks(snapshot: Snapshot | None) -> Iterable[tuple[ElementRef, str]]:
    """Visible elements holding a sentence's worth of their own text, in document order."""
    if snapshot is None:
        return
    for frame in snapshot.frames:
        for el in frame.elements:
            text = _text_of(el)
            if el.visible and not el.in_run and el.tag in _TEXT_TAGS and len(text.split()) >= 3:
                yield ElementRef(frame=frame.frame, id=el.id), text


def _text_of(el: SnapshotElement) -> str:
    return " ".join((el.run_text or el.text).split())


def text_candidates(task: str, snapshot: Snapshot | None) -> list[Candidate]:
    """For a task asking for text to be selected: each quoted phrase of the task inside a text block; without one,
    the whole text of the first text blocks."""
    if not _SELECT_TEXT.search(task):
        return []
    if not _HIGHLIGHT.search(task) and _has_choices(snapshot):
        # "Select words similar to reply and click Submit" beside checkboxes: the boxes are what is selected (the
        # default model selected the text of their labels instead).
        return []
    blocks = list(_text_blocks(snapshot))
    out = []
    for phrase, _, _ in quoted_spans(task):
        ref = next((r for r, text in blocks if phrase.lower() in text.lower()), None)
        if ref is not None:
            out.append(Candidate(kind="select_text", label=f'select the text "{phrase}"', element=ref, text=phrase))
    if out:
        return out
    # A page that states the task (a benchmark's instruction bar, a tutorial's exercise line) holds a text block
    # that is the task's own sentence: the default model chose to select it. It is the request, not the text.
    blocks = [(ref, text) for ref, text in blocks if not states_the_task(task, text)]
    return [Candidate(kind="select_text", label=f'select the whole text "{_preview(text)}"', element=ref)
            for ref, text in blocks[:MAX_TEXT_BLOCKS]]


def scroll_candidates(task: str, snapshot: Snapshot | None) -> list[Candidate]:
    """For a task that asks to scroll: its text areas and long text blocks (which may be boxes that scroll: the
    snapshot does not say), each scrolled to the end the task names (the bottom unless it says top or up). The
    page itself scrolls by itself as elements are acted on; a box inside it does not, and a form gated on reading
    an agreement to its end stays disabled until it is scrolled (the default model pressed Cancel at once)."""
    if snapshot is None or not _SCROLL.search(task):
        return []
    where = "top" if _SCROLL_BACK.search(task) else "bottom"
    areas = [(ElementRef(frame=f.frame, id=el.id), _text_of(el) or el.value or "")
             for f in snapshot.frames for el in f.elements if el.visible and el.tag == "textarea"]
    long = [(ref, text) for ref, text in _text_blocks(snapshot)
            if len(text.split()) >= SCROLL_WORDS and not states_the_task(task, text)]
    out = []
    for ref, text in (areas + long)[:MAX_SCROLL_TARGETS]:
        what = f'the text area "{_preview(text)}"' if (ref, text) in areas else f'the text "{_preview(text)}"'
        out.append(Candidate(kind="scroll", label=f"scroll {what} to the {where}", element=ref, text=where))
    return out


def _preview(text: str, words: int = 8) -> str:
    parts = text.split()
    return " ".join(parts[:words]) + (" …" if len(parts) > words else "")


# ----------------------------------------------------------------------------- workflows


def _element(ctx: AgentContext, ref: ElementRef | None) -> Element:
    el = ctx.pagemem.element_by_ref(ref) if ctx.pagemem is not None and ref is not None else None
    if el is None:
        raise ActionFailed("the element is no longer on the page")
    return el


class DropPlace(NamedTuple):
    """One place a dragged element may go, as the drop-place question lists it."""

    label: str
    to: ElementRef | None
    dx: float
    dy: float
    place: tuple[int, int] | None = None  # (k, n): onto the k-th of the n draggable items of the target's list
    box: Box | None = None  # the target's, for a place the task names by a grid's row and column


def drop_places(ctx: AgentContext, el: Element) -> list[DropPlace]:
    """Where a dragged element may go: onto each other draggable element (with its place among those of its part of
    the page: a list's order), onto what the task names, then by a step in each direction."""
    pm = ctx.pagemem
    if pm is None:
        return []
    page = PageGestures(ctx.task, pm, ctx.page.snapshot)
    draggables = page.draggables
    places = []
    for t in [t for t in draggables if t is not el][:MAX_DROP_PLACES]:
        peers = [p for p in draggables if _part(pm, p) == _part(pm, t)]
        k, n = peers.index(t) + 1, len(peers)
        places.append(DropPlace(f"onto {_quoted(t)} ({k} of {n})", t.ref, 0.0, 0.0, (k, n), t.box))
    places += [DropPlace(f'onto "{name}"', ref, 0.0, 0.0) for ref, name in page.named_targets(el)]
    step = max(MIN_DRAG_PX, 3 * max(el.box.w, el.box.h)) if el.box is not None else MIN_DRAG_PX
    places += [DropPlace(f"{word} by {round(step)} pixels", None, dx * step, dy * step)
               for word, (dx, dy) in DIRECTIONS.items()]
    return places


def _place_asked(places: list[DropPlace], el: Element, position: Position) -> DropPlace | None:
    """The drop place onto the peer at the position the task asks for (act/drop_position.py), or None."""
    peers = [Peer(p.to, p.place, p.box) for p in places if p.place is not None and p.to is not None]
    to = peer_at(peers, el.box, position)
    return next((p for p in places if p.place is not None and p.to == to), None) if to is not None else None


async def drag(ctx: AgentContext, candidate: Candidate) -> str:
    el = _element(ctx, candidate.element)
    position = asked_position(ctx.task)
    places = drop_places(ctx, el) if candidate.to is None else []
    by_rule = _place_asked(places, el, position) if position is not None else None
    if candidate.to is not None:  # the place is in the label: 'drag "item 3" onto "box B"'
        place = DropPlace("onto" + candidate.label.split(" onto", 1)[1], candidate.to, 0.0, 0.0)
    elif by_rule is not None:
        # "Drag Camella to the 1st position": the element in that place of the list, with no call (asked, the default
        # model dragged it "right by 403 pixels" off a vertical list).
        place = by_rule
    else:
        variables = {"task": ctx.task, "history": ctx.history_text(), "dragged": label(el), "options": [p.label for p in places]}
        reply = await llm.decided_twice(lambda v: llm.choose("drop_place", v, n=len(places), max_tokens=CHOICE_TOKENS),
                                        variables, prompt="drop_place")
        place = places[reply.answer.index]
    await confirm_action(ctx, "click", el)
    before = el.box
    result = await browser(ctx, ctx.session.drag(el.ref, place.to, dx=place.dx, dy=place.dy, tab=ctx.tab),
                           f"dragging {label(el)}")
    notes = [n for n in (await _moved(ctx, el.ref, before), result.note) if n]
    return say.dragged(el, place.label) + (f" ({'; '.join(notes)})" if notes else "")


async def _moved(ctx: AgentContext, ref: ElementRef, before: Box | None) -> str:
    """How far the dragged element moved, as the page shows it after the drag ("it moved 63 px right and 20 px
    down"); '' when it stayed (a drop that takes a copy, an upload zone) or is gone. A move changes no text: the
    page change reads "no visible change", and the default model dragged the box it had put in place again."""
    if before is None:
        return ""
    await settle(ctx)
    now = ctx.pagemem.element_by_ref(ref) if ctx.pagemem is not None else None
    if now is None or now.box is None:
        return ""
    dx, dy = now.box.x - before.x, now.box.y - before.y
    parts = [f"{round(abs(v))} px {word}" for v, word in ((dx, "right" if dx > 0 else "left"), (dy, "down" if dy > 0 else "up"))
             if abs(v) >= MOVED_PX]
    return f"it moved {' and '.join(parts)}" if parts else ""


async def set_slider(ctx: AgentContext, candidate: Candidate) -> str:
    if candidate.each:
        return await _set_sliders(ctx, candidate.each)
    el = _element(ctx, candidate.element)
    value = candidate.text
    if value is None:
        field = f"{label(el)} ({slider_state(el) or 'a slider'}): the one number to set it to"
        answer = await text_value("input_value", {"task": ctx.task, "history": ctx.history_text(),
                                                  "observation": ctx.observation, "field": field})
        numbers = LISTED_NUMBER.findall(answer)
        if not numbers:
            raise ActionFailed(f"no number to set {label(el)} to (the answer was {answer[:60]!r})")
        value = numbers[0]
    if _holds(el, value):
        raise NoOp(f"{label(el)} is already at {value}", say.slid(el, value))
    note = await _move(ctx, el, value)
    return say.slid(el, value) + (f" ({note})" if note else "")


async def _set_sliders(ctx: AgentContext, each: list[tuple[ElementRef, str]]) -> str:
    """Every slider to its value, in page order; one already there (as far as it says) is left."""
    values = [value for _, value in each]
    moved: list[str] = []
    notes: list[str] = []
    for place, (ref, value) in enumerate(each, 1):
        el = _element(ctx, ref)
        if _holds(el, value):
            continue
        try:
            note = await _move(ctx, el, value, done=moved)
        except ActionFailed as exc:
            if not exc.done:
                exc.done = list(moved)
            raise
        moved.append(f"Set slider {place} of {len(each)} to {value}")
        notes += [f"slider {place}: {note}"] if note else []
        el.clicked = True
    if not moved:
        raise NoOp(f"the sliders are already at {', '.join(values)}", say.slid_all(values))
    return say.slid_all(values) + (f" ({'; '.join(notes)})" if notes else "")


def _holds(el: Element, value: str) -> bool:
    now = slider_now(el)
    return now is not None and same_number(now, value)


async def _move(ctx: AgentContext, el: Element, value: str, done: list[str] | None = None) -> str | None:
    """Move one slider; the browser's note when it could not reach the value exactly."""
    await confirm_action(ctx, "type", el, done=done)  # a slider in another origin's frame, as a field there
    result = await browser(ctx, ctx.session.set_slider(el.ref, float(value), tab=ctx.tab), f"moving {label(el)}")
    return result.note


async def select_text(ctx: AgentContext, candidate: Candidate) -> str:
    if candidate.element is None:
        raise ActionFailed("no text to select")
    await browser(ctx, ctx.session.select_text(candidate.element, candidate.text, tab=ctx.tab), "selecting the text")
    shown = candidate.text or candidate.label.removeprefix("select the whole text ").strip('"')
    return say.selected_text(shown)


async def scroll_box(ctx: AgentContext, candidate: Candidate) -> str:
    """Scroll the candidate's box to its bottom or top (candidate.text), as a person drags its scrollbar."""
    if candidate.element is None:
        raise ActionFailed("no box to scroll")
    where = candidate.text or "bottom"
    dy = SCROLL_PX if where == "bottom" else -SCROLL_PX
    await browser(ctx, ctx.session.scroll(0, dy, candidate.element, tab=ctx.tab), "scrolling")
    what = candidate.label.removeprefix("scroll ").rsplit(" to the ", 1)[0]
    return say.scrolled(what, where)


async def sort_list(ctx: AgentContext, candidate: Candidate) -> str:
    ask = asked_sort(ctx.task)
    if ask is None or not candidate.each:
        raise ActionFailed("the task asks for no order to sort the list in")
    return await sort_by_dragging(ctx, candidate.each, ask)


WORKFLOWS = {"drag": drag, "slider": set_slider, "select_text": select_text, "scroll": scroll_box, "sort": sort_list,
             "resize": resize, "style": style_text, "menu_path": follow_path}


async def perform(ctx: AgentContext, candidate: Candidate) -> str:
    """Carry out a gesture candidate; its history string. Its element counts as used on this page."""
    done = await WORKFLOWS[candidate.kind](ctx, candidate)
    el = ctx.pagemem.element_by_ref(candidate.element) if ctx.pagemem is not None and candidate.element else None
    if el is not None:
        el.clicked = True
    return done


__all__ = ["GESTURE_KINDS", "PageGestures", "element_candidates", "text_candidates", "scroll_candidates", "perform",
           "is_slider", "is_draggable"]
