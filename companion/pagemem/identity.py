"""Element identity that survives a reload: the stable key memory uses (ARCHITECTURE "two addresses").

The wire address (frame id, element id) is valid within one document only. Memory (the explored set E_w,
dropdown elements, the user's recorded clicks) needs a key that names the same element on the next load of
the page and on every page of its template. It is built from what a reader would use to find the element
again, never from ids the page assigns per load:

  - where it is: the structural signature of its section (template.py); inside a list, the list's and the
    item's signatures;
  - what it is: its role and accessible name (lower-cased, whitespace collapsed; digits kept, so "Page 2"
    and "Page 3" differ; a glyph's added meaning left out, icon_names.seen_glyph);
  - where it goes: for links, host and path of the resolved href (the query's names only: values may be
    secrets, session ids or per-visit tokens; the fragment is dropped);
  - its rank among equals: how many earlier elements of the page share all of the above, in document order
    (two "Add to cart" buttons of one product list are item 1's and item 2's).

`list_item_key` is the key of an element relative to its list item: the same for "the title link of an item"
in every item of a list (and in the same list on every page of a template), so exploration clicks one item's
elements and treats the others as the same (IterateListItem). Link targets count with their digits folded:
/orders/3/change and /orders/4/change are one kind of page, a menu's /home and /shoes are not.

Keys are short hashes: they go into memory files and logs, and must not spell out what the page showed.
"""

from __future__ import annotations

import hashlib
from typing import Iterable
from urllib.parse import parse_qsl, urljoin, urlsplit

from pydantic import BaseModel

from companion.pagemem.icon_names import seen_glyph
from companion.pagemem.model import Element, PageMem, PageSection
from companion.pagemem.template import fold, normalize_classes
from companion.text import normalized

KEY_CHARS = 20


class ElementIdentity(BaseModel):
    """The parts of an element's stable key (element_key hashes them). Shown by debugging tools."""

    place: tuple[str, ...]  # ("s", section signature) or ("li", list signature, item signature)
    role: str
    name: str
    target: str = ""
    rank: int = 0

    def key(self) -> str:
        raw = "\x1f".join((*self.place, self.role, self.name, self.target, str(self.rank)))
        return hashlib.sha1(raw.encode("utf-8", "surrogatepass")).hexdigest()[:KEY_CHARS]


def normalize_name(name: str) -> str:
    """Accessible name as a key: lower-case, whitespace collapsed, digits kept."""
    return normalized(name)


def _key_name(element: Element) -> str:
    """The name part of a stable key: a glyph control's name without the meaning render added to it
    ('× (close)' keys as '×', as it did before), so memories of such controls still find them."""
    return normalize_name(seen_glyph(element.name))


def href_target(element: Element, page_url: str = "") -> str:
    """host/path of the element's link target with the query's parameter names (not values); '' without href.
    The browser's resolved URL when the snapshot has it (a <base> counts), else the href resolved against the
    page; non-web schemes keep only the scheme ('mailto:')."""
    href = element.attrs.get("href")
    if href is None:
        return ""
    href = href.strip()
    if not href or href.startswith("#"):
        return "#"
    resolved = element.url if element.url and not element.url_truncated else (urljoin(page_url, href) if page_url else href)
    parts = urlsplit(resolved)
    if parts.scheme not in ("http", "https", "file", ""):
        return parts.scheme + ":"
    names = sorted({k for k, _ in parse_qsl(parts.query, keep_blank_values=True)})
    path = parts.path or "/"
    if len(path) > 1:
        path = path.rstrip("/")
    return (parts.netloc.lower() + path) + ("?" + "&".join(names) if names else "")


def _placed(pagemem: PageMem) -> Iterable[tuple[Element, tuple[str, ...], PageSection | None]]:
    """Every element of the page in document order with its place, and its list item (None outside one)."""
    for section in pagemem.sections:
        for el in section.elements:
            yield el, ("s", section.signature), None
        for item in section.items:
            place = ("li", section.signature, item.signature)
            for el in item.all_elements():
                yield el, place, item


def element_identities(pagemem: PageMem) -> dict[tuple[int, int], ElementIdentity]:
    """The identity of every element of the page, by wire address."""
    out: dict[tuple[int, int], ElementIdentity] = {}
    seen: dict[tuple, int] = {}
    for el, place, _ in _placed(pagemem):
        ident = ElementIdentity(place=place, role=el.role, name=_key_name(el), target=href_target(el, pagemem.url))
        base = (ident.place, ident.role, ident.name, ident.target)
        ident.rank = seen.get(base, 0)
        seen[base] = ident.rank + 1
        out[el.key] = ident
    return out


def element_keys(pagemem: PageMem) -> dict[tuple[int, int], str]:
    """The stable key of every element of the page, by wire address (frame, id)."""
    return {ref: ident.key() for ref, ident in element_identities(pagemem).items()}


def element_key(pagemem: PageMem, element: Element) -> str:
    """The stable key of one element of the page. An element that is in no section of the page (a synthesized
    or detached one) is keyed by what it is alone, at rank 0."""
    ident = element_identities(pagemem).get(element.key)
    if ident is None:
        ident = ElementIdentity(place=("",), role=element.role, name=_key_name(element),
                                target=href_target(element, pagemem.url))
    return ident.key()


def _shape(el: Element) -> tuple[str, str, str]:
    return (el.tag, el.role, normalize_classes(el.attrs.get("class", "")))


def list_item_keys(pagemem: PageMem) -> dict[tuple[int, int], str]:
    """For every element inside a list item: its key relative to the item (see list_item_key)."""
    out: dict[tuple[int, int], str] = {}
    for section in pagemem.sections:
        for item in section.items:
            seen: dict[tuple, int] = {}
            for el in item.all_elements():
                target = href_target(el, pagemem.url)
                shape = (*_shape(el), fold(target))
                rank = seen.get(shape, 0)
                seen[shape] = rank + 1
                raw = "\x1f".join(("item", section.signature, item.signature, *shape, str(rank)))
                out[el.key] = hashlib.sha1(raw.encode("utf-8", "surrogatepass")).hexdigest()[:KEY_CHARS]
    return out


def list_item_key(pagemem: PageMem, element: Element) -> str | None:
    """The key of an element relative to its list item: list and item signatures, the element's tag, role,
    classes and digit-folded link target, and its rank among such elements within the item. Names are left
    out (each item names its own product), so the "title link" of every item shares one key; the target is
    kept, so a menu's items (/home, /shoes: different pages) do not, while /p/1 and /p/2 (one kind of page)
    do. None for an element outside every list item."""
    return list_item_keys(pagemem).get(element.key)


def exploration_key(pagemem: PageMem, element: Element) -> str:
    """What exploration deduplicates by: the list-item key inside a list item, else the element key."""
    return list_item_key(pagemem, element) or element_key(pagemem, element)


__all__ = ["ElementIdentity", "element_identities", "element_key", "element_keys", "exploration_key", "href_target",
           "list_item_key", "list_item_keys", "normalize_name"]
