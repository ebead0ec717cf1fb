"""Numbers as the checkable part of what a model writes about a page.

Small models invent values: asked for the Blue kettle's price on a page that only links to the price list,
a 1.5B model answered "$15". Names are too fuzzy to check by rule; numbers (prices, counts, dates) are not:
a number the model states must occur in the text it was shown, or be computed from numbers that do
(a total, a count, a difference: derived.py), the computation kept so the history can show it. No LLM call.
"""

from __future__ import annotations

import re
from functools import cached_property

from pydantic import BaseModel, Field

from companion.observe.derived import NUMBER, Derivation, Group, derive, groups_of, named_lines, quantities

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
    """Each sentence of `text` with the check of its numbers."""
    reference = page_content(reference)
    evidence = _Evidence(reference, _ELEMENT_REFERENCE.sub(" ", text), context, groups)
    out = []
    for sentence in _SENTENCE_END.split(text.strip()):
        if not sentence:
            continue
        check = NumberCheck()
        claimed = _ELEMENT_REFERENCE.sub(" ", sentence)  # checked without element numbers, kept with them
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


def grounded_sentences(text: str, reference: str, context: str = "", groups: list[Group] | None = None) -> Grounded:
    """`text` without the sentences stating a number `reference` neither holds nor supports by a computation."""
    kept, dropped, derived = [], [], []
    for sentence, check in _check(text, reference, context, groups):
        if check.unseen:
            dropped.append(sentence)
        else:
            kept.append(sentence)
            derived += check.derived
    return Grounded(kept=" ".join(kept), dropped=dropped, derived=derived)


def without_unsupported_sentences(text: str, reference: str, context: str = "") -> tuple[str, list[str]]:
    """(`text` without the sentences stating a number `reference` does not hold or support, those sentences)."""
    g = grounded_sentences(text, reference, context)
    return g.kept, g.dropped
