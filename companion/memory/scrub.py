"""What of a PageMem may be written to site memory (store.py saves only this copy): no typed values, no
password values, no task extractions, no stand-in summaries, URLs with their secrets redacted."""

from __future__ import annotations

from typing import Iterable

from companion.pagemem.model import PageMem, PageSection
from companion.typed_secrets import redact_url


def scrub(pagemem: PageMem) -> PageMem:
    """A copy safe to persist: no typed values, no password values, no task extractions. A section that
    held typed text loses its details and summaries (recomputed on the next visit); its purpose stays."""
    copy = pagemem.model_copy(deep=True)
    copy.url = redact_url(copy.url)
    sections = list(all_sections(copy))
    typed = [any((e.is_typed_field or e.is_password) and e.value for e in s.all_elements()) for s in sections]
    if copy.summary_stood_in:
        copy.summary = None
    for section, has_typed in zip(sections, typed):
        section.extractions = {}
        if section.stood_in:  # a stand-in (llm/fallback.py) is not the model's: the next visit asks again
            section.summary = section.state_summary = section.purpose = None
            section.needs_summary = True
        if has_typed:
            # What the LLM read and wrote about this section may quote the typed text.
            section.details = ""
            section.summary = section.state_summary = None
            section.needs_summary = True
        for el in section.elements:
            if el.url:
                el.url = redact_url(el.url)
            if "href" in el.attrs:
                el.attrs["href"] = redact_url(el.attrs["href"])
            if el.is_typed_field or el.is_password:
                el.value = None
                if el.tag != "input" and el.tag != "textarea":
                    el.text = ""  # a contenteditable region's text is what was typed into it
    return copy


def all_sections(pm: PageMem) -> Iterable[PageSection]:
    """Every section of the page, the items of a list section included."""
    for s in pm.sections:
        yield s
        yield from s.items
