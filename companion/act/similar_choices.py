"""Boxes chosen by meaning: "Select words similar to keep, serene, funny, initiate and click Submit". A box named by
one of the words is its own; every other word gets the box nearest it in meaning, one small question each
(prompt `similar_option`) among the boxes no other word took. Asked for all four at once, the default model ticked
"keep" alone and submitted; one word at a time is a question its size answers.

Called when a box is ticked in such a task (act/routing.py ticks the rest with it), so the boxes are ticked in one
action and the Submit that follows finds them set.
"""

from __future__ import annotations

import re

from companion import llm
from companion.act.basic import CHOICE_TOKENS
from companion.act.context import AgentContext
from companion.act.elements import is_checkable
from companion.llm.fit import declare_choice
from companion.pagemem.model import Element

declare_choice("similar_option", CHOICE_TOKENS)

# "similar to X, Y and Z", "synonyms of X, Y", "words like X, Y", "that mean X or Y": the list ends at the sentence's
# end or at what the task asks next ("and click Submit", "then press ...").
_ASK = re.compile(r"\b(?:similar(?: in meaning)? to|synonyms? (?:of|for)|words? like|that means?|meaning)\s+"
                  r"(.+?)(?=\s*(?:,?\s*(?:and|then)\s+(?:click|press|hit|submit)\b|[.;!?]|$))", re.I)
_SPLIT = re.compile(r"\s*(?:,|\band\b|\bor\b)\s*", re.I)
MAX_WORDS = 8


def similar_words(task: str) -> list[str]:
    """The words a task asks boxes similar to, in order; [] for any other task."""
    m = _ASK.search(task)
    if m is None:
        return []
    words = [w.strip(" \"'") for w in _SPLIT.split(m.group(1))]
    words = [w for w in words if w]
    return words if 0 < len(words) <= MAX_WORDS else []


def _name(el: Element) -> str:
    return (el.name or el.text or "").strip()


async def similar_boxes(ctx: AgentContext, boxes: list[Element]) -> list[Element]:
    """The box each of the task's words goes with (exact names first, then one question per other word among the
    boxes left); [] when the task lists no words or the page has no boxes to match."""
    words = similar_words(ctx.task)
    boxes = [b for b in boxes if is_checkable(b) and not b.disabled and _name(b)]
    if not words or not boxes:
        return []
    chosen: dict[str, Element] = {}
    for word in words:
        own = next((b for b in boxes if _name(b).lower() == word.lower() and b not in chosen.values()), None)
        if own is not None:
            chosen[word] = own
    for word in (w for w in words if w not in chosen):
        left = [b for b in boxes if b not in chosen.values()]
        if not left:
            break
        if len(left) == 1:
            chosen[word] = left[0]
            continue
        variables = {"task": ctx.task, "word": word, "options": [_name(b) for b in left]}
        reply = await llm.decided_twice(lambda v: llm.choose("similar_option", v, n=len(left), max_tokens=CHOICE_TOKENS),
                                        variables, prompt="similar_option")
        chosen[word] = left[reply.answer.index]
    return list(chosen.values())
