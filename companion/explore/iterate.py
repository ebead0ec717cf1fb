"""IteratePage and IterateListItem (WebChallenger, appendix A.2): which elements of a page are clicked, in
document order, and what their clicks add to the frontier.

An element is clicked once per site: the explored set E_w holds exploration keys (pagemem/identity.py), so the
navigation bar explored on the home page costs nothing on every later page. Inside a list, the key of an
element is relative to its item, so the title link of item 2 is the title link of item 1 (IterateListItem:
the elements of one item are explored, those of the other items are counted as deduplicated). A list whose
items lead to different kinds of pages (a menu: /orders/, /customers/) gives them different keys, so each
is explored: such items are not alike. Elements a click revealed are explored recursively in the state the
click left (the dropdown is open), up to MAX_NESTING levels; every click counts against --max-elements.

The same iteration runs twice with different clickers: live on a worker's tab (explore_element.ExploreElement,
with the worker's possibly older copy of E_w), and at commit time over the clicks the worker recorded
(RecordedClicker, with the site's E_w as it is then). The committed result therefore is that of one
sequential explorer, whatever the number of workers; a click the commit needs that the worker did not
make raises NotRecorded, and the page is explored again with the current memory.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Callable, Protocol

from companion.explore.model import MAX_NESTING, ClickOutcome, ExploreTarget, PageResult, Stub
from companion.memory.store import normalize_url, site_key


class Clicker(Protocol):
    async def click(self, path: tuple[str, ...], candidate: ExploreTarget) -> ClickOutcome: ...


class NotRecorded(Exception):
    """The commit needs a click the worker did not make (its view of E_w was older)."""


class RecordedClicker:
    def __init__(self, result: PageResult) -> None:
        self.result = result

    async def click(self, path: tuple[str, ...], candidate: ExploreTarget) -> ClickOutcome:
        outcome = self.result.outcome(path, candidate.key)
        if outcome is None:
            raise NotRecorded(f"{candidate.key} under {list(path)}")
        return outcome


@dataclass
class IterationLog:
    outcomes: list[ClickOutcome] = field(default_factory=list)  # decided clicks, in the order they were made
    stubs: list[Stub] = field(default_factory=list)
    clicks: int = 0
    explored_keys: list[str] = field(default_factory=list)  # dedup keys added to E_w, in order
    # Element keys (identity.element_key) of elements not clicked because their twin was: their behaviour is known
    # too, and the agent looks elements up by that key (act/routing.py).
    covered_keys: list[str] = field(default_factory=list)
    skipped_unsafe: Counter = field(default_factory=Counter)  # ShouldSkip reason -> count
    skipped_explored: int = 0
    skipped_by_list_item: int = 0
    skipped_by_limit: int = 0
    failed: int = 0


def eligible(candidates: list[ExploreTarget], explored: set[str]) -> int:
    """How many of these a naive explorer would click on a page the template rule skipped: all that ShouldSkip
    allows and E_w does not hold yet, each distinct exploration key once."""
    seen: set[str] = set()
    n = 0
    for c in candidates:
        if c.skip is None and c.dedup_key not in explored and c.dedup_key not in seen:
            seen.add(c.dedup_key)
            n += 1
    return n


async def iterate_page(candidates: list[ExploreTarget], clicker: Clicker, explored: set[str], *, max_elements: int,
                       page_url: str, is_known: Callable[[str], bool], depth: int) -> IterationLog:
    """IteratePage: explore `candidates` (a page's elements in document order) with `clicker`; `explored` (E_w)
    is updated in place. Navigations to same-site pages that `is_known` does not know become stubs at depth+1,
    tagged list_item when the clicked element was in a list item."""
    log = IterationLog()
    site = site_key(page_url)
    here = normalize_url(page_url)
    stub_urls: set[str] = set()
    list_claimed: set[str] = set()  # dedup keys first explored in a list item of this page

    async def visit(path: tuple[str, ...], cand: ExploreTarget) -> None:
        if cand.skip is not None:
            log.skipped_unsafe[cand.skip] += 1
            return
        if cand.free:
            # Costs no click, so E_w does not apply: a list's actions and filters differ from page to page.
            log.outcomes.append(await clicker.click(path, cand))
            return
        if cand.dedup_key in explored:
            log.covered_keys.append(cand.key)
            if cand.in_list_item and cand.dedup_key in list_claimed:
                log.skipped_by_list_item += 1
            else:
                log.skipped_explored += 1
            return
        if log.clicks >= max_elements:
            log.skipped_by_limit += 1
            return
        explored.add(cand.dedup_key)
        log.explored_keys.append(cand.dedup_key)
        if cand.in_list_item:
            list_claimed.add(cand.dedup_key)
        outcome = await clicker.click(path, cand)
        log.outcomes.append(outcome)
        if outcome.clicked:
            log.clicks += 1
        if outcome.error:
            log.failed += 1
        target = outcome.navigated_to
        if target:
            url = normalize_url(target)
            if site_key(url) == site and url != here and url not in stub_urls and not is_known(url) \
                    and url.split(":", 1)[0] in ("http", "https"):
                stub_urls.add(url)
                log.stubs.append(Stub(url=url, depth=depth + 1, list_item=cand.in_list_item))
        # A native select's options are recorded, not clicked (outcome.clicked is False for them).
        # Elements a closing disclosure hid are the page's own, explored in their document order.
        if outcome.revealed and outcome.clicked and not outcome.hid and len(path) < MAX_NESTING:
            for revealed in outcome.revealed:
                await visit(path + (cand.key,), revealed)

    for cand in candidates:
        await visit((), cand)
    return log


__all__ = ["Clicker", "IterationLog", "NotRecorded", "RecordedClicker", "eligible", "iterate_page"]
