"""Structural signatures and MatchesTemplate (WebChallenger, Appendix A.2).

A section's signature hashes what a selector would use — kind, tag, classes, id/role/name/type of its
root, its parent's tag and classes, and for lists the item tag and classes — never its text. Digits in
ids and classes are folded (`product-123` ~ `product-456`) and state classes (active, selected, ...)
are dropped, so two product pages built from one template sign alike. Two pages match when they have
the same number of sections and pairwise equal signatures; no similarity threshold is needed because
DividePage is deterministic.
"""

from __future__ import annotations

import hashlib
import re
from functools import lru_cache
from typing import Sequence

from companion.pagemem.model import PageMem

SELECTOR_ATTRS = ("id", "role", "name", "type")
_DIGITS = re.compile(r"\d+")
STATE_CLASSES = frozenset({
    "active", "selected", "current", "open", "opened", "closed", "collapsed", "expanded", "hidden", "visible",
    "disabled", "enabled", "focus", "focused", "hover", "first", "last", "odd", "even", "show", "in",
    "is-active", "is-selected", "is-current", "is-open", "is-hidden", "is-visible", "is-disabled", "is-expanded",
    "checked", "loading", "loaded",
})


def fold(value: str) -> str:
    return _DIGITS.sub("#", value)


def normalize_classes(classes: str) -> str:
    """Class attribute as a stable key: digits folded, state classes dropped, order kept."""
    seen: list[str] = []
    for c in classes.split():
        c = fold(c)
        if c.lower() in STATE_CLASSES or c in seen:
            continue
        seen.append(c)
    return " ".join(seen)


def selector_attrs(attrs: dict[str, str]) -> dict[str, str]:
    return {k: attrs[k] for k in SELECTOR_ATTRS if attrs.get(k)}


def structural_signature(kind: str, tag: str, classes: str, attrs: dict[str, str], parent_tag: str = "",
                         parent_classes: str = "", item_tag: str = "", item_classes: str = "") -> str:
    selectors = tuple((k, attrs[k]) for k in SELECTOR_ATTRS if attrs.get(k))
    return _signature(kind, tag, classes, selectors, parent_tag, parent_classes, item_tag, item_classes)


@lru_cache(maxsize=8192)
def _signature(kind: str, tag: str, classes: str, selectors: tuple, parent_tag: str, parent_classes: str,
               item_tag: str, item_classes: str) -> str:
    # Cached: the items of one list share all of these, and a big list has thousands of them.
    parts = [kind, tag, normalize_classes(classes)]
    parts += [f"{k}={fold(v)}" for k, v in selectors]
    parts += [parent_tag, normalize_classes(parent_classes), item_tag, normalize_classes(item_classes)]
    return hashlib.sha1("\x1f".join(parts).encode()).hexdigest()[:16]


def page_template_id(signatures: Sequence[str]) -> str:
    return hashlib.sha1("\n".join(signatures).encode()).hexdigest()[:16]


def matches_template(page: PageMem, template: PageMem | Sequence[str]) -> bool:
    """Same number of sections and each pair of sections structurally equal."""
    mine = [s.signature for s in page.sections]
    theirs = [s.signature for s in template.sections] if isinstance(template, PageMem) else list(template)
    return len(mine) == len(theirs) and all(a == b for a, b in zip(mine, theirs))
