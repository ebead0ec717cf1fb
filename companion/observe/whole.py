"""A page small enough to show whole (issue 11, "half the calls").

The paper's pipeline (section summaries, selection, extraction, page task summary) exists to fit a large page
into a small model's prompt and to point the model at the part that matters. A page, or the sections a step
selected, that already fits in a few hundred tokens gains nothing from it: on a two-element widget it cost five
calls before the first action, each able to drop what the task needs (an extraction leaving out the button), and
its summary went stale as soon as an action changed a field ("the text field is empty" after it was filled).
Such a page is shown to the actor as it is: the sections' outlines with their values and states, so after an
in-page action the observation is rendered again, for no call, and says what the page shows now.

The history keeps a bounded start of that text (HISTORY_TOKENS), as large as a task summary may be, so a few
steps on small pages cannot crowd the earlier steps out of the prompts.

Shown whole with no call at all, the default 1.5B model lost the lookups a page task summary had pointed it at.
So the default is the middle way (Budget.small_page_tokens): a page this small skips the same stages, and its
sections' own text (small_entries) stands in for their extractions in the one page task summary call it keeps.
"""

from __future__ import annotations

import re

from companion.observe.budget import preview
from companion.observe.extraction import format_details
from companion.pagemem.model import PageMem, PageSection
from companion.pagemem.tokens import count_tokens
from companion.text import states_the_task

HISTORY_TOKENS = 250  # what a step's history entry keeps of a page shown whole (a task summary is <= 200)
ADDED_LABEL = "Newly appeared since the page was opened (an opened menu, list or dialog):"


def whole_text(pagemem: PageMem, section_ids: list[str], views: dict[str, str], added_group: str | None,
               picked: dict[str, list[tuple[int, PageSection]]] | None = None) -> str:
    """The sections as the actor reads them: each one's details string (its view within the page), in the
    order given, then the group of elements added since the page was opened."""
    by_id = {s.id: s for s in pagemem.sections}
    parts = [format_details(by_id[sid], views.get(sid), (picked or {}).get(sid)) for sid in section_ids if sid in by_id]
    parts = [p for p in parts if p.strip()]
    if added_group:
        parts.append(f"{ADDED_LABEL}\n{added_group}")
    return "\n".join(parts)


_TEXT_LINE = re.compile(r"^\s*-?\s*text:\s*(.*)$")


def without_task_statement(text: str, task: str) -> str:
    """A section's text without its lines of plain text that state the task itself (a test page shows the task it
    sets): the default model read "Find the 1st word in the paragraph" off that line and typed "Find"."""
    return "\n".join(line for line in text.splitlines()
                     if not ((m := _TEXT_LINE.match(line)) and states_the_task(task, m.group(1))))


def small_entries(pagemem: PageMem, section_ids: list[str], views: dict[str, str],
                  added_group: str | None, task: str = "") -> tuple[dict[str, str], list[str]]:
    """A small page's stand-ins for extractions: (section id -> its text as shown, the task summary's entries
    "purpose: text" in the order given, then the added group). A section with no text gives no entry; a line that
    states the task is left out (without_task_statement)."""
    by_id = {s.id: s for s in pagemem.sections}
    texts = {sid: without_task_statement(format_details(by_id[sid], views.get(sid)), task)
             for sid in section_ids if sid in by_id}
    texts = {sid: text for sid, text in texts.items() if text.strip()}
    entries = [entry_line(by_id[sid].purpose or by_id[sid].kind, text) for sid, text in texts.items()]
    if added_group:
        entries.append(f"{ADDED_LABEL}\n{added_group}")
    return texts, entries


def entry_line(label: str, text: str) -> str:
    """A section's entry for the page task summary: "label: text", or the text alone when it starts with its label
    (a tiny section's purpose is its own line: 'heading "Orders": - heading "Orders"' said it twice, and a direct
    summary carries it into the observation and every later prompt's history)."""
    return text if text.lstrip("- ").lower().startswith(label.lower()) else f"{label}: {text}"


def as_observation(pagemem: PageMem, text: str) -> str:
    """The observation the actor reads: the page named first, as a task summary names it ("Current page: ...")."""
    return f"{pagemem.title} ({pagemem.url})\n{text}"


def fits_whole(text: str, max_tokens: int) -> bool:
    """Is this text small enough to be the observation itself? (max_tokens 0: never, the paper's pipeline always)"""
    return max_tokens > 0 and bool(text.strip()) and count_tokens(text) <= max_tokens


def for_history(text: str) -> str:
    """What the history keeps of a page shown whole: its start, said so when shortened."""
    return preview(text, HISTORY_TOKENS)
