"""Format and LLMExtractDetails (WebChallenger §2.4 step 2, Appendix A.3).

Format builds a section's details string: the accessibility subtree, then a short description of each
image of at least 50x50 px (from its alt text and file name; the outline renderer only prints URLs for
such images). For a list section it is the selected items, numbered by their position in the list.

One extraction call per selected section (but one whose details string is a few lines: is_own_extraction);
sections run concurrently. A table's rows are read one line
each (compact_rows). The answer is cached on the section under (task, details string) and reused while that string is unchanged. A details string too big for one
prompt is split into consecutive pieces, one call each, and the answers are joined in order. A piece the
model gave no valid answer for is its own extraction, as long as an extraction may be (calls.Fallback); it is
not cached, so the next step asks again.
"""

from __future__ import annotations

import asyncio
import re
from pathlib import PurePosixPath
from urllib.parse import unquote, urlsplit

from companion.llm.answers import Extraction
from companion.llm.fit import declare
from companion.observe.budget import Budget, preview, prompt_tokens, split_text
from companion.observe.calls import Caller, Fallback
from companion.llm.usage import record_dropped
from companion.observe.grounding import grounded_sentences, page_content
from companion.observe.outline import compact_rows
from companion.observe.values import ValueCheck
from companion.pagemem.model import PageMem, PageSection
from companion.pagemem.tokens import count_tokens

EXTRACTION_MAX_TOKENS = 370  # 700 characters of JSON string, dense page text included (llm/fit.py)
declare("detail_extraction", Extraction, EXTRACTION_MAX_TOKENS)


def is_own_extraction(details: str, budget: Budget) -> bool:
    """Is this section's details string short enough to stand for its extraction as it is (Budget.own_text_tokens)?"""
    return budget.own_text_tokens > 0 and count_tokens(details) <= budget.own_text_tokens


_IMG = re.compile(r'^\s*- img(?: "(?P<alt>[^"]*)")? src=(?P<src>\S+)')


def image_note(src: str, alt: str) -> str:
    name = PurePosixPath(unquote(urlsplit(src).path)).stem
    words = " ".join(w for w in re.split(r"[-_.+\s]+", name) if w and not w.isdigit())
    parts = [f'"{alt}"'] if alt else []
    if words:
        parts.append(f"file name: {words}")
    return "; ".join(parts) or "no description"


def with_images(details: str) -> str:
    notes = [f"- image {m.group('src')[:80]}: {image_note(m.group('src'), m.group('alt') or '')}"
             for m in map(_IMG.match, details.splitlines()) if m]
    return details if not notes else details + "\nImages:\n" + "\n".join(notes)


def list_header(section: PageSection) -> list[str]:
    """The list's own lines (title, controls outside the items), without the item part."""
    out = []
    for line in section.details.splitlines()[1:]:
        if line.startswith("item ") and line.endswith(":"):
            break
        out.append(line)
    return out


def format_details(section: PageSection, view: str | None = None,
                   items: list[tuple[int, PageSection]] | None = None) -> str:
    """The details string of a section. `view` replaces a normal section's rendered content (PageDigest
    shows sections without the elements added since page entry); for a list, `items` are the selected
    (1-based position, item) pairs — None means every item."""
    if section.kind != "list":
        return with_images(section.details if view is None else view)
    label = section.details.splitlines()[0] if section.details else "list"
    label = re.sub(r"\(\d+ items\)$", "", label).strip()
    chosen = items if items is not None else list(enumerate(section.items, 1))
    note = f"({len(chosen)} of {len(section.items)} items selected)" if items is not None else f"({len(section.items)} items)"
    out = [f"{label} {note}"] + list_header(section)
    for pos, item in chosen:
        out.append(f"item {pos}:")
        out.extend("  " + line for line in item.details.splitlines())
    return with_images("\n".join(out))


def extraction_key(task: str, details: str) -> str:
    return task + "\x1f" + details


async def extract(caller: Caller, budget: Budget, task: str, history: str, pagemem: PageMem,
                  section: PageSection, details: str, purpose: str | None = None,
                  related: list[str] | None = None) -> tuple[str, bool]:
    """(extraction, from_cache). Splits the details into pieces when one prompt cannot hold them.
    `purpose` overrides the section's label (a dialog shown from inside its host section). A table's rows are
    read one line each (outline.compact_rows: half the tokens of a list page's table)."""
    details = compact_rows(details)
    key = extraction_key(task, details)
    cached = section.cached_extraction(key)
    if cached is not None:
        return cached, True
    purpose = purpose or section.purpose or section.kind

    def variables(text: str) -> dict:
        return {"task": task, "history": history, "page_title": pagemem.title, "url": pagemem.url,
                "section_purpose": purpose, "details": text}

    room = budget.usable - prompt_tokens("detail_extraction", variables(""))
    pieces = [details] if count_tokens(details) <= room else split_text(details, room)
    if len(pieces) > 1:
        pieces = [f"(part {i} of {len(pieces)})\n{p}" for i, p in enumerate(pieces, 1)]
    stand_ins = [Extraction.model_construct(details=preview(p, EXTRACTION_MAX_TOKENS)) for p in pieces]
    answers = await asyncio.gather(*(
        caller.ask("detail_extraction", variables(p), Extraction, max_tokens=EXTRACTION_MAX_TOKENS, section_id=section.id,
                   fallback=Fallback("the section's own text, up to an extraction's length", lambda s=s: s))
        for p, s in zip(pieces, stand_ins)))
    # An extraction copies from its piece: a sentence stating a number the piece (or the task) does not hold
    # was invented, and would reach the observation and the history as a fact, unless it is computed from
    # the piece's numbers (a total of its prices, a count of its rows: grounding.py, derived.py).
    # The same for an email, a date or a name, and for a value the piece holds only in another row than the one
    # the task names (values.py), or than one holding a name that row was found to hold on an earlier page (related).
    checked = [grounded_sentences(a.details, f"{task}\n{p}", p, values=ValueCheck.within(page_content(p), task, related).problems)
               for a, p in zip(answers, pieces)]
    record_dropped(n for g in checked for n in g.notes)
    text = " ".join(g.kept for g in checked if g.kept)
    if not any(a is s for a, s in zip(answers, stand_ins)):
        section.store_extraction(key, text)
    return text, False
