"""A compound task, worked part by part: its ordered parts, each ticked done by evidence (pure functions).

"Log in to the shop admin (username: admin, password: x). What is the current stock of SKU KT-1002?": the
default model's form review left the filled log-in form, "the form does not provide any information about the
product's stock". It judged the form against the whole task, where the log-in is a precondition of the question.
Shown the task as ordered parts with the done ones ticked, the form review judges the form against the part it
serves, and the end-task check sees which parts are done.

Splitting, by rule (split_task), in this order:
  - numbered steps ("1. Open the orders 2. Count the pending ones", "1) ... 2) ..."), numbered from 1 in order;
  - else sentences: a full stop, "!" or "?" followed by a space and a capital letter or a digit, outside quotes
    and brackets, and not after an abbreviation ("e.g.", "Mr.") or a single letter;
  - then, within each, clauses that open with a sequence word: "and then", ", then", "; then", ", next",
    ", after that", ", finally", and a bare "then" or a comma before a verb of acting ('enter the name "Karrie"
    then press "Cancel"', 'Scroll to the bottom, enter the name') (the word is left out of the part, as is one
    opening a sentence: "Then stop."), outside quotes and brackets;
    a leading "First," stays.
A task with one part is not compound: nothing is shown differently for it.

Ticking, two rules; "names" is named_fields.names_action (the button's name is a run of the part's words, or the
same letters without a space: "Log in" and "login"), and the first part not done that names it is ticked:
  - TaskParts.tick: an element it names was used and the page then became another document. The element is a
    form's submit button (or the form's label) for a submission, the clicked element for a click;
  - TaskParts.tick_action: an action done on the page (no new document) names it: the element clicked, the value
    typed, the option selected, the box checked ("Click button ONE, then click button TWO": the click on ONE is
    part 1's evidence; a small model that saw no tick clicked TWO twice), and a scroll for a part that asks to
    scroll (a task says where to scroll, "to the bottom of the textarea", not an element's name). A part that names a submit-like word
    ("Log in (username: admin, ...)", "Select Iceland and click Submit") is not done by typing or choosing alone:
    only a click, Enter or a submission ticks it.
A question ("What is ...?") names no element it is done by, so no rule ticks it: that is the end-task check's to judge.

first_pending: the order itself. An element the task names in a later part, chosen while an earlier part that names
another element of the page is not done, is refused once (act/premature.py check_part_order), with the part that
comes first.
"""

from __future__ import annotations

import re

from pydantic import BaseModel, Field

from companion.act.named_fields import names_action
from companion.pagemem.widgets import SUBMIT_WORDS
from companion.text import quoted_spans

_OPEN_BRACKETS, _CLOSE_BRACKETS = "([{", ")]}"
_ABBREVIATIONS = frozenset("e.g i.e etc mr mrs ms dr st vs no approx".split())
_STEP = re.compile(r"(?:^|(?<=\s))(\d{1,2})[.)]\s+")
# A bare "then" cuts too when a verb of acting follows it ('enter the name "Karrie" then press "Cancel"').
_ACTING = (r"(?:press|click|hit|tap|submit|select|choose|type|enter|check|tick|open|expand|drag|scroll|search)\b")
# A comma before a verb of acting cuts as well ('Scroll to the bottom of the textarea, enter the name "Rex" then
# press "Agree"': the default model, shown "1. Scroll ..., enter the name" as one part, scrolled again and again).
_THEN = re.compile(r"\s*(?:\band then\b|[,;]\s*(?:then|next|after that|afterwards|finally)\b|(?<=\S)\s+then(?=\s+"
                   + _ACTING + r")|,(?=\s+" + _ACTING + r")),?\s*", re.I)
_ACTION_NAMES = re.compile(r'"([^"]+)"')  # action_strings.py quotes what it names: 'Typed "Bob" into textbox "Name"'
_SETS = ("Typed ", "Selected ", "Checked ", "Unchecked ", "Uploaded ")  # an action that only sets a field
_OPENING = re.compile(r"^(?:and\s+)?(?:then|next|after that|afterwards|finally)\b,?\s*", re.I)  # "Then stop."


