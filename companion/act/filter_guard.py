"""The deterministic guard after candidate filtering: what the task itself names is never filtered away.

The filtering call is a small model's guess; on a page with a textbox and a Submit button it kept only the
textbox, and it dropped the <select> of a "choose from the list" task. Two rules, no LLM call, run after
the model's choice and before action selection:
  - a candidate the task names is kept: a phrase the task quotes appears in its label, or every word of
    its accessible name (or of one of its options) is a word of the task ("click Submit" keeps
    button "Submit", "Select Bob from the list" keeps the select offering "Bob");
  - the form controls of the page's single form stay together with their submit button: when any of them
    is kept, all of them are (a field is useless without the button that submits it, and the reverse).
    With several forms on a page there is no telling which one the kept control belongs with, so the rule
    stays out of it.
"""

from __future__ import annotations

import re
from typing import Callable

from companion.act.elements import is_form_field
from companion.act.models import Candidate
from companion.pagemem.model import Element
from companion.pagemem.widgets import is_submit_like
from companion.text import content_words, normalized, quoted

_NAME = re.compile(r'^[a-z]+ "([^"]*)"')
_OPTIONS = re.compile(r" options: (.*?)(?: …\(\+\d+\))?$")
MAX_NAME_WORDS = 4  # a longer name is named by the task only when quoted (its words say too little apart)


def _named_by(name: str, task_words: set[str]) -> bool:
    own = content_words(name)
    return bool(own) and len(own) <= MAX_NAME_WORDS and all(w in task_words for w in own)


def element_name(label: str) -> str:
    """The accessible name in a candidate's label (`button "Log in" ...` -> Log in; "" when it has none)."""
    name = _NAME.match(label)
    return name.group(1) if name else ""


def task_names(task: str, label: str) -> bool:
    """Does the task name this candidate (by a quoted phrase in its label, its accessible name or an option)?"""
    low = normalized(label)
    if any(q and q in low for q in quoted(task)):
        return True
    task_words = set(content_words(task))
    name = element_name(label)
    if name and _named_by(name, task_words):
        return True
    options = _OPTIONS.search(label)
    return bool(options) and any(_named_by(o, task_words) for o in options.group(1).split(" | "))


def form_controls(el: Element) -> bool:
    return is_form_field(el) or is_submit_like(el)


def guard_kept(task: str, offered: list[Candidate], kept: set[str], element_of: Callable[[Candidate], Element | None],
               form_of: Callable[[Element], object | None], page: list[Element]) -> set[str]:
    """The keys to keep: `kept` (the filtering calls' choice) plus what the two rules add back.
    element_of: the candidate's element on the page (None for navigation); form_of: the form an element
    belongs to (any hashable id), None outside every form; page: every element of the page (to count its forms)."""
    out = set(kept) | {c.key for c in offered if task_names(task, c.label)}
    forms = {form_of(e) for e in page if form_controls(e)} - {None}
    if len(forms) != 1:
        return out
    group = [c for c in offered if c.kind == "element" and c.pick is None
             and (el := element_of(c)) is not None and form_controls(el) and form_of(el) is not None]
    if any(c.key in out for c in group):
        out |= {c.key for c in group}
    return out
