"""Page and section summaries during exploration (the paper: "for each page visited, we extract its title
and summarize it"), with the observation pipeline's own calls (observe/abstraction.py): a section's purpose,
summary and state, then the page's one-sentence summary. Cached by content in the site's memory, so the
pages of one template cost calls only for what differs. `--no-summaries` leaves them out.
"""

from __future__ import annotations

from companion.memory.store import WebsiteMemStore
from companion.observe.abstraction import abstract_sections, summarize_page
from companion.observe.budget import Budget
from companion.observe.calls import Accounting, Caller, LLMLike
from companion.pagemem.model import PageMem


class Summarizer:
    def __init__(self, client: LLMLike | None = None, budget: Budget | None = None) -> None:
        self.budget = budget or Budget()
        self.accounting = Accounting()
        self.caller = Caller(client, self.budget, self.accounting)

    @property
    def calls(self) -> int:
        return self.accounting.count

    async def __call__(self, pagemem: PageMem, store: WebsiteMemStore) -> None:
        store.apply_cached(pagemem)
        await abstract_sections(self.caller, pagemem.sections, pagemem, store, self.budget)
        await summarize_page(self.caller, pagemem, store, self.budget)


__all__ = ["Summarizer"]
