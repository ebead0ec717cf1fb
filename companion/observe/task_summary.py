"""AnalyzePage's last stage (WebChallenger §2.4 step 3): the extractions of the selected sections are
synthesised into one paragraph, the step's observation. Always regenerated: the framing of a page shifts
as the task's history grows, even when the page did not change.

When the extractions do not fit one prompt they are summarised in consecutive groups, and the group
summaries are summarised again, until one call holds them all. A group the model gave no valid summary for
is summarised by its extractions themselves, as much as a small page shows (calls.Fallback).
"""

from __future__ import annotations

import asyncio
import re

from companion.llm.answers import TaskSummary
from companion.llm.fit import declare
from companion.observe.budget import SMALL_PAGE_DEFAULT, Budget, pack, preview, prompt_tokens, shrink_to_fit, split_text
from companion.observe.calls import Caller, Fallback
from companion.observe.grounding import sentences
from companion.pagemem.model import PageMem
from companion.pagemem.tokens import count_tokens

TASK_SUMMARY_MAX_TOKENS = 370  # 700 characters of JSON string, dense page text included (llm/fit.py)
declare("page_task_summary", TaskSummary, TASK_SUMMARY_MAX_TOKENS)


MAX_ROUNDS = 6


_STEP = re.compile(r"^Step (\d+)$")
_PAGE = re.compile(r"^Observation: (.*?) \((\S*)\) - Summary:")


def steps_done(history: str) -> str:
    """The history as the pages visited and the actions taken, one line a step, without the observations
    and reasons: the framing the summary needs. Given the full history, the 1.5B model copied an earlier
    step's "there is no information about the price" into the summary of the page that showed the price."""
    lines: list[str] = []
    step = page = ""
    actions: list[str] = []

    def flush() -> None:
        if step:
            lines.append(f"Step {step} on {page or 'a page'}: " + "; ".join(actions or ["no action"]))

    for line in history.splitlines():
        if m := _STEP.match(line):
            flush()
            step, page, actions = m.group(1), "", []
        elif m := _PAGE.match(line):
            page = m.group(1)
        elif line.startswith("Action: "):
            actions.append(line[len("Action: "):])
        elif line.startswith("- ") and step:
            actions.append(line[2:])
    flush()
    return "\n".join(lines)


# A sentence that guesses instead of reporting: "the email address is likely stored in a separate table that is not
# accessible", "it may be on the next page". The prompt says not to guess; the 1.5B model does, and the actor reads
# the guess as what the page showed.
_GUESS = re.compile(r"\b(?:likely|probably|possibly|presumably|perhaps|might|may\s+be|could\s+be|seems?\s+to\s+be|"
                    r"appears?\s+to\s+be)\b", re.I)


def without_guesses(summary: str) -> str:
    """The summary without its sentences that guess; all of them guessing: the note that nothing answers the task."""
    kept = [s for s in sentences(summary) if not _GUESS.search(s)]
    if kept:
        return " ".join(kept)
    return "No detail on this page answers the task." if summary else summary


def nothing_relevant(pagemem: PageMem) -> str:
    """The observation of a page whose selected sections gave no task-relevant details. Written by rule: asked
    to summarise nothing, the 1.5B model wrote a price for the task's item ("[3] dollars") instead."""
    parts = list(dict.fromkeys(s.purpose for s in pagemem.sections if s.purpose))
    shows = f" It shows: {'; '.join(parts)}." if parts else ""
    return f"No detail on this page answers the task.{shows}"


def direct_summary(entries: list[str]) -> str:
    """The step's observation from extractions short enough to be it (Budget.direct_summary_tokens): a summary of
    them could only restate them, in as many words as its answer may have. On the held-out admin the call restated
    one sentence of extraction ("The price of the Turntable is not mentioned ...") at 160 to 500 new prompt tokens,
    5 to 13 s, a step. On one line: the history keeps an observation on its line, and a row's "- row 2: ..." on a
    line of its own would read as an action there."""
    return " ".join(" ".join(entries).split())


def _extractions(pieces: list[str]) -> Fallback:
    """The stand-in of a summary: the extractions themselves, as much of them as a small page shows whole."""
    text = preview("\n".join(pieces), SMALL_PAGE_DEFAULT, "lines of the extractions")
    return Fallback("the extractions themselves", lambda: TaskSummary.model_construct(summary=text))


async def summarize_for_task(caller: Caller, budget: Budget, task: str, history: str, pagemem: PageMem,
                             entries: list[str]) -> str:
    if not entries:
        return nothing_relevant(pagemem)
    done = steps_done(history)

    def variables(items: list[str]) -> dict:
        return {"task": task, "steps_done": done, "page_title": pagemem.title, "url": pagemem.url, "extractions": items}

    room = budget.usable - prompt_tokens("page_task_summary", variables([]))
    pieces: list[str] = []
    for e in entries:
        if count_tokens(e) + 4 > room:
            parts = split_text(e, room // 2)
            pieces.extend(f"(part {i} of {len(parts)}) {p}" for i, p in enumerate(parts, 1))
        else:
            pieces.append(e)
    for _ in range(MAX_ROUNDS):
        fixed = prompt_tokens("page_task_summary", variables([]))
        groups: list[list[int]] = []
        for g in pack(pieces, fixed, budget.usable):
            groups.extend(shrink_to_fit(lambda idx: variables([pieces[i] for i in idx]), g, "page_task_summary", budget))
        # The groups of one round do not depend on each other: asked together, through the server's slots.
        answers = await asyncio.gather(*(caller.ask("page_task_summary", variables([pieces[i] for i in idx]), TaskSummary,
                                                    max_tokens=TASK_SUMMARY_MAX_TOKENS, fallback=_extractions([pieces[i] for i in idx]))
                                         for idx in groups))
        if len(answers) == 1:
            return without_guesses(answers[0].summary.strip())
        # Partial summaries, in page order, become the entries of the next round.
        pieces = [f"(page part {i}) {a.summary.strip()}" for i, a in enumerate(answers, 1)]
    return " ".join(pieces)
