"""The task-wide grounding check: every number an observation states must appear somewhere the agent
actually read during the task (a visited page's text or URL, or the task). Used on each step's observation
and again before the task may end; the per-section check lives in companion.observe.grounding.

Small models invent values ("the Blue kettle costs $15" on a page with no price) and then judge their own
invention complete. Numbers are the checkable part of most answers (prices, counts, dates); names are too
fuzzy to check by rule. No LLM call.
"""

from __future__ import annotations

from companion.observe.grounding import NUMBER, holds, numbers_not_in, page_content, without_unsupported_sentences
from companion.pagemem.model import PageMem


class SeenText:
    """Everything the agent has read during the task, for the grounding check."""

    def __init__(self, *texts: str):
        self._parts: list[str] = [t for t in texts if t]
        self._pages: dict[str, str] = {}  # page title (or URL) -> its text, the latest visit

    def add_page(self, pagemem: PageMem | None) -> None:
        if pagemem is None:
            return
        texts = [pagemem.title]
        for section in pagemem.sections:
            texts.append(section.details)
            texts.extend(item.details for item in section.items)
        self._parts.append(pagemem.url)
        self._parts.extend(texts)
        # The URL stays out of the evidence: its host and port would be listed as "values found on a page".
        self._pages[pagemem.title or pagemem.url] = page_content("\n".join(texts))

    def where_seen(self, claim: str) -> list[str]:
        """For each number in `claim` found on a visited page: 'NUMBER: on "PAGE"' (the evidence the end-task
        verification is shown, so a small model judges a read value instead of second-guessing it)."""
        found = []
        for number in dict.fromkeys(NUMBER.findall(claim)):
            pages = [name for name, text in self._pages.items() if holds(text, number)]
            if pages:
                found.append(f"{number}: on " + ", ".join(f'"{name}"' for name in pages))
        return found

    def add(self, text: str) -> None:
        if text:
            self._parts.append(text)

    def without_ungrounded_sentences(self, text: str) -> tuple[str, list[str]]:
        """`text` without the sentences that state a number no seen text holds, and those sentences.

        Applied to each step's observation before anything else reads it: an invented price in one
        observation would otherwise enter the history and be repeated, and believed, in every later step."""
        return without_unsupported_sentences(text, "\n".join(self._parts))

    def ungrounded_numbers(self, claim: str) -> list[str]:
        """Numbers in `claim` that appear nowhere in the seen text (as whole numbers, not digit runs inside others)."""
        return numbers_not_in(claim, "\n".join(self._parts))
