"""Numbers as the checkable part of what a model writes about a page.

Small models invent values: asked for the Blue kettle's price on a page that only links to the price list,
a 1.5B model answered "$15". Names are too fuzzy to check by rule; numbers (prices, counts, dates) are not:
a number the model states must occur in the text it was shown. No LLM call.
"""

from __future__ import annotations

import re

NUMBER = re.compile(r"\d+(?:[.,]\d+)*")
# A sentence ends at . ! ? followed by a space (so "$24.50" and "v1.2" stay whole).
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")
# The "[3]" before an element in a details string is our numbering, not page content: a model that writes
# "the price is [3] dollars" must not find its number there. In a claim, "[3]" followed by a role and a
# quoted name ('[4] link "Browse all kettles"') copies an element line and states no number.
_ELEMENT_INDEX = re.compile(r"\[\d+\]")
_ELEMENT_REFERENCE = re.compile(r"\[\d+\](?=\s+[a-z]+\s+[\"'“])")


def page_content(details: str) -> str:
    """A details string without the element numbering, as evidence of what the page says."""
    return _ELEMENT_INDEX.sub(" ", details)


def holds(text: str, number: str) -> bool:
    """`number` occurs in `text` as a whole number; "$31" may shorten "$31.00", so a decimal part after it counts."""
    return re.search(rf"(?<![\d.,]){re.escape(number)}(?!\d)", text) is not None


def numbers_not_in(claim: str, reference: str) -> list[str]:
    """The numbers of `claim` (each once, in order) that `reference` does not hold."""
    reference = page_content(reference)
    claim = _ELEMENT_REFERENCE.sub(" ", claim)
    return [n for n in dict.fromkeys(NUMBER.findall(claim)) if not holds(reference, n)]


def without_unsupported_sentences(text: str, reference: str) -> tuple[str, list[str]]:
    """(`text` without the sentences stating a number `reference` does not hold, those sentences)."""
    kept, dropped = [], []
    for sentence in _SENTENCE_END.split(text.strip()):
        if sentence:
            (dropped if numbers_not_in(sentence, reference) else kept).append(sentence)
    return " ".join(kept), dropped
