"""Section abstraction: purpose, one-sentence summary and state summary per section, and the page summary.

Lazy and cached, so an unchanged section costs no call:
- a section that already carries them (and is not marked for re-summary) is left alone;
- WebsiteMem serves summary + state by content hash, purpose by content hash or by the section's place in
  its page's template (signature within one page structure: pages of one template share purposes, Region4Web
  §3.3, the purpose is what the region is FOR; unrelated sections of the same bare shape do not);
- a section whose whole content is shorter than a summary (one link, a heading, a breadcrumb: Budget.tiny_tokens)
  is described by its own content, without a call;
- a table, form, search box, navigation list, pagination bar or filter panel is described by rule from its
  structure (structure.py), the same words on every visit;
- otherwise (prose and mixed sections) one section_summary call; when the purpose is already known it is shown and not asked again.
  With no valid answer, the section's structural description (its headings, labels, first lines) stands in,
  and is not remembered (calls.Fallback; the next visit asks again).
"""

from __future__ import annotations

import asyncio
import re

from pydantic import Field

from companion.llm.answers import PageSummary
from companion.llm.fit import declare
from companion.llm.structured import StrictAnswer
from companion.memory.store import WebsiteMemStore, purpose_scope
from companion.observe.budget import Budget, preview, prompt_tokens
from companion.observe.calls import Caller, Fallback
from companion.observe.structure import describe_structure
from companion.pagemem.model import PageMem, PageSection, hash_text
from companion.pagemem.tokens import count_tokens

SUMMARY_MAX_TOKENS = 150  # two short sentences (+40 when the purpose is asked too); ~16 tokens/s on CPU
PAGE_SUMMARY_MAX_TOKENS = 100  # PageSummary allows 160 characters
_LINE_PREFIX = re.compile(r"^\s*- (\[\d+\] )?")


class SectionAbstraction(StrictAnswer):
    """prompts/section_summary.j2 when the purpose is not known yet."""

    purpose: str = Field(max_length=60)
    summary: str = Field(max_length=120)
    state: str = Field(max_length=120)


class SectionState(StrictAnswer):
    """prompts/section_summary.j2 when the purpose is already known (shared by the section's template)."""

    summary: str = Field(max_length=120)
    state: str = Field(max_length=120)


declare("section_summary", SectionState, SUMMARY_MAX_TOKENS)
declare("section_summary", SectionAbstraction, SUMMARY_MAX_TOKENS + 40)
declare("page_summary", PageSummary, PAGE_SUMMARY_MAX_TOKENS)


def plain_lines(details: str) -> list[str]:
    """Outline lines without list markers and element numbers."""
    return [_LINE_PREFIX.sub("", line).strip() for line in details.splitlines() if line.strip()]


def describe_tiny(section: PageSection) -> tuple[str, str]:
    """(purpose, summary) of a section too small to be worth a call: its own content."""
    lines = plain_lines(section.details)
    purpose = (lines[0] if lines else section.kind)[:80]
    return purpose, "; ".join(lines)[:240] or section.kind


STRUCTURAL = "the section's structural description (headings, labels, first lines)"


def needs_abstraction(section: PageSection) -> bool:
    return section.summary is None or section.purpose is None or section.needs_summary


def summary_content(section: PageSection, max_tokens: int) -> str:
    """What the summary call reads: the details string, or for big sections its start and a note of
    how much more there is (a summary describes the region; the full content goes to extraction)."""
    what = "lines (list items follow the same pattern)" if section.kind == "list" else "lines"
    return preview(section.details, max_tokens, what)


async def abstract_section(caller: Caller, section: PageSection, pagemem: PageMem,
                           store: WebsiteMemStore | None, budget: Budget, remember: bool = True) -> bool:
    """Fill purpose, summary and state of one section. Returns True when an LLM call was made."""
    if store is not None:
        store.apply_cached_section(section, pagemem.template_id)
    if not needs_abstraction(section):
        return False
    described = describe_tiny(section) if section.tokens <= budget.tiny_tokens else describe_structure(section)
    if described is not None:  # its own summary, or what its structure says (a table, form, list of links)
        purpose, summary = described
        section.purpose = section.purpose or purpose
        if section.summary is None or section.needs_summary:  # one remembered for this content is kept
            section.summary = section.state_summary = summary
        section.needs_summary = section.stood_in = False
        return False
    variables = {"page_title": pagemem.title, "url": pagemem.url, "content": "", "purpose": section.purpose or ""}
    room = min(budget.summary_preview_tokens, budget.usable - prompt_tokens("section_summary", variables))
    variables["content"] = summary_content(section, room)
    purpose, summary = describe_tiny(section)
    stand_in = SectionAbstraction.model_construct(purpose=purpose, summary=summary, state=summary)
    fallback = Fallback(STRUCTURAL, lambda: stand_in)
    if section.purpose:
        answer = await caller.ask("section_summary", variables, SectionState, max_tokens=SUMMARY_MAX_TOKENS,
                                  fallback=fallback, section_id=section.id)
    else:
        answer = await caller.ask("section_summary", variables, SectionAbstraction, max_tokens=SUMMARY_MAX_TOKENS + 40,
                                  fallback=fallback, section_id=section.id)
        section.purpose = answer.purpose.strip() or purpose
    section.summary = answer.summary.strip()
    section.state_summary = answer.state.strip()
    section.needs_summary = False
    section.stood_in = answer is stand_in
    if section.stood_in:  # not the model's: never remembered (memory/store.py), and no call counted as made
        return False
    if store is not None and section.content_hash and remember:
        remember_sections(store, [section], pagemem.template_id)
    return True


