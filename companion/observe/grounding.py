"""Numbers as the checkable part of what a model writes about a page.

Small models invent values: asked for the Blue kettle's price on a page that only links to the price list,
a 1.5B model answered "$15". A number the model states must occur in the text it was shown, or be computed from
numbers that do (a total, a count, a difference: derived.py), the computation kept so the history can show it.
The other values (emails, dates, names) and where each sits are values.py's, passed in as `values`; a sentence
either rule refuses is dropped, and each value it stated is noted as not found. No LLM call.
"""

from __future__ import annotations

import re
from functools import cached_property
from typing import Callable

from pydantic import BaseModel, Field

from companion.observe.derived import NUMBER, Derivation, Group, derive, groups_of, named_lines, quantities
from companion.observe.values import Problem

# A sentence ends at . ! ? followed by a space (so "$24.50" and "v1.2" stay whole).
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")
# The "[3]" before an element in a details string is our numbering, not page content: a model that writes
# "the price is [3] dollars" must not find its number there. In a claim, "[3]" followed by a role and a
# quoted name ('[4] link "Browse all kettles"'), or by a role word ('[1] combobox value="Norway"', as a page
# shown whole lists its elements), copies an element line and states no number.
_ELEMENT_INDEX = re.compile(r"\[\d+\]")
_ROLES = ("textbox|searchbox|combobox|listbox|checkbox|radio|button|link|option|menuitem|menu|tab|switch|slider|"
          "spinbutton|img|image|heading|row|cell|treeitem|gridcell|columnheader")
_ELEMENT_REFERENCE = re.compile(r"\[\d+\](?=\s+(?:[a-z]+\s+[\"'“]|(?:" + _ROLES + r")\b))")
# The tallies our own renderings write of what they left out (observe/structure.py "Name, Price and 6 more",
# rows.py "(15 rows shown" and "… and 3 more rows", abstraction.py "… and 2 more sections") state nothing about the
# page: checked as claims, "and 6 more" (a table's other columns) came out as "Computed: 6 = 1 + 2 + 3" beside the
# answer, 3, of a count question.
_OWN_TALLY = re.compile(r"\band \d+ more\b|\(\d+ rows shown\b")


def as_claimed(sentence: str) -> str:
    """What a sentence claims about the page: without our element numbers and our own tallies."""
    return _OWN_TALLY.sub(" ", _ELEMENT_REFERENCE.sub(" ", sentence))


def sentences(text: str) -> list[str]:
    """The sentences of `text`, in order."""
    return [s for s in _SENTENCE_END.split(text.strip()) if s]


def page_content(details: str) -> str:
    """A details string without the element numbering, as evidence of what the page says."""
    return _ELEMENT_INDEX.sub(" ", details)


def holds(text: str, number: str) -> bool:
    """`number` occurs in `text` as a whole number; "$31" may shorten "$31.00", so a decimal part after it counts."""
    return re.search(rf"(?<![\d.,]){re.escape(number)}(?!\d)", text) is not None


class NumberCheck(BaseModel):
    unseen: list[str] = Field(default_factory=list, description="numbers neither held nor derivable, in order")
    derived: list[Derivation] = Field(default_factory=list, description="numbers computed from held ones")


class Grounded(BaseModel):
    kept: str
    dropped: list[str] = Field(default_factory=list)
    notes: list[str] = Field(default_factory=list, description="per value left out: '<value> was not found on this page'")
    derived: list[Derivation] = Field(default_factory=list, description="how each kept derived number was computed")


class _Evidence:
    """What a derivation may use, worked out only when a number is not held (most claims hold every number)."""

    def __init__(self, reference: str, text: str, context: str, groups: list[Group] | None):
        self.reference, self.text, self.context, self._groups = reference, text, context, groups

    def held(self, text: str):
        return [q for q in quantities(text) if holds(self.reference, q.text)]

    @cached_property
    def lines(self) -> list[str]:  # the seen text's lines and listed items (a table row is one item)
        return [*self.reference.splitlines(), *(m for g in self.groups for m in g.members)]

    def named(self, sentence: str):
        """The seen numbers of the lines and listed items that name what `sentence` names (derived.named_lines)."""
        return self.held("\n".join(named_lines(self.lines, sentence)))

    @cached_property
    def pool(self):  # the claim's own seen numbers, then the task-relevant ones around it
        return self.held(self.text) + self.held(page_content(self.context))

    @cached_property
    def seen(self):
        return quantities(self.reference)

    @cached_property
    def groups(self):
        return self._groups if self._groups is not None else groups_of(self.reference)


def _check(text: str, reference: str, context: str, groups: list[Group] | None) -> list[tuple[str, NumberCheck]]:
    """Each sentence of `text` (its not-found notes aside) with the check of its numbers."""
    text = without_notes(text)
    reference = page_content(reference)
    evidence = _Evidence(reference, as_claimed(text), context, groups)
    out = []
    for sentence in sentences(text):
        check = NumberCheck()
        claimed = as_claimed(sentence)  # checked without element numbers and tallies, kept with them
        unseen = [n for n in dict.fromkeys(NUMBER.findall(claimed)) if not holds(reference, n)]
        if unseen:
            stated = quantities(claimed)
            own = [q for q in stated if holds(reference, q.text)]
            for number in unseen:
                claim = next((q for q in stated if q.text == number), None)
                found = claim and derive(claim, own, evidence.pool + evidence.named(claimed),
                                         evidence.seen, evidence.groups)
                if found is None:
                    check.unseen.append(number)
                else:
                    check.derived.append(found)
        out.append((sentence, check))
    return out


