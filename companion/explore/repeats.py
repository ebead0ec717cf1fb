"""Repeated elements outside list sections: the rows of a results table that DividePage kept whole.

§2.3: "If a page contains many repeated elements with the same structure (such as a list or table of
results), then we only explore elements contained within one item/row". DividePage makes a list section of
a run of alike siblings, and pagemem/identity.py keys list-item elements relative to their item, so those
are explored once. A table that fits one section's token bound stays a normal section, though (its rows
are grandchildren of the grouping <table>), and its rows' links have names of their own ("Smith",
"Jones"): keyed by name, every row would be a new element and every object a new page.

The repeat key names an element by what makes it repeat, not by what it shows: its section's signature, its
tag, role and classes, and where it leads with digits folded and only the query's parameter names kept
(identity.href_target): /customer/6/change/ and /customer/11/change/ are one element, and so are the
values of one filter (?tier=gold, ?tier=silver) and the pages of a pager. A control without a link target
(or with href="#") is named by its accessible name with digits folded, so "Account" and "Help" menu buttons
stay apart while the days of a date picker ("1" ... "31") are one. Elements that
share a repeat key MIN_REPEATS times or more on one page count as list items (their pages become templates,
the paper's is_list_item rule).
"""

from __future__ import annotations

import hashlib

from companion.pagemem.identity import KEY_CHARS, href_target, normalize_name
from companion.pagemem.model import Element
from companion.pagemem.template import fold, normalize_classes

MIN_REPEATS = 4  # DividePage's min_list_run: as many alike siblings as make a list


def repeat_key(element: Element, section_signature: str, page_url: str) -> str:
    target = href_target(element, page_url)
    what = fold(target) if target and target != "#" and not target.endswith(":") else "name:" + fold(normalize_name(element.name))
    raw = "\x1f".join(("repeat", section_signature, element.tag, element.role,
                       normalize_classes(element.attrs.get("class", "")), what))
    return hashlib.sha1(raw.encode("utf-8", "surrogatepass")).hexdigest()[:KEY_CHARS]


__all__ = ["MIN_REPEATS", "repeat_key"]
