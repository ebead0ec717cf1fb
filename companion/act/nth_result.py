"""The Nth result a task asks for, counted over a results list's pages: "find and click the 6th search result" on
a list of three results a page is the 3rd result of page 2. The default model, three results in sight, pressed
Search again and again and ended saying it had clicked the 6th (pure: act/premature.check_nth_result refuses
another result, agent/finish.py an end, each pointing at the result or at the page link that leads to it).

The results are the links of the section holding most links that are not a pagination bar's; the page shown is
the numbered page link marked chosen (aria-current, or its list item's class: pagemem/divide.py), page 1 when no
numbered link is marked and "1" is no link (it is the page shown), else unknown (then nothing is said). Results a
page are those shown, read on any page but the last; on the last, those read on an earlier page (`per_page_seen`,
kept by the caller), or nothing is said.
"""

from __future__ import annotations

import math
import re
from collections import defaultdict
from dataclasses import dataclass

from companion.pagemem.model import Element, PageMem
from companion.pagemem.widgets import is_page_link_name
from companion.text import ORDINAL, place

_NTH_RESULT = re.compile(r"\bthe\s+(?P<nth>" + ORDINAL + r")\s+(?:search\s+)?result\b", re.I)
_NEXT = re.compile(r"^\s*(?:next|›|»|>|→)\s*", re.I)


@dataclass
class ResultPlace:
    said: str  # "the 6th search result"
    nth: int
    page: int  # the page holding it
    current: int  # the page shown
    per_page: int
    results: list[Element]  # the results shown, in order
    target: Element | None  # the result itself, when on the page shown
    page_link: Element | None  # else the link toward its page (its number, or "Next")
    last_page: bool = False  # the page shown is the list's last: its results a page were read elsewhere

    @property
    def way(self) -> Element | None:
        return self.target or self.page_link

    def where(self) -> str:
        if self.target is not None:
            at = self.nth - (self.page - 1) * self.per_page
            return f'{self.said} is "{self.target.name or self.target.text}" ({at} of {len(self.results)} on this page, ' \
                   f"page {self.current})"
        toward = f'; open page {self.page} first ("{self.page_link.name or self.page_link.text}")' if self.page_link else ""
        return f"{self.said} is on page {self.page} ({self.per_page} results a page, this is page {self.current}){toward}"


def result_links(pagemem: PageMem) -> list[Element]:
    """The links of the section holding most links that are not a pagination bar's, in page order."""
    groups: dict[str, list[Element]] = defaultdict(list)
    for e in pagemem.all_elements():
        if e.role == "link" and not e.disabled and not is_page_link_name(e.name or e.text) and not e.column_header:
            section = pagemem.section_of(e.ref)
            groups[section.id if section is not None else ""].append(e)
    best = max(groups.values(), key=len, default=[])
    return best if len(best) >= 2 else []


def nth_result(task: str, pagemem: PageMem | None, per_page_seen: int | None = None) -> ResultPlace | None:
    m = _NTH_RESULT.search(task)
    if pagemem is None or m is None or m.group("nth").lower() == "last":
        return None
    results = result_links(pagemem)
    if not results:
        return None
    numbered = {int(t): e for e in pagemem.all_elements()
                if e.role == "link" and (t := (e.name or e.text).strip()).isdigit() and len(t) <= 3}
    chosen = [n for n, e in numbered.items() if e.selected or e.attrs.get("aria-current")]
    if len(chosen) == 1:
        current = chosen[0]
    elif not chosen and 1 not in numbered:
        current = 1
    else:
        return None
    last = bool(numbered) and current > 1 and current >= max(numbered)
    if last and per_page_seen is None:
        return None  # the last page may hold fewer: results a page is not read here
    per_page = per_page_seen if last and per_page_seen else len(results)
    nth = place(m.group("nth"), per_page)
    page = math.ceil(nth / per_page)
    at = nth - (page - 1) * per_page - 1
    target = results[at] if page == current and 0 <= at < len(results) else None
    link = None
    if target is None:
        link = numbered.get(page) or (next((e for e in pagemem.all_elements() if e.role == "link"
                                            and _NEXT.match(e.name or e.text)), None) if page > current else None)
    return ResultPlace(said=m.group(0), nth=nth, page=page, current=current, per_page=per_page, results=results,
                       target=target, page_link=link, last_page=last)
