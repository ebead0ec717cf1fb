"""The token budget every observation prompt must fit, and the helpers that make things fit.

What does not fit is chunked (lists, long details strings, many sections, many extractions), never cut
silently. The only things shortened are shown as shortened: the oldest history lines (with a line saying
how many were left out) and previews used for summaries or item selection (with a "… N more" marker);
the full content still reaches the extraction calls in chunks.
"""

from __future__ import annotations

import os
from typing import Callable, Sequence

from pydantic import BaseModel, Field

from companion.llm.prompts import render
from companion.pagemem.tokens import count_tokens

DEFAULT_BUDGET = 6000
# Headroom for what the client may add after rendering (the schema hint of plain-text mode, chat
# template tokens of the server) — our count is an estimate of the rendered text only.
MARGIN = 250
# A page this small fits the actor's prompt as it is: the pipeline's calls would only shorten it (whole.py).
# Off by default: it halves the calls (lexical policy), but with the default 1.5B model the bench tasks' lookups
# failed without the page task summary pointing at the answer ("The price of the Blue kettle is [3] dollars."
# answered on the home page; 2 of 7 tasks against 6 of 6 with the pipeline). Turn it on with
# WEBCHALLENGER_WHOLE_PAGE_TOKENS=600 (a larger model, or to compare).
WHOLE_PAGE_TOKENS = 600
WHOLE_PAGE_DEFAULT = 0
WHOLE_PAGE_ENV = "WEBCHALLENGER_WHOLE_PAGE_TOKENS"  # 0: the paper's pipeline on every page
# The middle way, on by default: a page this small skips the stages that only shorten it (section summaries,
# selection, page summary, list items, extraction) and keeps the one call the 1.5B model needs, the page task
# summary, which reads the sections' own text in place of their extractions (whole.py).
SMALL_PAGE_DEFAULT = 600
SMALL_PAGE_ENV = "WEBCHALLENGER_SMALL_PAGE_TOKENS"  # 0: the paper's pipeline on every page


# A details string this short is its own extraction: no call can shorten it (an answer may be 80 words), it
# could only drop what the task needs. The admin's product list made ten extraction calls a step, eight of them
# over a breadcrumb, a heading, a search box or a few links, each prompt five times the size of its section.
OWN_TEXT_TOKENS = 100
# Content this short is its own summary: describe_tiny keeps 240 characters of it, about this many tokens, so the
# whole of it is shown (a breadcrumb, a search box, three year links cost a summary call each on the admin's lists).
TINY_SECTION_TOKENS = 60
PAPER_TINY_TOKENS = 24  # with small pages off: only a link or a heading goes without a summary call
# Extractions this short are the step's observation as they are (task_summary.direct_summary): the summary call's
# answer may be longer (TASK_SUMMARY_MAX_TOKENS), so it could only restate them.
DIRECT_SUMMARY_TOKENS = 120


class BudgetError(RuntimeError):
    """A prompt could not be made to fit the budget (a bug: callers chunk before they call)."""


