"""Compound search actions (the real-apps issue, item 4): a search box is also offered together with what the task
identifies its row by, `search searchbox "Search" for "110"`. Chosen, it types that value and presses Enter (the
search workflow, act/search.py, with the query given), so one choice does what took a choice and a search_query
call, and the small model sees which box leads to the row the task names ("the customer who placed order #110":
the default model went to Customers and sorted them instead of searching Orders for 110).

The values are the task's own identifiers (observe/values.py identifiers): a number or code, an email, a quoted
string or a name, the most selective first; a value that is the name of one of the page's buttons or links
("press "Search"") is a control, not a query.

A search for a value the page shows nowhere is kept past the candidate filtering call and offered first
(`unseen_searches`): the row the task names is not on this page, and the search box is the one way to it that
costs a single step. On the
held-out admin's product list, asked for the Turntable's price (on the list's third page), the filtering call
kept only "Add product", and the task was lost on the add form.
"""

from __future__ import annotations

from typing import Callable, Iterable
from urllib.parse import urlsplit

from companion.act.elements import SEARCH_WORDS, is_search_field, label
from companion.act.models import Candidate
from companion.observe.values import identifiers
from companion.pagemem.model import Element, PageMem, PageSection
from companion.text import content_words, names_in

MAX_TERMS = 2  # per search box: each is one more line in the action prompt
MAX_TERM_CHARS = 60
MAX_PAGE_NAME_WORDS = 3  # "Orders", "Purchase orders": a longer link text is a sentence, not the page's name
_ORDER = {"number": 0, "email": 1, "name": 2}  # the most selective first


def search_terms(task: str, controls: set[str] | frozenset[str] = frozenset(), related: list[str] = ()) -> list[str]:
    """What to search for, from the task: at most MAX_TERMS values, none of them a control's name (lower case); then
    at most MAX_TERMS values the rows the task names joined it to (`related`: the order's customer), latest first."""
    values = sorted((v for v in identifiers(task, one_word=True) if v.kind in _ORDER), key=lambda v: _ORDER[v.kind])
    terms = [v.text for v in values if len(v.text) <= MAX_TERM_CHARS and v.text.lower() not in controls]
    joined = [t for t in reversed(related) if len(t) <= MAX_TERM_CHARS and t.lower() not in controls]
    return list(dict.fromkeys(terms))[:MAX_TERMS] + [t for t in dict.fromkeys(joined) if t not in terms][:MAX_TERMS]


def page_controls(pm: PageMem) -> set[str]:
    """The names of the page's buttons and links, lower case."""
    return control_names(pm.all_elements())


def control_names(elements: Iterable[Element]) -> set[str]:
    """The names of these elements' buttons and links, lower case."""
    return {" ".join((e.name or e.text).split()).lower() for e in elements
            if e.role in ("button", "link") and (e.name or e.text)}


def page_name(pm: PageMem) -> str | None:
    """What the page is called on its own site: the name of the one short link on it to its own address (a
    sidebar's or a tab bar's entry for the page: "Orders" on the order list), None when there is none or such links
    disagree. A link with a query or a fragment is another view of the page ("All": ?, "Skip to content": #main)."""
    here = urlsplit(pm.url)
    names = {" ".join((el.name or el.text).split()) for el in pm.all_elements()
             if el.role == "link" and el.url and "?" not in el.url and "#" not in el.url
             and _same_path(el.url, here) and 0 < len((el.name or el.text).split()) <= MAX_PAGE_NAME_WORDS}
    return names.pop() if len(names) == 1 else None


def _same_path(url: str, here) -> bool:
    to = urlsplit(url)
    return to.netloc == here.netloc and to.path.rstrip("/") == here.path.rstrip("/")


def searches_this_page(target: str, url: str) -> bool:
    """A form sent to this page's own address searches what the page lists, not the whole site (`target`: where
    the form is sent, as the browser resolved it; a form without an action is sent to the page itself)."""
    return bool(target) and _same_path(target, urlsplit(url))


def search_candidates(terms: list[str], el: Element, section: PageSection, list_name: str | None = None) -> list[Candidate]:
    """The compound actions of one search box: one per term (none when `el` is no search box). A box that searches
    the page's own list and whose name says only "Search" is said by the list's name (`list_name`, page_name):
    'search Orders for "SO-1010"'. Offered 'search textbox "Search" for "SO-1010"' first on the order list, the
    default model took the sidebar's "Customers" for "the customer who placed order SO-1010"."""
    if not terms or not is_search_field(el, section):
        return []
    box = list_name if list_name and not content_words(SEARCH_WORDS.sub("", el.name or "")) else label(el)
    return [Candidate(kind="element", label=f'search {box} for "{term}"', element=el.ref,
                      section_id=section.id, text=term) for term in terms]


def unseen_searches(offered: list[Candidate], pm: PageMem, sends: Callable[[Element], bool]) -> list[str]:
    """The keys of the compound searches whose term no section of the page shows (a search already run shows it,
    in its box and its results), of boxes that `sends` (in a form: a query to the site). A box outside every form
    filters what the page holds at most (the admin's sidebar "Filter navigation items"), which the term is not in."""
    searches = [c for c in offered if c.kind == "element" and c.text and c.element is not None]
    if not searches:
        return []
    text = "\n".join(s.details for s in pm.sections)
    return [c.key for c in searches if not names_in(text, c.text or "")
            and (el := pm.element_by_ref(c.element)) is not None and sends(el)]
