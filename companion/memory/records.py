"""Typed records of what a site's memory learned about element behaviour and page use (learn.py writes them).

DropdownRecord  — a trigger whose click revealed elements on the same page (the paper's dropdown elements),
                  by stable keys (pagemem/identity.py), with role and name so a later visit can show them
                  before anything is clicked.
LinkRecord      — a click that navigated from one page to another (counted).
PageStats       — per page: how often it was visited (by the agent or the user), and which pages link to it
                  from outside long content lists (the input of the bookmark rule, learn.py).
ControlRecord   — one control of a page: a search box, or the links that only change one query parameter of
                  the page (sort keys, filter choices, pagination: explore/controls.py), so a query variant is
                  remembered as what it does to the page, not as a page of its own.

Bookmark and Template stay in pagemem/model.py (the paper's WebsiteMem).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

Source = Literal["agent", "explore", "passive"]


class Record(BaseModel):
    # Unknown fields are refused so an old or hand-edited memory file fails loudly, not silently.
    model_config = ConfigDict(extra="forbid")


class RevealedElement(Record):
    key: str = Field(description="stable key on the page as it is with the trigger opened")
    role: str
    name: str = ""


class DropdownRecord(Record):
    trigger_key: str
    url: str = Field(description="normalized URL of the page it was recorded on")
    template_id: str = Field("", description="the page's structure (PageMem.template_id): pages of one template share it")
    role: str = ""
    name: str = Field("", description="the trigger's accessible name")
    elements: list[RevealedElement] = Field(default_factory=list)
    revealed: int = Field(0, ge=0, description="how many elements the click revealed (`elements` keeps the first "
                                               "learn.MAX_REVEALED); 0 in records written before it was counted")
    source: Source = "agent"

    def labels(self) -> list[str]:
        return [e.name or e.role for e in self.elements]


class LinkRecord(Record):
    from_url: str
    to_url: str
    key: str = Field(description="stable key of the clicked element")
    name: str = ""
    in_list_item: bool = Field(False, description="the element was inside a list item (its target is a template page)")
    clicks: int = 1


class PageStats(Record):
    url: str
    title: str = Field("", description="the page's title when it was visited")
    name: str = Field("", description="the name of a link leading here (a title for pages not visited yet)")
    summary: str = Field("", description="the page summary when one was made")
    visits: int = Field(0, description="page entries by the agent or the user (exploration does not count)")
    linked_from: list[str] = Field(default_factory=list, description="pages linking here from outside long lists (capped)")
    clicks_in: int = Field(0, description="recorded clicks by the agent or the user that navigated here")


ControlKind = Literal["search", "sort", "filter", "pagination", "view"]


class ControlRecord(Record):
    url: str = Field(description="normalized URL of the page the control belongs to")
    kind: ControlKind
    param: str = Field("", description="the query parameter it sets (a search box: its field's name)")
    label: str = Field("", description="what it sorts, filters or searches by, in words")
    choices: list[str] = Field(default_factory=list, description="link names of its values, in document order (capped)")
    count: int = Field(0, ge=0, description="how many distinct choices the page shows")


__all__ = ["ControlKind", "ControlRecord", "DropdownRecord", "LinkRecord", "PageStats", "RevealedElement", "Source"]
