"""The task-wide grounding check: every number an observation states must appear somewhere the agent
actually read during the task (a visited page's text or URL, or the task), or be computed from such numbers
(a total, a count, a difference: companion.observe.derived); every email, URL, date or name it states must
have been read too, and a value it ties to what the task names (order #110) must sit in that row, list item or
section (companion.observe.values). Used on each step's observation and again before the task may end; the
per-section check lives in companion.observe.grounding.

Small models invent values ("the Blue kettle costs $15" on a page with no price, another customer's email
for the one the task names) and then judge their own invention complete. A computed number is kept with its computation written into the observation, so the
history, the next steps and the end-task verification can check the arithmetic. No LLM call.
"""

from __future__ import annotations

from collections import deque

from companion.observe.derived import Derivation, Group, groups_of
from companion.observe.grounding import (NUMBER, Grounded, NumberCheck, check_numbers, grounded_sentences, holds,
                                        page_content, sentences, without_notes)
from companion.observe.values import PageUnits, Problem, ValueCheck, asks_email, identifiers, lower_lines
from companion.pagemem.model import PageMem
from companion.text import normalized

RELEVANT_TEXTS = 12  # recent observations and relevant sections whose numbers may be operands of a computation


class SeenText:
    """Everything the agent has read during the task, for the grounding check."""

    def __init__(self, task: str = "", *texts: str):
        self._parts: list[str] = [t for t in (task, *texts) if t]
        self._anchors = identifiers(task)  # what the task identifies its rows by
        self._emails = asks_email(task)
        self._related: list[str] = []  # names the task's row was seen to hold (relate)
        self._units: dict[str, PageUnits] = {}  # page -> its rows, list items and sections
        self._pages: dict[str, str] = {}  # page title (or URL) -> its text, the latest visit
        self._groups: dict[str, list[Group]] = {}  # page -> its listed items (what a count may count)
        # The task-relevant text: the sections the observation extracted from, the grounded observations.
        self._relevant: deque[str] = deque(maxlen=RELEVANT_TEXTS)

    def add_page(self, pagemem: PageMem | None) -> None:
        if pagemem is None:
            return
        texts = [pagemem.title]
        groups: list[Group] = []
        for section in pagemem.sections:
            texts.append(section.details)
            texts.extend(item.details for item in section.items)
            groups += groups_of(section.details)
            for item in section.items:
                groups += groups_of(item.details)
            if len(section.items) >= 2:  # a list section's items, each its own outline
                groups.append(Group(role="item", heading=section.details.split("\n", 1)[0].lower(),
                                    members=[normalized(page_content(i.details)) for i in section.items]))
        self._parts.append(pagemem.url)
        self._parts.extend(texts)
        # The URL stays out of the evidence: its host and port would be listed as "values found on a page".
        name = pagemem.title or pagemem.url
        self._pages[name] = page_content("\n".join(texts))
        self._groups[name] = groups
        self._units[name] = PageUnits.of(pagemem, page_content)

    def relate(self, names: list[str]) -> None:
        """Names a row the task names was seen to hold (the order's customer): a value on a later page may sit with
        one of them instead of the task's identifier (values.ValueCheck.related). The held-out admin's customer
        list showed daniel.ricci@example.com in Daniel Ricci's row, order SO-1010's customer, and the step's check
        dropped it as "not found with SO-1010", as the extraction's check no longer did."""
        self._related = list(dict.fromkeys([*self._related, *names]))

    def add(self, text: str) -> None:
        if text:
            self._parts.append(without_notes(text))

    def add_relevant(self, *texts: str) -> None:
        """Text the task's observation rests on (its extractions, the observation itself): the numbers it holds
        may be the operands of a total stated later."""
        self._relevant.extend(t for t in texts if t)

    def _reference(self) -> str:
        return "\n".join(self._parts)

    def _context(self) -> str:
        return "\n".join(self._relevant)

    def _all_groups(self) -> list[Group]:
        return [g for groups in self._groups.values() for g in groups]

    def _pages_holding(self, number: str) -> list[str]:
        return [name for name, text in self._pages.items() if holds(text, number)]

    def explain(self, derivation: Derivation) -> str:
        """'$55.50 = $25.50 + $30.00 (seen on "Two kettles")': the computation with where its operands were read."""
        pages = list(dict.fromkeys(p for n in derivation.operands for p in self._pages_holding(n)))
        if derivation.kind == "count":
            pages = pages or list(self._pages)[-1:]
        where = (" (seen on " + ", ".join(f'"{p}"' for p in pages) + ")") if pages else ""
        return f"{derivation}{where}"

    def where_seen(self, claim: str) -> list[str]:
        """For each number in `claim` found on a visited page: 'NUMBER: on "PAGE"', and for each computed from
        such numbers: 'NUMBER: computed, COMPUTATION' (the evidence the end-task verification is shown, so a
        small model judges a read or computed value instead of second-guessing it)."""
        derived = {d.number: d for d in self.check(claim).derived}
        found = []
        for number in dict.fromkeys(NUMBER.findall(claim)):
            pages = self._pages_holding(number)
            if pages:
                found.append(f"{number}: on " + ", ".join(f'"{name}"' for name in pages))
            elif number in derived:
                found.append(f"{number}: computed, {self.explain(derived[number])}")
        return found

    def check(self, claim: str) -> NumberCheck:
        return check_numbers(claim, self._reference(), self._context(), self._all_groups())

    def values(self, answer: bool = False) -> ValueCheck:
        """The value rules against everything read (values.py); `answer`: for a final answer, which is about the
        task's identifiers even when it does not name them."""
        lines = lower_lines(page_content(self._reference())).splitlines()
        return ValueCheck(self._anchors, lines, list(self._units.values()), answer=answer, emails=self._emails,
                          related=ValueCheck.as_related(self._related))

    def unsupported(self, claim: str, answer: bool = False) -> list[Problem]:
        """What `claim` states that was not read (numbers first), or not where the task's identifier is."""
        check = self.values(answer)
        found = [Problem(n) for n in self.check(claim).unseen]
        for sentence in sentences(without_notes(claim)):
            found += [p for p in check.problems(sentence) if p not in found]
        return found

    def grounded(self, text: str) -> Grounded:
        """`text` without the sentences that state a number no seen text holds or supports by a computation, or
        another value not read or not where the task's identifier is (values.py), with each computation written at its end ("(Computed: $55.50 = $25.50 + $30.00 (seen on "Two
        kettles").)"); and the sentences left out, and the computations.

        Applied to each step's observation before anything else reads it: an invented price in one
        observation would otherwise enter the history and be repeated, and believed, in every later step."""
        out = grounded_sentences(text, self._reference(), self._context(), self._all_groups(), self.values().problems)
        if out.derived:
            notes = " ".join(f"(Computed: {self.explain(d)}.)" for d in out.derived if str(d) not in text)
            out.kept = f"{out.kept} {notes}".strip()
        return out

    def without_ungrounded_sentences(self, text: str) -> tuple[str, list[str]]:
        """`text` without the sentences that state a number no seen text holds nor supports, and those sentences."""
        out = self.grounded(text)
        return out.kept, out.dropped

    def ungrounded_numbers(self, claim: str) -> list[str]:
        """Numbers in `claim` that appear nowhere in the seen text (as whole numbers, not digit runs inside
        others) and are not computed from numbers that do."""
        return self.check(claim).unseen
