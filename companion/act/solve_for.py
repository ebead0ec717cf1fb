"""The value of an unknown a page asks for, by rule: a field labelled "x =" (or a task saying "solve for x") beside
an equation the page shows with one unknown and one operation ("x - 7 = 60", "12 + x = 40", "3 × x = 27"). The
default model answered 31 for "2 - x = 33" and then typed the equation itself. An equation it cannot read (two
unknowns, brackets, powers) is left to the model.
"""

from __future__ import annotations

import re

from companion.pagemem.model import Element, PageSection
from companion.observe.outline import all_nodes, parse_outline
from companion.pagemem.widgets import is_text_field

_LABELLED = re.compile(r"^\s*([a-zA-Z])\s*[=:]\s*$")
_SOLVE_FOR = re.compile(r"\bsolve\s+for\s+([a-zA-Z])\b", re.I)
_NUM = r"(-?\d+(?:\.\d+)?)"
_OPS = {"+": "+", "-": "-", "−": "-", "*": "*", "×": "*", "·": "*", "/": "/", "÷": "/"}


def solved_value(task: str, el: Element, sections: list[PageSection]) -> str | None:
    """The unknown's value for the field, whole when it is whole; None when the field asks for no unknown, or the
    page shows no one equation in it that this reads."""
    if not is_text_field(el):
        return None
    m = _LABELLED.match(el.name or "") or _SOLVE_FOR.search(task)
    if m is None:
        return None
    unknown = m.group(1)
    texts = [n.text for sec in sections for n in all_nodes(parse_outline(sec.details)) if n.text]
    found = {v for t in texts if (v := _solve(t, unknown)) is not None}
    return found.pop() if len(found) == 1 else None


def _solve(text: str, x: str) -> str | None:
    ops = "".join(re.escape(o) for o in _OPS if o.lower() != x.lower())
    v = re.escape(x)
    unknown_first = re.search(rf"(?<![\w.]){v}\s*([{ops}])\s*{_NUM}\s*=\s*{_NUM}(?![\w.])", text)
    unknown_second = re.search(rf"(?<![\w.]){_NUM}\s*([{ops}])\s*{v}\s*=\s*{_NUM}(?![\w.])", text)
    if (unknown_first is None) == (unknown_second is None):
        return None
    try:
        if unknown_first is not None:
            op, a, c = _OPS[unknown_first.group(1)], float(unknown_first.group(2)), float(unknown_first.group(3))
            value = {"+": c - a, "-": c + a, "*": c / a, "/": c * a}[op]
        else:
            a, op, c = float(unknown_second.group(1)), _OPS[unknown_second.group(2)], float(unknown_second.group(3))
            value = {"+": c - a, "-": a - c, "*": c / a, "/": a / c}[op]
    except ZeroDivisionError:
        return None
    return str(int(value)) if value == int(value) else f"{value:g}"
