"""Fields the task names that are not set yet, checked before a submit-like click (pure functions).

"Select Iceland from the list and click Submit" and "Select ky7, F01Kwi and click Submit": a small model often
clicks Submit first, or after one of three boxes, and a scripted page scores the form as it is then. The
paper's SubmitForm fills the chosen fields before it submits; a submit button outside any form is a plain
click, so this is the same precondition for it: a checkbox or radio whose label the task names, unchecked, or
a native select with an option the task names while another is selected, is the task's, unfinished. The
click is refused once per (button, unfinished fields), with what is left to set, so the model sets them or,
choosing the button again, submits anyway (the task may name a label for another reason).

Only labels and option texts of at least two characters that the task contains as whole words count; text
fields are left out (what to type is free text, and an already-filled field is the NoOp rules' business).
"""

from __future__ import annotations

import re

from companion.act.elements import is_checkable, is_native_select, label
from companion.pagemem.model import Element

_WORD = re.compile(r"[\w'-]+", re.UNICODE)


def _words(text: str) -> list[str]:
    return [w.lower() for w in _WORD.findall(text or "")]


def names_in(task: str, phrase: str) -> bool:
    """The task contains `phrase` as a run of whole words (case-insensitive)."""
    want = _words(phrase)
    if not want or len(" ".join(want)) < 2:
        return False
    have = _words(task)
    n = len(want)
    return any(have[i:i + n] == want for i in range(len(have) - n + 1))


def unset_named(task: str, fields: list[Element]) -> list[str]:
    """What the task names among `fields` that is not in the state it names, as short phrases for the model."""
    left: list[str] = []
    for el in fields:
        if el.disabled:
            continue
        if is_checkable(el) and not el.checked and names_in(task, el.name):
            left.append(f'{label(el)} is not checked')
        elif is_native_select(el) and el.options and not names_in(task, el.selected_option or ""):
            named = [o for o in el.options if o != el.selected_option and names_in(task, o)]
            if len(named) == 1:  # several named options: which one is meant is the model's call
                left.append(f'"{named[0]}" of {label(el)} is not selected')
    return left
