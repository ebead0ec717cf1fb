"""ExplorePage (WebChallenger, appendix A.2), the part a worker does on its tab: load the stub's URL, run
DividePage on the fresh document, and unless its structure is a shape the worker knows of, iterate
it (IteratePage) with live clicks. What is registered, which template it becomes and which stubs go on the
frontier is decided when the result is committed (explorer.py), against the site's memory as it is then.
"""

from __future__ import annotations

from companion.explore.controls import is_same_view
from companion.explore.explore_element import ExploreElement, page_candidates
from companion.explore.iterate import iterate_page
from companion.explore.model import ExploreModel, PageResult
from companion.explore.tabs import ExploreTab, PageLoadError
from companion.memory.store import normalize_url, site_key
from companion.pagemem.model import PageMem


class PageJob(ExploreModel):
    """What a worker needs to explore one page: its URL and the memory as the coordinator knew it."""

    url: str
    explored: set[str] = set()  # E_w
    known_shapes: list[str] = []  # structures of the pages explored at the same URL path pattern (explorer._shapes)
    max_elements: int = 60
    base: PageMem | None = None  # the registered page this URL may be a query variant of (controls.py)


async def explore_page(tab: ExploreTab, job: PageJob) -> PageResult:
    clicker = ExploreElement(tab, job.url)
    try:
        try:
            first = await clicker.open()
        except PageLoadError:  # once more: a busy machine times out now and then
            first = await clicker.open()
    except PageLoadError as exc:
        return PageResult(url=job.url, error=str(exc))
    result = PageResult(url=job.url, final_url=normalize_url(first.url), pagemem=first.model_copy(deep=True),
                        candidates=page_candidates(first, clicker.snapshot))
    if site_key(first.url) != site_key(job.url):
        return result  # redirected off the site: nothing of it is explored
    if first.template_id in job.known_shapes:
        return result  # MatchesTemplate (at this URL pattern): a known shape, its element behaviour is learned already
    if job.base is not None and is_same_view(first, job.base):
        return result  # a query variant showing its base page's view: one of that page's controls, not a page
    clicker.url = first.url  # restore to where the stub led (a redirect is not followed again on every reload)
    await iterate_page(result.candidates, clicker, set(job.explored), max_elements=job.max_elements,
                       page_url=first.url, is_known=lambda url: False, depth=0)
    result.outcomes = clicker.outcomes
    result.iterated = True
    return result


__all__ = ["PageJob", "PageLoadError", "explore_page"]
