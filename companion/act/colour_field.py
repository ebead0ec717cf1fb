"""A colour field's value by rule: a task that names one colour ("Select red with the color picker", "make the
background dark orange") and a field that takes a colour get the colour's hex code, written as the field writes its
own value (with "#" or without). A field takes a colour when it is a text field the page names for a colour (its
label, id, name or class: a colour picker's text field, as jscolor and its like keep it) holding a hex code. A native
<input type=color> is no text field: the extension does not type into it, and it is left to the model. The default model cannot turn a colour's name into its code; the names are CSS's, through
webcolors, also written as two words ("light blue", "dark orange").
"""

from __future__ import annotations

import re

import webcolors

from companion.pagemem.model import Element

_HEX = re.compile(r"^#?(?:[0-9a-f]{3}|[0-9a-f]{6})$", re.I)
_COLOUR_WORD = re.compile(r"colou?r", re.I)
_WORD = re.compile(r"[a-z]+", re.I)
_NAMES = frozenset(webcolors.names(webcolors.CSS3))
_OWN_WORDS = ("id", "name", "class", "placeholder", "aria-label", "title")


def is_colour_field(el: Element) -> bool:
    if el.tag != "input" or el.disabled:
        return False
    if (el.attrs.get("type") or "text").lower() != "text" or not _HEX.match((el.value or "").strip()):
        return False
    return any(_COLOUR_WORD.search(words) for words in [el.name, *(el.attrs.get(a, "") for a in _OWN_WORDS)] if words)


def named_colours(task: str) -> list[str]:
    """The CSS colour names in the task, in order, a two-word name ("light blue") as one."""
    words = [w.lower() for w in _WORD.findall(task)]
    found, i = [], 0
    while i < len(words):
        pair = words[i] + words[i + 1] if i + 1 < len(words) else ""
        if pair in _NAMES:
            found.append(pair)
            i += 2
        elif words[i] in _NAMES:
            found.append(words[i])
            i += 1
        else:
            i += 1
    return found


def colour_value(task: str, el: Element) -> str | None:
    """The hex code of the one colour the task names, as the field writes it; None for another field, or a task
    naming no colour or several different ones."""
    if not is_colour_field(el):
        return None
    names = set(named_colours(task))
    if len(names) != 1:
        return None
    code = webcolors.name_to_hex(names.pop())  # "#rrggbb", lower case
    own = (el.value or "").strip()
    if own.startswith("#"):
        return code
    return code[1:].upper() if own.isupper() else code[1:]
