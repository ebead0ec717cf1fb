"""A list's own choices (its filter panel, the entries of its filter menus) read against the task: which ones a
question names, to offer first, and which ones it does not, to leave out of a panel of many.

A question narrows a list by a word it shares with a choice ("How many orders are pending?": "Pending"), or by the
title of a yes/no facet ("How many customers are inactive?": "No" under "By is active"; "in stock": "Yes" under
"In stock"). When the facet's choices are hidden in a closed menu, its title's button is the way to them. The
default model, asked for the inactive customers, was offered the closed facet "By is active" among 57 actions, the
filtering call kept "By joined on", and it answered the list's total, 30, as the count.

Only a question is led to a choice: in an errand the task's words name what to set ("Set the status to
discontinued"), and filtering the list by that value leads away from the record to change.
"""

from __future__ import annotations

import re

from companion.act.models import Candidate
from companion.act.premature import requeries_this_page
from companion.observe.structure import choice_titles
from companion.observe.values import identifiers
from companion.pagemem.model import Element
from companion.pagemem.widgets import is_page_link_name
from companion.task_asks import is_question
from companion.text import content_words

MANY_LIST_CHOICES = 8  # a filter panel, not a pair of tabs: below this the links stay, the model reads them all
_YES = frozenset({"yes", "true", "on"})
_NO = frozenset({"no", "false", "off"})
_NEGATIONS = ("in", "un", "non", "non-", "dis", "im", "ir", "il")  # "inactive", "unpaid", "non-taxable"
_NOT_BEFORE = re.compile(r"\b(?:not|no|never|without)\s+(?:been\s+|yet\s+|an?\s+)?([a-z][a-z-]+)", re.I)
_ENTRY_NAME = re.compile(r'^[a-z]+ "([^"]*)" \(in the menu of ')  # act/candidates.py hidden_candidates' label
MIN_TITLE_WORD = 4  # "by", "is" and other short words of a facet's title say nothing of what it filters


def is_paging_link(el: Element) -> bool:
    """A link to another page of the list ("2", "Next", "Show all")."""
    return el.role == "link" and is_page_link_name(el.name or el.text or "")


def plain_element(pm, c: Candidate) -> Element | None:
    """The element a candidate acts on as itself (not a remembered menu entry behind it, not a gesture)."""
    return pm.element_by_ref(c.element) if c.kind == "element" and c.element is not None and c.pick is None else None


def entry_name(c: Candidate) -> str | None:
    """A remembered menu entry's own name, from its label ('link "Discontinued" (in the menu of button "By status")')."""
    m = _ENTRY_NAME.match(c.label) if c.pick is not None else None
    return m.group(1) if m else None


def polarity(task: str, title: str) -> int:
    """How the task speaks of a facet's title: 1 when it says one of its words ("active"), -1 when it says the word
    negated ("inactive", "not active"), 0 when neither."""
    said = set(content_words(task))
    negated = {m.group(1).lower() for m in _NOT_BEFORE.finditer(task)}
    words = [w for w in content_words(title) if len(w) >= MIN_TITLE_WORD]
    if any(w in said and w not in negated for w in words):
        return 1
    if any(w in negated or any(p + w in said for p in _NEGATIONS) for w in words):
        return -1
    return 0


def _names_choice(task: str, asked: set[str], name: str, title: str) -> bool:
    """The task names this choice: by a word of its own, or (a yes/no choice) by its facet's title, in the sense
    the choice stands for."""
    if set(content_words(name)) & asked:
        return True
    word = name.strip().lower()
    if word in _YES or word in _NO:
        sense = polarity(task, title)
        return sense == 1 and word in _YES or sense == -1 and word in _NO
    return False


def list_choices(task: str, pm, offered: list[Candidate]) -> dict[str, bool]:
    """The links that only re-query this page (a filter's choices; not pages, not sort headers): key -> whether
    the task names it (_names_choice)."""
    asked = set(content_words(task))
    titles = {index: title for s in pm.sections for index, title in choice_titles(s).items()}
    choices: dict[str, bool] = {}
    for c in offered:
        el = plain_element(pm, c)
        if el is not None and _is_choice_link(el, pm.url):
            choices[c.key] = _names_choice(task, asked, (el.name or el.text or "").strip(), titles.get(el.index, ""))
    return choices