class Budget(BaseModel):
    max_prompt_tokens: int = Field(DEFAULT_BUDGET, ge=1000, description="no observation prompt is larger")
    history_tokens: int = Field(1500, ge=100, description="the history shown in a prompt; older steps are left out, said so")
    list_chunk: int = Field(25, ge=1, description="list items per selection call (fewer when they do not fit)")
    summary_preview_tokens: int = Field(1500, ge=200, description="content shown to the section-summary call")
    item_preview_tokens: int = Field(300, ge=40, description="one list item as shown to the item-selection call")
    whole_page_tokens: int = Field(default_factory=lambda: whole_page_tokens(), ge=0, description="a page (or a step's selected sections) "
                                   "this small is the observation itself: no section summary, selection, extraction or "
                                   "task summary call (whole.py); 0: the paper's pipeline on every page")
    small_page_tokens: int = Field(default_factory=lambda: small_page_tokens(), ge=0, description="a page (or a step's "
                                   "selected sections) this small gets only the page task summary call, over the "
                                   "sections' own text (whole.py); 0: the paper's pipeline on every page")

    @property
    def usable(self) -> int:
        return self.max_prompt_tokens - MARGIN

    @property
    def own_text_tokens(self) -> int:
        """A selected section whose details string is this short is its own extraction (extraction.py); the small
        page's idea for one section, so it is off (0) with small pages off: the paper's pipeline everywhere."""
        return OWN_TEXT_TOKENS if self.small_page_tokens else 0

    @property
    def direct_summary_tokens(self) -> int:
        """Extractions this short are the step's observation themselves, with no page task summary call
        (task_summary.direct_summary); the small page's idea too, so it is off (0) with small pages off."""
        return DIRECT_SUMMARY_TOKENS if self.small_page_tokens else 0

    @property
    def tiny_tokens(self) -> int:
        """A section this short is its own summary (abstraction.describe_tiny); larger with small pages on."""
        return TINY_SECTION_TOKENS if self.small_page_tokens else PAPER_TINY_TOKENS


def whole_page_tokens() -> int:
    """The bound of a page shown whole: WEBCHALLENGER_WHOLE_PAGE_TOKENS when set, else WHOLE_PAGE_DEFAULT (off)."""
    return _tokens_from_env(WHOLE_PAGE_ENV, WHOLE_PAGE_DEFAULT)


def small_page_tokens() -> int:
    """The bound of a small page: WEBCHALLENGER_SMALL_PAGE_TOKENS when set, else SMALL_PAGE_DEFAULT."""
    return _tokens_from_env(SMALL_PAGE_ENV, SMALL_PAGE_DEFAULT)


def _tokens_from_env(name: str, default: int) -> int:
    raw = os.environ.get(name, "").strip()
    if not raw:
        return default
    try:
        value = int(raw)
    except ValueError:
        value = -1
    if value < 0:
        raise ValueError(f"{name}={raw!r}: a number of tokens is expected (0 turns this off: the paper's pipeline)")
    return value


def prompt_tokens(prompt: str, variables: dict) -> int:
    """Tokens of the prompt exactly as sent (system message + rendered user message)."""
    return sum(count_tokens(m["content"]) for m in render(prompt, variables).messages)


def fit_history(history: str, max_tokens: int) -> str:
    """The most recent part of the history that fits, with a first line saying what was left out."""
    if count_tokens(history) <= max_tokens:
        return history
    lines = history.splitlines()
    kept: list[str] = []
    used = 0
    for line in reversed(lines):
        cost = count_tokens(line) + 1
        if used + cost > max_tokens - 20:
            break
        kept.append(line)
        used += cost
    kept.reverse()
    while len(kept) > 1 and count_tokens("\n".join(kept)) > max_tokens - 20:
        kept.pop(0)
    if not kept:  # one enormous last line: keep its end, said so
        tail = split_text(lines[-1] if lines else history, max_tokens - 20)[-1]
        return f"(earlier history left out to fit the prompt; the last entry is shown from its end)\n…{tail}"
    return f"({len(lines) - len(kept)} earlier history lines left out to fit the prompt)\n" + "\n".join(kept)


def split_text(text: str, max_tokens: int) -> list[str]:
    """Consecutive pieces of `text`, each within max_tokens: on line boundaries, long lines on word
    boundaries, endless words by characters. Joining the pieces gives back every character.
    Each piece is measured as a whole (the counter is not additive across joins)."""
    max_tokens = max(max_tokens, 8)
    pieces: list[str] = []
    current: list[str] = []
    used = 0
    for line in text.split("\n"):
        cost = count_tokens(line) + 1
        if cost > max_tokens:
            if current:
                pieces.append("\n".join(current))
                current, used = [], 0
            pieces.extend(_split_line(line, max_tokens))
            continue
        if used + cost > max_tokens and current:
            pieces.append("\n".join(current))
            current, used = [], 0
        current.append(line)
        used += cost
    if current:
        pieces.append("\n".join(current))
    return [p for piece in pieces for p in _halve_until_fits(piece, max_tokens)] or [""]


