"""What kind of widget an element is, written once for every layer that asks.

DividePage's form-like rule asks it of the tree's `Node` (tree.py), the routing and the workflows of the
PageMem's `Element` (model.py), ShouldSkip of an `Element` too, and the form facts of a raw `SnapshotElement`
(protocol.py). Each class states the same DOM facts (tag, attributes, ARIA role, accessible name and text),
so each predicate takes the smallest protocol it needs and all of them get one answer:
  - `Tagged` (tag, attributes): what the markup declares, readable even from a snapshot;
  - `Widget` (plus role, accessible name, text): what a person or a screen reader is shown.

Attribute values are compared lower-cased: HTML's enumerated attributes (type, contenteditable) are ASCII
case-insensitive, so `type="SUBMIT"` is a submit button and `contenteditable="FALSE"` is not editable.
"""

from __future__ import annotations

import re
from typing import Mapping, Protocol

# Input types that take no typed text: they are toggled, chosen, pressed or hidden.
NON_TEXT_INPUTS = frozenset({"checkbox", "radio", "submit", "button", "reset", "image", "hidden", "file", "range", "color"})
# The paper's submit-like keywords (IsForm: the accessible text of a button).
SUBMIT_WORDS = re.compile(
    r"\b(submit|sign ?in|log ?in|login|sign ?up|register|search|send|go|save|continue|next|apply|ok|confirm|"
    r"subscribe|post|publish|pay|place order|buy|checkout|check out|update|create|add)\b"
    # A button named "Order" alone sends the order (a menu's "Order!"); "Order by", "Order history" do not.
    r"|^\s*order(?:\s+now)?\s*!?\s*$", re.I)
TEXT_ROLES = ("textbox", "searchbox")
# Link names of a pagination bar: numbers, next/previous/more words (several languages), arrows, ellipses, with
# a trailing "page" or what the pages hold ("Older posts").
_PAGE_LINK_NAME = re.compile(
    r"^\s*[‹›«»<>]*\s*(?:page\s+)?(\d+|[‹›«»<>…]+|\.\.\.|first|last|next|prev(?:ious)?|older|newer|more|show all|"
    r"weiter|zur[üu]ck|n[äa]chste|vorherige|suivant|pr[ée]c[ée]dent|siguiente|anterior|successiv[oa]|precedente|"
    r"pr[óo]xim[oa]|volgende|vorige)(\s+(page|pages|seite|p[áa]gina|pagina|pagina's|posts|entries|results|items))?"
    r"\s*[‹›«»<>]*\s*$", re.I)
_YEAR = re.compile(r"^\s*(1[89]|2[01])\d\d\s*$")
# A slider library's handle by its class: ui-slider-handle, rc-slider-handle, MuiSlider-thumb, vue-slider-dot.
_HANDLE_CLASS = re.compile(r"(slider|range)\S*(handle|thumb|knob|dot)", re.I)


class Tagged(Protocol):
    """An element as its markup declares it."""

    @property
    def tag(self) -> str: ...

    @property
    def attrs(self) -> Mapping[str, str]: ...


class Widget(Tagged, Protocol):
    """An element as it is shown: its ARIA role (explicit or implied by the tag), accessible name and text."""

    @property
    def role(self) -> str: ...

    @property
    def name(self) -> str: ...

    @property
    def text(self) -> str: ...


def input_type(el: Tagged) -> str:
    """The declared type attribute, lower case ("" when there is none)."""
    return el.attrs.get("type", "").lower()


def is_editable(el: Tagged) -> bool:
    """contenteditable, present and not "false" (an empty value means true)."""
    return el.attrs.get("contenteditable", "false").lower() != "false"


def is_typed_control(el: Tagged) -> bool:
    """A control its markup makes typeable: a textarea, an editable region, an input of a text-like type
    (an unknown type is a text input, the browser's default)."""
    if el.tag == "textarea" or is_editable(el):
        return True
    return el.tag == "input" and input_type(el) not in NON_TEXT_INPUTS


def is_text_field(el: Widget) -> bool:
    """Something a person types into: a typed control, or a scripted textbox or searchbox (an <input> is
    judged by its type alone: a checkbox with role=textbox is still a checkbox)."""
    if is_typed_control(el):
        return True
    return el.tag != "input" and el.role in TEXT_ROLES


def is_slider(el: Widget) -> bool:
    """A range input, role=slider, or a slider library's handle (which often says nothing of its value)."""
    return (el.tag == "input" and input_type(el) == "range") or el.role == "slider" \
        or bool(_HANDLE_CLASS.search(el.attrs.get("class", "")))


def is_submit_button(el: Tagged, *, in_form: bool = True) -> bool:
    """Whether the browser submits a form when this control is activated (HTML's rule): <input type=submit
    or image>, and a <button> of any type but button or reset (a missing, empty, misspelt or unknown type is
    submit). in_form=False: the control has no form owner, so a <button> submits nothing unless it declares
    type=submit (a scripted form-like block's "previous" button is a plain button)."""
    kind = input_type(el)
    if el.tag == "input":
        return kind in ("submit", "image")
    if el.tag != "button":
        return False
    return kind not in ("button", "reset") if in_form else kind == "submit"


def is_reset_button(el: Tagged) -> bool:
    """<input type=reset> or <button type=reset>: it clears what a form holds."""
    return el.tag in ("input", "button") and input_type(el) == "reset"


def is_submit_like(el: Widget, *, in_form: bool = True) -> bool:
    """A submit button (is_submit_button), or a button whose accessible name (else its text) reads like one
    (the paper's IsForm rule: a scripted "Sign in" div submits as surely as a <button>)."""
    if is_submit_button(el, in_form=in_form):
        return True
    return el.role == "button" and bool(SUBMIT_WORDS.search(el.name or el.text))


def is_page_link_name(name: str) -> bool:
    """A pagination bar's link name ("2", "Next", "›", "Show all", "Older posts"). A year ("2024") is not one: a
    list's date bar names its years, and a pagination bar shows page 1900 or later only on a list of that many
    pages. The default model, asking for a product's price, followed the admin's date bar "2024" taken for a page
    of the list, and searched within that year."""
    return _PAGE_LINK_NAME.match(name) is not None and _YEAR.match(name) is None


# A class that says a control is the chosen one, where the page sets no aria-selected: odd/even buttons, a segmented
# choice, a scripted tab. The default model clicked "Odd" for the first number five times: nothing it could see
# changed when the page marked the button chosen by its class.
_SELECTED_CLASSES = frozenset({"selected", "is-selected", "active", "is-active", "current", "chosen"})
_CHOOSABLE_ROLES = frozenset({"button", "link", "generic", "tab", "option", "listitem", "menuitem", "radio", "cell"})


def selected_by_class(role: str, attrs: dict[str, str]) -> bool:
    return role in _CHOOSABLE_ROLES and not _SELECTED_CLASSES.isdisjoint(attrs.get("class", "").lower().split())
