"""Bookmarks at task start: the LLM may pick some of the site's WebsiteMem bookmarks; they stay available
as navigation candidates for the whole task (B_tau in the paper). They are the user's own and the learned
ones (memory/learn.py: the pages most linked across the site and those visited most, from exploration,
passive learning and earlier tasks), shown as "title (url): note"."""

from __future__ import annotations

from companion import llm
from companion.llm.fit import declare_subset
from companion.memory.store import WebsiteMemStore
from companion.pagemem.model import Bookmark

MAX_BOOKMARKS = 5
declare_subset("bookmark_selection", max_items=MAX_BOOKMARKS)


async def choose_bookmarks(task: str, store: WebsiteMemStore | None) -> list[Bookmark]:
    if store is None:
        return []
    available = store.bookmarks()
    if not available:
        return []  # no call when there is nothing to choose
    labels = [f"{b.title or b.url} ({b.url})" + (f": {b.note}" if b.note else "") for b in available]
    # With no valid answer, none: bookmarks only add navigation candidates, the task goes on without them.
    reply = await llm.or_stand_in(llm.choose_many("bookmark_selection", {"task": task, "bookmarks": labels},
                                                  n=len(labels), max_items=MAX_BOOKMARKS),
                                  lambda: None, prompt="bookmark_selection", what="no bookmark")
    return [available[i] for i in reply.answer.indices] if reply is not None else []