def _halve_until_fits(piece: str, max_tokens: int) -> list[str]:
    if count_tokens(piece) <= max_tokens:
        return [piece]
    lines = piece.split("\n")
    if len(lines) == 1:
        return _split_line(piece, max_tokens // 2 or 1)
    mid = len(lines) // 2
    return _halve_until_fits("\n".join(lines[:mid]), max_tokens) + _halve_until_fits("\n".join(lines[mid:]), max_tokens)


def _split_line(line: str, max_tokens: int) -> list[str]:
    out: list[str] = []
    current = ""
    for word in line.split(" "):
        candidate = f"{current} {word}" if current else word
        if count_tokens(candidate) <= max_tokens:
            current = candidate
            continue
        if current:
            out.append(current)
        while count_tokens(word) > max_tokens:  # no spaces to break at: cut by characters
            cut = max(1, len(word) * max_tokens // max(count_tokens(word), 1) - 1)
            out.append(word[:cut])
            word = word[cut:]
        current = word
    if current:
        out.append(current)
    return out


def preview(text: str, max_tokens: int, what: str = "lines") -> str:
    """The start of `text` within max_tokens, followed by a line saying how much is not shown."""
    if count_tokens(text) <= max_tokens:
        return text
    lines = text.split("\n")
    kept: list[str] = []
    used = 0
    for line in lines:
        cost = count_tokens(line) + 1
        if used + cost > max_tokens - 15:
            break
        kept.append(line)
        used += cost
    if not kept:
        first = _split_line(lines[0], max_tokens - 15)[0]
        return f"{first}… (shortened here; {len(lines)} {what} in full)"
    while len(kept) > 1 and count_tokens("\n".join(kept)) > max_tokens - 15:
        kept.pop()  # the counter is not additive across joins: measure the whole
    return "\n".join(kept) + f"\n… ({len(lines) - len(kept)} more {what} not shown here)"


def pack(items: Sequence[str], fixed_tokens: int, limit: int, *, per_item: int = 4,
         max_count: int | None = None) -> list[list[int]]:
    """Group consecutive items (by index) so that fixed_tokens + their sizes stay within `limit` and each
    group holds at most max_count items. An item too large alone still gets a group of its own (the
    caller shortens or splits it)."""
    groups: list[list[int]] = []
    current: list[int] = []
    used = fixed_tokens
    for i, item in enumerate(items):
        cost = count_tokens(item) + per_item
        full = max_count is not None and len(current) >= max_count
        if current and (used + cost > limit or full):
            groups.append(current)
            current, used = [], fixed_tokens
        current.append(i)
        used += cost
    if current:
        groups.append(current)
    return groups


def ensure_fits(prompt: str, variables: dict, budget: Budget) -> int:
    """The prompt's size; BudgetError when it is over the bound (callers chunk first, so this is a guard)."""
    n = prompt_tokens(prompt, variables)
    if n > budget.max_prompt_tokens:
        raise BudgetError(f"prompt {prompt!r} would be {n} tokens, over the {budget.max_prompt_tokens}-token bound")
    return n


def shrink_to_fit(build: Callable[[list[int]], dict], indices: list[int], prompt: str, budget: Budget) -> list[list[int]]:
    """Split a group of indices in halves until the rendered prompt of each part fits (estimates of
    per-item cost can be off by a few tokens; this makes the bound exact)."""
    if len(indices) <= 1 or prompt_tokens(prompt, build(indices)) <= budget.usable:
        return [indices]
    mid = len(indices) // 2
    return shrink_to_fit(build, indices[:mid], prompt, budget) + shrink_to_fit(build, indices[mid:], prompt, budget)
