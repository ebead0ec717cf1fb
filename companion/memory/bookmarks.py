"""The learned bookmarks: which of a site's pages a task may start from, best first, each named by what it holds.
A pure function of the page stats and the recorded controls (records.py); learn.py stores what it returns.

Ranking, keys in this order:
1. the site's own navigation: pages linked from at least NAV_MIN_LINKING distinct pages (outside long content
   lists: a navigation bar, sidebar or index repeats its links on every page, a content list links each
   row once);
2. the pages people use: visits and clicks in by the agent or the user (exploration's own do not count);
3. a list page (one with sort, filter or page controls: controls.py in explore) before others: tasks start
   from a list (find, filter, open a row); the empty "add" form beside it in the same menu is reached from
   there. A list section alone does not say it: a site's navigation menu is a list on every page;
4. how many pages link to it; then the URL, so the order is the same every time.
A page needs BOOKMARK_MIN_SCORE (linking pages plus people's visits) to be one at all.

Pages no task starts from are never bookmarks, by signals any site gives:
- session and account pages: log in, log out, sign up, password change or reset, account settings (the
  page's URL path or its title or link name, several languages);
- a record's history or log (the last segment of its path);
- pages outside the application: when most pages the site knows share a first path segment (/admin/, /app/),
  a page outside it is a "leave the application" link (a "view site", a home page of another app);
- URLs that name a destructive action (delete, remove, cancel, ...);
- a page's query variants (its list under a filter, a sort, a date: "Today", "2023"), when the page itself is
  known: they are its controls, a task reaches them from it.

Names are deterministic, from structure only: the page's title (its first part: a site-wide suffix such as
"| My shop" says nothing; the name of a link to it when two bookmarks share a title), and what it holds: "list of orders" when it has a list's controls, then those
("search (customers)", "sort by Date, Total", "filter by status, country", "pages").
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Iterable
from urllib.parse import unquote, urlsplit

from companion.memory.records import ControlRecord, PageStats
from companion.pagemem.model import Bookmark

BOOKMARK_MIN_SCORE = 2
MAX_LEARNED_BOOKMARKS = 10
NAV_MIN_LINKING = 3  # linked from this many pages: the site's own navigation
NAME_CHARS = 80
NOTE_CHARS = 200
MAX_NAMED = 3  # sort keys and filters named per bookmark
LIST_CONTROLS = ("sort", "filter", "pagination")  # what only a list of records has

# Log-in, log-out and sign-up pages (URL path, title or link name).
AUTH_PAGE = re.compile(r"log[\s_-]?(in|out|off)|sign[\s_-]?(in|out|up|on)|register|password[\s_-]?reset", re.I)
# Account management and session pages, by title or link name (several languages).
ACCOUNT_WORDS = re.compile(
    r"\b(password|passwort|kennwort|mot de passe|contrase[ñn]a|senha|wachtwoord|"
    r"account settings|my account|profile settings|kontoeinstellungen|mon compte|mi cuenta|mijn account|"
    r"log\s?-?out|sign\s?-?out|abmelden|d[ée]connexion|cerrar sesi[óo]n|uitloggen|"
    r"view site|visit site|back to (?:the )?site|go to (?:the )?site|website ansehen|voir le site|ver (?:el )?sitio)\b", re.I)
# The same by URL path segment.
ACCOUNT_PATH = re.compile(r"(^|/)(password[-_]?change|change[-_]?password|password|logout|log[-_]?out|sign[-_]?out|"
                          r"account[-_]?settings|profile[-_]?settings)(/|$|\.)", re.I)
# A record's history or log: the last segment of the path.
HISTORY_PATH = re.compile(r"(^|/)(history|log|logs|audit|revisions|changelog)/?$", re.I)
# URLs that name a destructive action.
DESTRUCTIVE_PATH = re.compile(r"(^|/)(delete|remove|destroy|erase|purge|unsubscribe|cancel)(/|$|\.|[-_])", re.I)


def learned_bookmarks(stats: Iterable[PageStats], controls: Iterable[ControlRecord] = ()) -> list[Bookmark]:
    """The bookmark rule (module docstring)."""
    stats = list(stats)
    by_page: dict[str, list[ControlRecord]] = {}
    for c in controls:
        by_page.setdefault(c.url, []).append(c)
    prefix = app_prefix(stats)
    bare = {_without_query(st.url) for st in stats if not urlsplit(st.url).query}
    ranked = []
    for st in stats:
        people = st.visits + st.clicks_in
        score = len(st.linked_from) + st.visits
        if score < BOOKMARK_MIN_SCORE or not is_start_page(st, prefix):
            continue
        if urlsplit(st.url).query and _without_query(st.url) in bare:
            continue  # a list under a filter or a sort is its page's control (explore/controls.py), not a place
        nav = len(st.linked_from) >= NAV_MIN_LINKING
        listed = any(c.kind in LIST_CONTROLS for c in by_page.get(st.url, []))
        ranked.append(((not nav, -people, not listed, -len(st.linked_from), st.url), score, st))
    ranked.sort(key=lambda r: r[0])
    chosen = [st for _, _, st in ranked[:MAX_LEARNED_BOOKMARKS]]
    heads = Counter(head(st) for st in chosen)
    # Two pages of one title ("Report") are told apart by the names of the links leading to them.
    names = [head(st) if heads[head(st)] == 1 or not st.name else st.name for st in chosen]
    return [Bookmark(url=st.url, title=name[:NAME_CHARS], note=holds(st, by_page.get(st.url, []))[:NOTE_CHARS],
                     learned=True, score=score, rank=rank)
            for rank, (name, (_, score, st)) in enumerate(zip(names, ranked))]


def is_start_page(st: PageStats, prefix: str | None) -> bool:
    """Whether a task may start from this page (module docstring)."""
    path = unquote(urlsplit(st.url).path)
    names = f"{st.title} {st.name}"
    if AUTH_PAGE.search(path) or AUTH_PAGE.search(st.title or st.name) or ACCOUNT_WORDS.search(names):
        return False
    if ACCOUNT_PATH.search(path) or HISTORY_PATH.search(path) or DESTRUCTIVE_PATH.search(path):
        return False
    return prefix is None or path == prefix or path.startswith(prefix + "/")


def app_prefix(stats: list[PageStats]) -> str | None:
    """The path the application lives under ('/admin'): the first path segment of more than half of the pages
    the site has seen (titled: visited or explored), when there is one."""
    seen = [st for st in stats if st.title]
    firsts = Counter(_first_segment(st.url) for st in seen)
    if not firsts:
        return None
    segment, n = firsts.most_common(1)[0]
    return f"/{segment}" if segment and n * 2 > len(seen) else None


def _without_query(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}{parts.path.rstrip('/')}"


def _first_segment(url: str) -> str:
    return unquote(urlsplit(url).path).strip("/").split("/", 1)[0]


def head(st: PageStats) -> str:
    """The page's title without a site-wide suffix ("Orders | My shop" -> "Orders"); its link's name without one."""
    title = re.split(r"\s+[|·–—]\s+|\s+-\s+", st.title or "", maxsplit=1)[0].strip()
    return title or st.name


def holds(st: PageStats, controls: list[ControlRecord]) -> str:
    """What the page holds, from its structure (module docstring), then its summary when one was made."""
    parts = []
    if any(c.kind in LIST_CONTROLS for c in controls):
        parts.append(f"list of {(st.name or head(st)).lower()}")
    for c in controls:
        if c.kind == "search":
            parts.append(f"search ({c.label})" if c.label else "search")
    # A sort is named by its keys (the columns' names), a filter by what it filters.
    sorts = list(dict.fromkeys(name for c in controls if c.kind == "sort" for name in (c.choices or [c.label]) if name))
    filters = list(dict.fromkeys(c.label for c in controls if c.kind == "filter" and c.label))
    for verb, labels in (("sort by", sorts), ("filter by", filters)):
        if labels:
            parts.append(f"{verb} {', '.join(labels[:MAX_NAMED])}")
    if any(c.kind == "pagination" for c in controls):
        parts.append("pages")
    text = "; ".join(parts)
    if st.summary:
        text = f"{text}. {st.summary}" if text else st.summary
    return text


__all__ = ["AUTH_PAGE", "BOOKMARK_MIN_SCORE", "MAX_LEARNED_BOOKMARKS", "NAV_MIN_LINKING", "app_prefix", "head", "holds",
           "is_start_page", "learned_bookmarks"]