def check_numbers(claim: str, reference: str, context: str = "", groups: list[Group] | None = None) -> NumberCheck:
    """The numbers of `claim` that `reference` does not hold: computed from held ones (derived), or not (unseen).
    context: task-relevant text whose held numbers may be operands besides the claim's own (derived.py)."""
    total = NumberCheck()
    for _, check in _check(claim, reference, context, groups):
        total.unseen += [n for n in check.unseen if n not in total.unseen]
        total.derived += [d for d in check.derived if d.number not in {x.number for x in total.derived}]
    total.derived = [d for d in total.derived if d.number not in total.unseen]
    return total


def numbers_not_in(claim: str, reference: str, context: str = "") -> list[str]:
    """The numbers of `claim` (each once, in order) that `reference` does not hold and that are not computed
    from numbers it holds."""
    return check_numbers(claim, reference, context).unseen


# The note a dropped sentence leaves for the actor; read back, it is our own text, not a claim to check.
_NOTE = re.compile(r"\((?:[^()]| \([^()]*\))*? was not found(?: with [^()]*?)? on this page\.\)")


def not_found_note(problems: list[str]) -> str:
    """'(bob@shop.test was not found with 110 on this page.)': what a dropped sentence leaves in its place."""
    return "(" + "; ".join(problems) + ".)" if problems else ""


def without_notes(text: str) -> str:
    """`text` without the not-found notes grounding wrote into it (they name the values they left out)."""
    return _NOTE.sub(" ", text)


# "The user has already entered 'Dannie' into the textbox and pressed 'Search'": a sentence saying the user (the agent)
# did something. On a task's first page nothing was done, and the default model wrote such sentences there three
# times in one run, then ended or pressed Submit on the strength of them. "has to", "has not" claim nothing; a page's
# own state ("the order has been shipped") has another subject.
_PROGRESS = re.compile(r"\b(?:the user|you|we)\s+(?:has|have)\s+(?:already\s+)?(?:successfully\s+)?(\w+)", re.I)
# What a person does in a browser. Reading words ("has found the contact", "has located") claim nothing done: a
# sentence saying where the task's value is was cut with them, and the actor lost the address it was to click.
_DONE_WORDS = frozenset("""clicked pressed typed entered selected chosen checked ticked unchecked submitted sent replied
    forwarded marked filled completed done set saved deleted dragged moved opened closed logged searched navigated
    expanded collapsed highlighted scrolled shared liked starred purchased bought booked added removed changed updated
    edited created copied pasted answered signed ordered placed paid posted uploaded played retweeted followed rated
    sorted filtered dismissed cancelled canceled accepted agreed confirmed inputted""".split())


# "The task is already completed with the numbers marked as 'Even'": said of a page where nothing was done, and the
# actor, told so, clicked Submit after one mark. The task being done is never something a page shows.
_TASK_DONE = re.compile(r"\b(?:the|this|your)\s+task\s+(?:is|has been|was|appears to be|seems(?: to be)?)\s+"
                        r"(?:already\s+)?(?:been\s+)?(?:successfully\s+)?(?:completed?|done|finished|accomplished)\b", re.I)


def claims_progress(sentence: str) -> bool:
    """The sentence says the user already did something in the browser ("has selected", "have chosen"), or that
    the task is done."""
    return any(w.lower() in _DONE_WORDS for w in _PROGRESS.findall(sentence)) or _TASK_DONE.search(sentence) is not None


def without_progress_claims(text: str) -> tuple[str, list[str]]:
    """`text` without the sentences that claim something was done (claims_progress), and those sentences: for a
    task in which nothing was done yet."""
    parts = sentences(text)
    dropped = [s for s in parts if claims_progress(s)]
    return " ".join(s for s in parts if not claims_progress(s)), dropped


ValueProblems = Callable[[str], list[Problem]]  # a sentence -> what it states that the pages do not (values.py)


def grounded_sentences(text: str, reference: str, context: str = "", groups: list[Group] | None = None,
                       values: ValueProblems | None = None) -> Grounded:
    """`text` without the sentences stating a number `reference` neither holds nor supports by a computation,
    or (`values`) another value the pages do not support; each left-out value noted."""
    kept, dropped, derived, notes = [], [], [], []
    for sentence, check in _check(text, reference, context, groups):
        problems = values(as_claimed(sentence)) if values else []
        problems = [str(p) for p in [*map(Problem, check.unseen), *problems]]
        if problems:
            dropped.append(sentence)
            notes += [p for p in problems if p not in notes]
        else:
            kept.append(sentence)
            derived += check.derived
    return Grounded(kept=" ".join(kept), dropped=dropped, derived=derived, notes=notes)
