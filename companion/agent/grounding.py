"""A rule-based grounding check before a task may end: every number the current observation states must
appear somewhere the agent actually saw (a page's text, a URL, the task or the history).

Small models invent values ("the Blue kettle costs $15" on a page with no price) and then judge their own
invention complete. Numbers are the checkable part of most answers (prices, counts, dates); names are too
fuzzy to check by rule. No LLM call.
"""

from __future__ import annotations

import re

from companion.pagemem.model import PageMem

_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")


class SeenText:
    """Everything the agent has read during the task, for the grounding check."""

    def __init__(self, *texts: str):
        self._parts: list[str] = [t for t in texts if t]

    def add_page(self, pagemem: PageMem | None) -> None:
        if pagemem is None:
            return
        self._parts.append(pagemem.url)
        self._parts.append(pagemem.title)
        for section in pagemem.sections:
            self._parts.append(section.details)
            for item in section.items:
                self._parts.append(item.details)

    def add(self, text: str) -> None:
        if text:
            self._parts.append(text)

    def ungrounded_numbers(self, claim: str) -> list[str]:
        """Numbers in `claim` that appear nowhere in the seen text (as whole numbers, not digit runs inside others)."""
        seen = "\n".join(self._parts)
        missing = []
        for number in dict.fromkeys(_NUMBER.findall(claim)):
            # "$31" may shorten "$31.00": a decimal part after the number still counts as seen.
            if not re.search(rf"(?<![\d.,]){re.escape(number)}(?!\d)", seen):
                missing.append(number)
        return missing