def _numbered(task: str) -> list[str] | None:
    """The steps of a task numbered 1, 2, ... in order (at least two), else None."""
    marks = [m for m in _STEP.finditer(task)]
    steps: list[re.Match[str]] = []
    for m in marks:
        if int(m.group(1)) == len(steps) + 1:
            steps.append(m)
    if len(steps) < 2:
        return None
    ends = [m.start() for m in steps[1:]] + [len(task)]
    head = task[:steps[0].start()].strip()
    return ([head] if head else []) + [task[m.end():end].strip() for m, end in zip(steps, ends)]


def _ends_sentence(text: str, i: int) -> bool:
    """The mark at text[i] ends a sentence: the next one starts with a capital or a digit, after a space."""
    after = text[i + 1:i + 3]
    if len(after) < 2 or not after[0].isspace() or not (after[1].isupper() or after[1].isdigit()):
        return False
    if text[i] != ".":
        return True
    word = re.search(r"([\w.]+)$", text[:i])
    last = word.group(1).lower() if word else ""
    return not ((len(last) == 1 and last.isalpha()) or last in _ABBREVIATIONS)


def _quoted(text: str) -> list[tuple[int, int]]:
    """Where the text's quoted values stand: a value may hold a full stop or "then" that cuts nothing."""
    return [(start, end) for _, start, end in quoted_spans(text)]


def _bracketed(text: str) -> list[tuple[int, int]]:
    """Where bracketed asides stand ("(username: admin, enter it once)"): a comma there cuts nothing."""
    spans, opened = [], []
    for i, ch in enumerate(text):
        if ch in _OPEN_BRACKETS:
            opened.append(i)
        elif ch in _CLOSE_BRACKETS and opened:
            spans.append((opened.pop(), i))
    return spans


def _sentences(task: str) -> list[str]:
    out, start, depth = [], 0, 0
    quotes = _quoted(task)
    for i, ch in enumerate(task):
        if any(a <= i < b for a, b in quotes):
            continue
        if ch in _OPEN_BRACKETS:
            depth += 1
        elif ch in _CLOSE_BRACKETS:
            depth = max(0, depth - 1)
        elif ch in ".!?" and depth == 0 and _ends_sentence(task, i):
            out.append(task[start:i + 1])
            start = i + 1
    return out + [task[start:]]


def _clauses(sentence: str) -> list[str]:
    """A sentence cut at its sequence words (outside quotes, where a value may say "then")."""
    quotes = _quoted(sentence) + _bracketed(sentence)
    cuts = [m for m in _THEN.finditer(sentence) if not any(a < m.start() < b for a, b in quotes)]
    bounds = [0] + [x for m in cuts for x in (m.start(), m.end())] + [len(sentence)]
    return [sentence[bounds[i]:bounds[i + 1]] for i in range(0, len(bounds), 2)]


# Verbs of a request made of a page: a clause opening with one, before the clause that clicks a button, asks for
# something to be done first ("Expand the section below and click submit").
_REQUEST_VERBS = frozenset("expand open select choose pick check tick uncheck mark enter type fill write set drag "
                           "move search highlight copy paste scroll switch toggle add remove delete rate sort".split())
_CLAUSE_BREAK = re.compile(r"\s*(?:[,;]|\.\s|\b(?:and|then)\b)\s*", re.I)
_WORD = re.compile(r"[\w'-]+")
# What the task asks before the named element is only the way to find it: "Switch between the tabs to find and
# click on the link", "Expand the sections below, to find and click on the link". The default model, the link in
# sight on the open tab, was refused it for "Switch between the tabs" and then lost it behind another tab.
_MEANS = re.compile(r"\b(?:to|until you|till you|and) (?:find|locate|look for|see|reach)\b(?:\s+and\b)?", re.I)
_NOTHING = frozenset({"nothing", "none", "no", "not", "don't", "never"})  # "Select nothing and click Submit" asks nothing


