"""Fields the task names that are not set yet, checked before a submit-like click (pure functions).

"Select Iceland from the list and click Submit" and "Select ky7, F01Kwi and click Submit": a small model often
clicks Submit first, or after one of three boxes, and a scripted page scores the form as it is then. The
paper's SubmitForm fills the chosen fields before it submits; a submit button outside any form is a plain
click, so this is the same precondition for it: a checkbox or radio whose label the task names, unchecked, or
a native select with an option the task names while another is selected, is the task's, unfinished. The
click is refused once per (button, unfinished fields) in a task, with what is left to set; the button is offered
again after the next action, so the model sets them or, choosing it again, submits anyway (the task may name a
label for another reason).

Only labels and option texts of at least two characters that the task contains as whole words count. For text
fields, a value the task quotes ('Enter "Kasie" into the text field') that no field holds while a text field
is still empty is unset too; a quoted phrase that names an element of the page ('the "Submit" button') is a
reference, not a value. A secret field's value is never read: filled or empty is all that is known of it.
"""

from __future__ import annotations

import re

from companion.act.elements import is_checkable, is_empty, is_native_select, is_text_field, label
from companion.act.filter_guard import normalized, quoted_as_written
from companion.pagemem.model import Element

_WORD = re.compile(r"[\w'-]+", re.UNICODE)


def _words(text: str) -> list[str]:
    return [w.lower() for w in _WORD.findall(text or "")]


def names_in(task: str, phrase: str, *, begun: bool = False) -> bool:
    """The task contains `phrase` as a run of whole words (case-insensitive); with `begun`, the phrase's last word
    may be only begun in the task's ("Lis" in "Lisbon, Portugal": what was typed into an autocomplete field)."""
    want = _words(phrase)
    if not want or len(" ".join(want)) < 2:
        return False
    have = _words(task)
    n = len(want)

    def at(i: int) -> bool:
        last = have[i + n - 1]
        return have[i:i + n - 1] == want[:-1] and (last.startswith(want[-1]) if begun else last == want[-1])
    return any(at(i) for i in range(len(have) - n + 1))


def untyped_values(task: str, fields: list[Element], typed_secrets: frozenset[tuple[int, int]] | set[tuple[int, int]] = frozenset()) -> list[str]:
    """Values the task quotes that no text field of `fields` holds, while one of them is still empty."""
    texts = [e for e in fields if is_text_field(e) and not e.disabled]
    if not any(is_empty(e, typed_secrets) for e in texts):
        return []
    held = {normalized(e.value or "") for e in texts if not e.is_password}
    names = {normalized(n) for e in fields for n in (e.name, e.text) if n}
    return [q for q in dict.fromkeys(quoted_as_written(task)) if normalized(q) not in held | names]


def unset_named(task: str, fields: list[Element], typed_secrets: frozenset[tuple[int, int]] | set[tuple[int, int]] = frozenset()) -> list[str]:
    """What the task names among `fields` that is not in the state it names, as short phrases for the model."""
    left: list[str] = [f'"{v}" is not typed into a field yet' for v in untyped_values(task, fields, typed_secrets)]
    return left + [what for el in fields if (what := unset_choice(task, el))]


def unset_choice(task: str, el: Element) -> str | None:
    """A box the task names, unchecked, or a native select with one other option the task names: what is left
    to set on it, else None."""
    if el.disabled:
        return None
    if is_checkable(el) and not el.checked and names_in(task, el.name):
        return f'{label(el)} is not checked'
    if is_native_select(el) and el.options and not names_in(task, el.selected_option or ""):
        named = [o for o in el.options if o != el.selected_option and names_in(task, o)]
        if len(named) == 1:  # several named options: which one is meant is the model's call
            return f'"{named[0]}" of {label(el)} is not selected'
    return None