def remember_sections(store: WebsiteMemStore, sections: list[PageSection], template_id: str) -> None:
    """Record the sections' abstractions in WebsiteMem with one write per table."""
    done = [s for s in sections if s.content_hash and s.summary is not None]
    store.store_abstractions([(s.content_hash, s.summary, s.state_summary) for s in done],
                             [(s.purpose, s.content_hash, purpose_scope(template_id, s.signature)) for s in done if s.purpose])


async def abstract_sections(caller: Caller, sections: list[PageSection], pagemem: PageMem,
                            store: WebsiteMemStore | None, budget: Budget) -> int:
    """Abstract the sections that need it, concurrently; what the LLM wrote is recorded in WebsiteMem
    in one go at the end (sections served from rules are not recorded: they cost nothing to redo)."""
    made = await asyncio.gather(*(abstract_section(caller, s, pagemem, store, budget, remember=False) for s in sections),
                                return_exceptions=True)
    if store is not None:  # what succeeded is kept even when another call failed
        remember_sections(store, [s for s, m in zip(sections, made) if m is True], pagemem.template_id)
    for m in made:
        if isinstance(m, BaseException):
            raise m
    return sum(1 for m in made if m is True)


def section_line(section: PageSection) -> str:
    """One line per section for selection: purpose, summary, and the current state when it says more. A summary
    that starts with the purpose (a structure's description, a tiny section's own line) is not prefixed with it
    again: on a held-out admin list the repeats were a fifth of the selection prompt."""
    purpose, summary = section.purpose or section.kind, (section.summary or "").strip()
    line = summary if summary.lower().startswith(purpose.lower()) else f"{purpose}: {summary}".strip()
    state = section.state_summary
    if state and state != section.summary:
        line += f" Now: {state}"
    return line


def page_key(pagemem: PageMem) -> str:
    return hash_text("page-summary\x1f" + pagemem.title + "\x1f" + "\x1f".join(s.content_hash for s in pagemem.sections))


async def summarize_page(caller: Caller, pagemem: PageMem, store: WebsiteMemStore | None, budget: Budget) -> bool:
    """The page's one-sentence summary (cached per page content). Returns True when a call was made."""
    if pagemem.summary:
        return False
    key = page_key(pagemem)
    if store is not None:
        hit = store.cached_summary(key)
        if hit is not None:
            pagemem.summary = hit[0]
            return False
    lines = [f"{s.purpose or s.kind}: {s.summary or ''}" for s in pagemem.sections]
    # Many sections: show as many as fit, and say how many more there are (this is a one-sentence gist).
    fixed = prompt_tokens("page_summary", {"page_title": pagemem.title, "url": pagemem.url, "sections": ["… and 9999 more sections"]})
    shown: list[str] = []
    used = fixed
    for line in lines:
        cost = count_tokens(line) + 3
        if used + cost > budget.usable:
            break
        shown.append(line)
        used += cost
    if len(shown) < len(lines):
        shown.append(f"… and {len(lines) - len(shown)} more sections")
    stand_in = PageSummary.model_construct(summary="; ".join(dict.fromkeys(s.purpose or s.kind for s in pagemem.sections)))
    answer = await caller.ask("page_summary", {"page_title": pagemem.title, "url": pagemem.url, "sections": shown},
                              PageSummary, max_tokens=PAGE_SUMMARY_MAX_TOKENS,
                              fallback=Fallback("the sections' purposes", lambda: stand_in))
    pagemem.summary = answer.summary.strip()
    pagemem.summary_stood_in = answer is stand_in
    if store is not None and answer is not stand_in:
        store.store_summary(key, pagemem.summary)
    return True
