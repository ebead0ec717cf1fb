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

from companion.act.elements import is_form_field, is_submit_like
from companion.act.models import Candidate
from companion.pagemem.model import Element

_WORD = re.compile(r"[a-z0-9]+")
_QUOTED = re.compile(r"\"([^\"]+)\"|“([^”]+)”|(?<!\w)'([^']{2,})'(?!\w)")
_NAME = re.compile(r'^[a-z]+ "([^"]*)"')
_OPTIONS = re.compile(r" options: (.*?)(?: …\(\+\d+\))?$")
# Words that name nothing on their own: an element whose name is only these is not "named" by a task.
STOPWORDS = frozenset(
    "a an the and or of to in on at by for with from into onto as is are be it its this that these those then so "
    "do you your me my i we our all any each some please here there what which who when where how".split())
MAX_NAME_WORDS = 4  # a longer name is named by the task only when quoted (its words say too little apart)


def stem(word: str) -> str:
    """A plural and its singular alike ("kettles" ~ "kettle", "boxes" ~ "box", "entries" ~ "entry")."""
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 3 and word.endswith("es") and word[:-2].endswith(("s", "x", "z", "ch", "sh")):
        return word[:-2]
    if len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
        return word[:-1]
    return word


def words(text: str) -> list[str]:
    return [stem(w) for w in _WORD.findall(text.lower()) if w not in STOPWORDS]


def normalized(text: str) -> str:
    """Lower-cased, whitespace collapsed: how phrases of the task and the page are compared."""
    return " ".join(text.lower().split())


def quoted_spans(text: str) -> list[tuple[str, int, int]]:
    """The task's quoted phrases ("...", “...”, '...'), as written (whitespace collapsed), with where each quote
    starts and ends in the text."""
    return [(" ".join(next(g for g in m.groups() if g).split()), m.start(), m.end()) for m in _QUOTED.finditer(text)]


def quoted_as_written(text: str) -> list[str]:
    """The task's quoted phrases ("...", “...”, '...'), as written."""
    return [phrase for phrase, _, _ in quoted_spans(text)]


def quoted(text: str) -> list[str]:
    return [normalized(q) for q in quoted_as_written(text)]


def _named_by(name: str, task_words: set[str]) -> bool:
    own = words(name)
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
    task_words = set(words(task))
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