def with_facet_titles(pm, offered: list[Candidate]) -> list[Candidate]:
    """A list's choice link said with the title of the group it sits under: 'link "No" (under "By is active")'. A bare
    "No" among forty actions says nothing of being inactive: the default model, asked how many customers are
    inactive, was offered it first and chose the list's "Show all" instead."""
    titles = {index: title for s in pm.sections for index, title in choice_titles(s).items()}
    for c in offered:
        el = plain_element(pm, c)
        title = " ".join(titles.get(el.index, "").split()) if el is not None else ""
        if title and title != " ".join((el.name or el.text or "").split()) and _is_choice_link(el, pm.url):
            c.label = f'{c.label} (under "{title}")'
    return offered


def _is_choice_link(el: Element, url: str) -> bool:
    """A link that only re-queries this page and is none of its pages or sort headers: a filter's choice."""
    return (el.role == "link" and not el.column_header and requeries_this_page(el, url)
            and not is_page_link_name(el.name or el.text or ""))


def named_list_choices(task: str, pm, offered: list[Candidate]) -> list[str]:
    """In a question, the keys of the list's choices the task names, in page order: a choice the page shows
    ("Pending" for "How many orders are pending?"), a remembered entry of a filter menu it names ('link
    "Discontinued" (in the menu of button "By status")'), and the closed facet whose title it says when none of its
    choices is offered ('button "By is active"' for "How many customers are inactive?"). Offered first, as the way
    to the rows the question is about: the default model, offered "Pending" among 25 actions for that count, paged
    to the list's third page instead and counted what it saw there."""
    if not is_question(task):
        return []
    asked = set(content_words(task))
    shown = [key for key, named in list_choices(task, pm, offered).items() if named]
    out: list[str] = []
    for c in offered:
        if c.key in shown:
            out.append(c.key)
        elif c.kind == "element" and c.pick is not None and c.element is not None and c.label.startswith("link "):
            # (a filter menu's entries are links to the list under another query; a menu of buttons holds actions)
            trigger = pm.element_by_ref(c.element)
            entry = entry_name(c)
            if trigger is not None and entry and _names_choice(task, asked, entry, trigger.name or ""):
                out.append(c.key)
    if out or identifiers(task):
        # A record the task names by a code, number, email or name is found by a search or its row, not by a facet
        # whose title shares a word: "By placed at" (a date facet) for "the customer who placed order SO-1010",
        # offered first, was clicked five times in a step on the held-out admin.
        return out
    # No choice named is offered: a closed facet whose title the task says opens onto them.
    return [c.key for c in offered if (el := plain_element(pm, c)) is not None and el.role == "button"
            and el.expanded is not True and el.tag in ("summary", "button") and _is_facet_title(pm, el)
            and polarity(task, el.name or el.text or "") != 0]


def names_facet(task: str, pm, el: Element) -> bool:
    """The task names this control by its facet's title: a yes/no choice under a title it says in that sense, or
    a facet's title button it says ("By is active" for "inactive"). (A choice named by its own words is
    names_action's, agent/finish.py.)"""
    name = (el.name or el.text or "").strip()
    section = pm.section_of(el.ref)
    if section is None or not name:
        return False
    if el.role == "link" and name.lower() in _YES | _NO:
        return _names_choice(task, set(), name, choice_titles(section).get(el.index, ""))
    return el.role == "button" and el.index in choice_titles(section, titles_only=True) and polarity(task, name) != 0


def _is_facet_title(pm, el: Element) -> bool:
    """The button titles a group of choices in its section (a filter's disclosure: <details><summary>)."""
    section = pm.section_of(el.ref)
    return section is not None and el.index in choice_titles(section, titles_only=True)


def unnamed_list_choices(task: str, pm, offered: list[Candidate]) -> set[str]:
    """The keys of the links that only re-query this page (its path, another query: a filter's choice) and that the
    task does not name, when the page has MANY_LIST_CHOICES or more of them. They are the list's own controls:
    a filter choice the task does not name narrows the list to what the task does not ask about. On the held-out
    admin, the product list's 35 filter links filled a whole filtering call of a price lookup, of which the model
    kept "clearance". Pages ("2", "Next") stay: they show more of the list. A column header's sort link is
    sort_links_unasked's (act/candidates.py). (A link to this very URL is gone already: prefilter.)"""
    choices = list_choices(task, pm, offered)
    # Counted over the page, not the offered: a date bar's three years offered beside a filter panel that section
    # selection left out are still three of the list's many choices.
    if sum(_is_choice_link(el, pm.url) for el in pm.all_elements()) < MANY_LIST_CHOICES:
        return set()
    return {key for key, named in choices.items() if not named}