def request_before(task: str, name: str) -> str | None:
    """The clause of the task, before the words that name `name`, that asks for something else to be done first:
    "Expand the section below" in "Expand the section below and click submit", "Mark the numbers below as odd or
    even" in "... and press submit when done". None when the task does not name it, or asks nothing before it.
    The clause just before the name is the one that governs it ("click", "press the"): it does not count."""
    want = [w.lower() for w in _WORD.findall(name)]
    if not want:
        return None
    found = list(_WORD.finditer(task))
    words = [m.group(0).lower() for m in found]
    start = next((found[i].start() for i in range(len(words) - len(want) + 1) if words[i:i + len(want)] == want), None)
    if start is None:
        return None
    if _MEANS.search(task[:start]):
        return None  # "Switch between the tabs to find and click on the link": once it is in sight, it was found
    clauses = [c.strip() for c in _CLAUSE_BREAK.split(task[:start]) if c.strip()]
    for clause in clauses[:-1]:
        words = [w.lower() for w in _WORD.findall(clause)]
        if words and words[0] in _REQUEST_VERBS and not _NOTHING & set(words):
            return clause
    return None


def split_task(task: str) -> list[str]:
    """The task's ordered parts (one part: the task as it is)."""
    text = " ".join(task.split())
    pieces = _numbered(text) or _sentences(text)
    parts = [_OPENING.sub("", p.strip()) for piece in pieces for p in _clauses(piece)]
    return [p for p in parts if re.search(r"\w", p)] or [text]


def _asks_to_scroll(part: str) -> bool:
    """A part that asks to scroll: a task names where to scroll ("to the bottom of the textarea"), not an element's
    name, and a scroll is its evidence (TaskParts.tick_action), so it can come first like a part naming an element."""
    return re.match(r"\s*scroll\b", part, re.I) is not None


def _scrolls(part: str, action: str) -> bool:
    return action.startswith("Scrolled ") and _asks_to_scroll(part)


class TaskPart(BaseModel):
    text: str
    done: bool = False


class TaskParts(BaseModel):
    parts: list[TaskPart] = Field(default_factory=list)

    @classmethod
    def of(cls, task: str) -> "TaskParts":
        return cls(parts=[TaskPart(text=p) for p in split_task(task)])

    @property
    def compound(self) -> bool:
        return len(self.parts) > 1

    def listed(self) -> list[str]:
        """The parts for a prompt, in order, the done ones ticked: '[x] 1. Log in ...', '[ ] 2. What is ...?'.
        Empty for a task of one part (its prompts show the task alone)."""
        if not self.compound:
            return []
        return [f"[{'x' if p.done else ' '}] {i}. {p.text}" for i, p in enumerate(self.parts, 1)]

    def serving(self, names: list[str]) -> int | None:
        """The index of the first part not done that names one of `names` (a button's name, a form's label)."""
        return next((i for i, p in enumerate(self.parts)
                     if not p.done and any(n and names_action(p.text, n) for n in names)), None)

    def tick(self, names: list[str]) -> int | None:
        """An element named `names` was used and the page became another document: the part it serves is done.
        Returns that part's index (None: no part names it)."""
        i = self.serving(names)
        if i is not None:
            self.parts[i].done = True
        return i

    def tick_action(self, action: str) -> int | None:
        """An action string of an in-page action (action_strings.py): the first part not done that names what it
        names (element, value, option) is done; a part naming a submit-like word only by a click, Enter or a
        submission. Returns that part's index (None: no part names it)."""
        names = _ACTION_NAMES.findall(action)
        sets_only = action.startswith(_SETS)
        i = next((i for i, p in enumerate(self.parts) if not p.done
                  and not (sets_only and SUBMIT_WORDS.search(p.text))
                  and (any(names_action(p.text, n) for n in names) or _scrolls(p.text, action))), None)
        if i is not None:
            self.parts[i].done = True
        return i

    def first_pending(self, name: str, present: list[str]) -> int | None:
        """The index of a part not done, before the one the element `name` serves, that names one of the page's
        other elements (`present`, their names) or asks to scroll: that part comes first. None: the order allows it."""
        served = self.serving([name])
        if served is None:
            return None
        return next((j for j in range(served) if not self.parts[j].done
                     and (any(n != name and names_action(self.parts[j].text, n) for n in present)
                          or _asks_to_scroll(self.parts[j].text))), None)
