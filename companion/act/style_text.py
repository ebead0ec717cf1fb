"""Styling text in a rich-text editor as one action: select the words the task names in the editor, then press the
toolbar's button for the style ("give the text nisl the style bold", "make everything italic", "underline the
title"), or open its colour picker and choose the swatch nearest the colour the task names ("give the text nulla
the color orange"). A person does it in two or three moves the default model did not put together: it pressed Bold
with nothing selected.

Offered when the task names a style a toolbar button is named for (its name, or its icon's class: Quill's "ql-bold",
render.sight_name), or a colour and the word "colour" with a picker on the page (a control named for a colour or a
picker), and the page has an editable region (contenteditable) holding the words: the longest run of the editor's
words the task repeats, or all of its text when the task says "everything" or "all the text". A swatch is known by
its colour (SnapshotElement.swatch); the nearest to the CSS colour the task names is chosen.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from companion.act import action_strings as say
from companion.act.basic import browser, click_element, settle
from companion.act.colour_field import named_colours
from companion.act.context import AgentContext
from companion.act.elements import label
from companion.act.errors import ActionFailed
from companion.act.models import Candidate
from companion.pagemem.icon_names import colour_distance
from companion.pagemem.model import Element
from companion.pagemem.widgets import is_editable

# A style the task asks, by its word forms, and the stem a toolbar button's name holds.
_STYLES = {"bold": ("bold", "bolded", "embolden"), "italic": ("italic", "italics", "italicize", "italicise", "italicized"),
           "underline": ("underline", "underlined", "underlining"),
           "strike": ("strikethrough", "strike", "struck", "strikeout")}
_WORD = re.compile(r"[\w'-]+")
_COLOUR_WORD = re.compile(r"\bcolou?r", re.I)
_PICKER = re.compile(r"colou?r|picker", re.I)
_EVERYTHING = re.compile(r"\b(everything|all (?:of )?the text|all text|the whole text|the entire text)\b", re.I)
MAX_SHOWN = 60


def asked_style(task: str) -> str | None:
    """The one style the task names (its stem), else None."""
    words = {w.lower() for w in _WORD.findall(task)}
    found = [stem for stem, forms in _STYLES.items() if words & set(forms)]
    return found[0] if len(found) == 1 else None


# Words that tell no text apart: a run of only these is no text the task names ("the", "and", "text").
_PLAIN = frozenset({"a", "an", "the", "and", "or", "to", "of", "in", "on", "at", "it", "is", "be", "by", "as", "with",
                    "text", "editor", "style", "word", "words", "give", "make", "press", "using", "then"})


def asked_text(task: str, editor_text: str) -> str | None:
    """What to select: "" for all of the editor's text, else the longest run of its words the task repeats (whole
    words, any case; not only plain words), as the editor writes it; None when the task repeats none."""
    if _EVERYTHING.search(task):
        return ""
    said = [w.lower() for w in _WORD.findall(task)]
    own = list(_WORD.finditer(editor_text))
    best: tuple[int, int] | None = None
    for i in range(len(own)):
        for j in range(len(own), i, -1):
            if best is not None and j - i <= best[1] - best[0]:
                break
            run = [m.group().lower() for m in own[i:j]]
            if all(w in _PLAIN or len(w) < 2 for w in run):
                continue
            if any(said[k:k + len(run)] == run for k in range(len(said) - len(run) + 1)):
                best = (i, j)
                break
    if best is None:
        return None
    return editor_text[own[best[0]].start():own[best[1] - 1].end()]


def asked_colour(task: str) -> str | None:
    """The one CSS colour a task asks text to be given ("the color orange"), else None."""
    names = set(named_colours(task)) if _COLOUR_WORD.search(task) else set()
    return names.pop() if len(names) == 1 else None


class StyleOffer(NamedTuple):
    editor: Element
    button: Element  # the style's button, or the colour picker's opener
    style: str  # "bold", ... or the colour's name
    text: str  # "" for all of it
    colour: bool = False


def _picker(el: Element) -> bool:
    words = f"{el.name} {el.attrs.get('class', '')} {el.attrs.get('title', '')}"
    return not el.swatch and not el.disabled and _PICKER.search(words) is not None


def style_offers(task: str, elements: list[Element]) -> list[StyleOffer]:
    style, colour = asked_style(task), None
    if style is not None:
        buttons = [e for e in elements if e.role == "button" and not e.disabled and style in (e.name or "").lower()]
    else:
        colour = asked_colour(task)
        buttons = [e for e in elements if _picker(e)] if colour is not None else []
    if len(buttons) != 1:
        return []
    offers = []
    for editor in (e for e in elements if is_editable(e) and (e.text or "").strip()):
        text = asked_text(task, editor.text)
        if text is not None:
            offers.append(StyleOffer(editor, buttons[0], style or colour, text, colour is not None))
    return offers


def style_candidate(offer: StyleOffer) -> Candidate:
    what = f'"{offer.text[:MAX_SHOWN]}"' if offer.text else "all the text"
    how = (f"open {label(offer.button)} and choose the swatch nearest {offer.style}" if offer.colour
           else f"press {label(offer.button)}")
    return Candidate(kind="style", element=offer.editor.ref, to=offer.button.ref, text=offer.text,
                     label=f"make {what} {offer.style} (select it in the editor, then {how})")


async def style_text(ctx: AgentContext, candidate: Candidate) -> str:
    pm = ctx.pagemem
    editor = pm.element_by_ref(candidate.element) if pm is not None and candidate.element else None
    button = pm.element_by_ref(candidate.to) if pm is not None and candidate.to else None
    if editor is None or button is None:
        raise ActionFailed("the editor or its style button is no longer on the page")
    await browser(ctx, ctx.session.select_text(editor.ref, candidate.text or None, tab=ctx.tab), "selecting the text")
    done = [say.selected_text(candidate.text or editor.text)]
    clicked, _ = await click_element(ctx, button, done=done)
    done.append(clicked)
    colour = asked_colour(ctx.task) if asked_style(ctx.task) is None else None
    if colour is not None:
        await settle(ctx)
        swatches = [e for e in ctx.pagemem.all_elements() if e.swatch] if ctx.pagemem is not None else []
        if not swatches:
            raise ActionFailed(f"{label(button)} showed no colour swatches", done=done)
        nearest = min(swatches, key=lambda e: colour_distance(e.swatch, colour))
        chosen, _ = await click_element(ctx, nearest, done=done)
        done.append(chosen)
    return "; ".join(done)
