"""The typed records exploration passes between its stages (paper A.2 names in the comments).

Stub           a URL-only PageMem stub on the frontier, with its depth and the is_list_item flag.
ExploreTarget  one element IteratePage may click: its stable key (to find it again after a reload), its
               exploration key (what E_w deduplicates by: pagemem/identity.py), and ShouldSkip's verdict.
ClickOutcome   what ExploreElement saw: a navigation, revealed elements (the dropdown elements), nothing.
PageResult     what a worker brings back from one page: the PageMem of its first load, every candidate, and
               the outcome of every click it made. The coordinator decides from it what is committed.
Limits         the flags (--max-depth, --max-pages, --max-elements, --max-time).
ExploreCounts  what the closing report prints; persisted with the frontier so a resumed run adds up.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from companion.pagemem.model import Element, PageMem
from companion.protocol import ElementRef

MAX_NESTING = 3  # a dropdown inside a dropdown inside a dropdown is as deep as menus go


class ExploreModel(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Stub(ExploreModel):
    url: str = Field(description="normalized URL (memory/store.normalize_url)")
    depth: int = Field(0, ge=0, description="clicks away from the start page")
    list_item: bool = Field(False, description="reached from an element of a list item: the page becomes a template")


class ExploreTarget(ExploreModel):
    key: str = Field(description="stable element key in its page state (identity.element_key)")
    dedup_key: str = Field(description="what the explored set E_w holds (identity.exploration_key)")
    element: Element
    skip: str | None = Field(None, description="ShouldSkip's reason; None: may be clicked")
    in_list_item: bool = False
    free: bool = Field(False, description="what it reveals is read without a click (a native select's options, an open "
                                          "<details>' content): recorded on every page, never counted as a click")
    shows: list[ElementRef] = Field(default_factory=list, description="an open disclosure's content, as wire addresses")


class ClickOutcome(ExploreModel):
    path: list[str] = Field(default_factory=list, description="keys of the triggers opened before this click")
    key: str
    navigated_to: str | None = Field(None, description="the URL the click led to (a new document)")
    revealed: list[ExploreTarget] = Field(default_factory=list, description="Δ+: elements the click revealed on the page")
    after: PageMem | None = Field(None, description="the page as it was with the revealed elements (learn_click reads it)")
    hid: bool = Field(False, description="the click closed an open disclosure: `revealed` are the elements it hid")
    clicked: bool = Field(True, description="False: learned without a click (a native select's options, a new-tab link)")
    error: str | None = None


class PageResult(ExploreModel):
    url: str = Field(description="the stub's URL")
    final_url: str = Field("", description="normalized URL after redirects")
    pagemem: PageMem | None = None
    candidates: list[ExploreTarget] = Field(default_factory=list, description="top-level elements, document order")
    outcomes: list[ClickOutcome] = Field(default_factory=list)
    iterated: bool = Field(False, description="False: the worker's view already had a matching template")
    error: str | None = Field(None, description="the page could not be loaded or read")

    def outcome(self, path: tuple[str, ...], key: str) -> ClickOutcome | None:
        for o in self.outcomes:
            if o.key == key and tuple(o.path) == path:
                return o
        return None


class Limits(ExploreModel):
    max_depth: int = Field(6, ge=0, description="clicks away from the start page")
    max_pages: int = Field(200, ge=1, description="pages registered by this exploration, resumed runs included")
    max_elements: int = Field(60, ge=0, description="elements explored per page (revealed ones included)")
    max_time: float = Field(1800.0, gt=0, description="seconds of this run")


class ExploreCounts(ExploreModel):
    pages: int = 0
    templates: int = 0
    template_pages: int = Field(0, description="pages that matched a template: registered, not iterated")
    dropdowns: int = Field(0, description="elements whose click revealed elements")
    navigations: int = 0
    clicks: int = Field(0, description="clicks spent on committed pages")
    skipped_by_template: int = Field(0, description="clicks the pages that matched a template would have cost")
    skipped_by_list_item: int = Field(0, description="elements of further list items, the same as the first item's")
    skipped_explored: int = Field(0, description="elements already explored on another page (E_w)")
    skipped_unsafe: int = Field(0, description="ShouldSkip")
    skipped_by_limit: int = Field(0, description="--max-elements")
    beyond_depth: int = Field(0, description="pages found past --max-depth")
    controls: int = Field(0, description="links that only change a registered page's query: its controls, not pages")
    failed: int = Field(0, description="pages or clicks that failed")
    reruns: int = Field(0, description="pages explored again because a worker had an older view of the memory")

    @property
    def naive_clicks(self) -> int:
        """What an explorer without template and list-item deduplication would at least spend."""
        return self.clicks + self.skipped_by_template + self.skipped_by_list_item


class ExploreState(ExploreModel):
    """The persisted exploration of one start URL: resumes where a stopped run left off."""

    start_url: str
    stack: list[Stub] = Field(default_factory=list, description="the depth-first frontier; the last entry is next")
    done: list[str] = Field(default_factory=list, description="URLs explored (registered, or found to be a control of "
                            "a registered page), in commit order")
    iterated: list[str] = Field(default_factory=list, description="the pages among them whose elements were clicked")
    shapes: dict[str, list[str]] = Field(default_factory=dict, description="URL path pattern -> structures (PageMem."
                                         "template_id) of the pages registered there (explorer._shapes)")
    bases: dict[str, list[str]] = Field(default_factory=dict, description="scheme://host/path -> the pages registered "
                                        "there, in order: what a query variant is a control of (explorer._base_of)")
    query_roles: dict[str, dict[str, str]] = Field(default_factory=dict, description="URL path pattern -> the query "
                                                   "parameters a link changes -> 'control' or 'page' (controls.py)")
    counts: ExploreCounts = Field(default_factory=ExploreCounts)
    finished: bool = False
