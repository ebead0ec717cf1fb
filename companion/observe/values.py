"""Concrete values beside numbers: emails, URLs, dates, prices and names, found in what a model wrote and looked
up on the pages read, with the row, list item or section they sit in.

A small model states an email, a date or a name as confidently as a price: "the customer who placed order #110
has the email customer@example.com" on a log-in page, or the email of another row of the customer list. Two
rules catch both, without an LLM call:

  - held: the value occurs on a page read. Emails, URLs and dates verbatim (case and whitespace aside); a name
    (a quoted string, or a run of capitalised words in a sentence about what the task names) by its words
    together in one line, row or list item, since names are fuzzy. Numbers and prices stay with grounding.py,
    which also lets a computed total through (derived.py).
  - tied: a sentence (or a final answer) that ties a value to an identifier the task names (order #110, customer
    "Ann Lee") must find the value in a row or list item holding that identifier, or in its section when no row
    holds it; a row of another page joined to it by a shared identifying cell (the customer named in the order's
    row, whose own row holds the email) counts too. A sentence listing many values is a listing, not an
    attribution, and is checked only for `held`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Literal, NamedTuple

from companion.observe.derived import groups_of, quantities
from companion.pagemem.model import PageMem
from companion.text import STOPWORDS, normalized, whole_words

Kind = Literal["email", "url", "date", "price", "number", "name"]

EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
URL = re.compile(r"https?://[^\s<>\"'()\[\]]+")
_MONTH = (r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?")
DATE = re.compile(r"\b(?:\d{4}-\d{2}-\d{2}|\d{1,2}[/.]\d{1,2}[/.]\d{2,4}|\d{1,2}\s+" + _MONTH + r",?\s+\d{4}|"
                  + _MONTH + r"\s+\d{1,2}(?:st|nd|rd|th)?,?\s+\d{4})\b", re.I)
# A quoted string hugs its text ("Ann Lee"): a quote mark followed by a space closes one, so the marks of
# several element lines ('checkbox "blue" [checked]): checkbox "red"') never pair into a "name" across them.
_QUOTED = re.compile(r"\"(\w[^\"]*?\w|\w)\"|“(\w[^”]*?\w|\w)”|(?<!\w)'(\w[^']*?\w)'(?!\w)")
# A run of two or more capitalised words ("Ann Lee", "French Press"); a leading function word ("The") is not part.
# The role word the outline writes before an element's quoted name (pagemem/render.py element_line).
_ROLE_BEFORE = re.compile(r"\b(?:button|link|textbox|searchbox|checkbox|radio|combobox|listbox|option|menuitem|tab|"
                          r"heading|switch|slider|spinbutton|generic|img|image|cell|row|columnheader|rowheader|"
                          r"dialog|region|navigation|form|group|list|listitem|text)\s+$")
_CAPITALISED = re.compile(r"[A-Z][\w'’-]*(?:\s+[A-Z][\w'’-]*)+")
# What a task identifies a row by, beside emails, quoted strings and names: "#110", "SKU-104", a number of 3+ digits.
_IDENTIFIER = re.compile(r"#\s?(\d+)|\b([A-Za-z]+-\d+)\b|(?<![\d.,$€£])\b(\d{3,})\b(?![.,]\d)")
_CELL_PREFIX = re.compile(r"^\s*-\s*(?:\[\d+\]\s*)?(?:[a-z]+(?::|\s+(?=[\"“]))\s*)?")
MAX_TIED = 3  # a sentence stating more values than this lists rows: each value is checked only for `held`


class Problem(NamedTuple):
    """A value a text states that the pages do not support: not read at all, (anchor) not where the task's
    identifier is, or (as_kind) stated as a kind of value it is not."""

    value: str
    anchor: str = ""
    as_kind: str = ""

    def __str__(self) -> str:
        if self.as_kind:
            return f"{self.value} is no {self.as_kind}: the {self.as_kind} was not found on this page"
        return f"{self.value} was not found{f' with {self.anchor}' if self.anchor else ''} on this page"


# "the email address of ... is Daniel Ricci": a sentence giving an email that holds none. Its value starts with a
# capital or a quote ("is not listed", "is empty" state no value; "@" anywhere after it is an address).
_EMAIL_STATED = re.compile(r"\be-?mail(?:\s+address)?\b[^.:]*?(?:\bis\b|\bwas\b|:)\s+[\"“']?(?!not\b|empty\b|missing\b|"
                           r"unknown\b|blank\b|none\b|also\b)(?P<value>[A-Z][^.;,]*)", re.I)


_ASKS_EMAIL = re.compile(r"\be-?mail\s+address|\bemails?\s+of\b", re.I)


def asks_email(task: str) -> bool:
    """Does the task ask for an email address ("the email address of ...")? A mail client's task ("the email from
    Ann") speaks of messages, whose subjects a sentence may give as "the email ... is 'Lunch'"."""
    return _ASKS_EMAIL.search(task) is not None


def misnamed_emails(sentence: str) -> list[Problem]:
    """Values a sentence states as an email address that are none (no "@" in what it gives)."""
    m = _EMAIL_STATED.search(sentence)
    if m is None or "@" in sentence[m.start():]:
        return []
    value = m.group("value").strip(" \"”'")
    return [Problem(value, as_kind="email address")] if value[:1].isupper() else []


@dataclass(frozen=True)
class Value:
    kind: Kind
    text: str  # as written

    def in_text(self, text: str) -> bool:
        """This value occurs in `text` (lower case, whitespace collapsed): a name by its words together."""
        if self.kind == "name":
            want = set(whole_words(self.text))
            return bool(want) and want <= set(whole_words(text))
        if self.kind in ("number", "price"):  # a code ("SO-1010") is looked up in lower-case text too
            return re.search(rf"(?<![\d.,]){re.escape(self.text)}(?!\d)", text, re.IGNORECASE) is not None
        return re.search(rf"(?<![\w@/.-]){re.escape(normalized(self.text))}(?![\w@-])", text) is not None


def _quoted(text: str) -> list[str]:
    """Quoted strings, but not an element's name as the page outline writes it (`button "Save"`, `textbox
    "Name"`): an observation that repeats the page's element lines names its controls, it claims no value."""
    return [" ".join(next(g for g in m.groups() if g).split()) for m in _QUOTED.finditer(text)
            if not _ROLE_BEFORE.search(text, 0, m.start())]


def _names(text: str, skip_first: bool) -> list[str]:
    """Quoted strings and runs of capitalised words; a run's leading function word (and, with `skip_first`, a
    sentence's first word: a task opens with a verb or a question word, and so does each of its sentences) is not
    part of the name, nor (with `skip_first`) a code among its words ("SKU SKU-142" names nothing beside the code)."""
    out = _quoted(text)
    for m in _CAPITALISED.finditer(text):
        words = m.group().split()
        if words[0].lower() in STOPWORDS or (skip_first and _SENTENCE_START.search(text, 0, m.start())):
            words = words[1:]
        if skip_first:
            words = [w for w in words if not any(ch.isdigit() for ch in w)]
        words = [re.sub(r"['’]s$", "", w) for w in words]
        if len(words) >= 2:
            out.append(" ".join(words))
    return out


# One word a task capitalises inside a sentence names a thing too ("the price of the Turntable", "the customer
# Kite"); the first word of a sentence is capitalised anyway, and a word in capitals ("SKU", "ONE") is no name.
_ONE_WORD = re.compile(r"\b[A-Z][a-z'’-]{2,}\b")
_SENTENCE_START = re.compile(r"(?:^|[.!?:;]\s+|\n)\W*$")  # nothing but the start of a sentence before a word


def _one_word_names(task: str, taken: list[Value]) -> list[str]:
    held = " ".join(v.text for v in taken)
    out = []
    for m in _ONE_WORD.finditer(task):
        word = re.sub(r"['’]s$", "", m.group())
        if (not _SENTENCE_START.search(task, 0, m.start()) and word.lower() not in STOPWORDS
                and not re.search(rf"\b{re.escape(word)}\b", held)):
            out.append(word)
    return out


def _found(text: str) -> list[Value]:
    """Emails, URLs and dates of `text`, each once, in order."""
    out = [Value("email", m.group()) for m in EMAIL.finditer(text)]
    out += [Value("url", m.group().rstrip(".,;:!?")) for m in URL.finditer(text)]
    out += [Value("date", " ".join(m.group().split())) for m in DATE.finditer(text)]
    return list(dict.fromkeys(out))


def identifiers(task: str, *, one_word: bool = False) -> list[Value]:
    """What the task identifies its row by: emails, quoted strings, names, "#110", "SKU-104", long numbers; with
    `one_word`, one capitalised word inside a sentence too ("the Turntable"). Finding rows (rows.py) and searching
    (act/search_for.py) take it; the grounding checks do not: there it would make "Blue" of "the Blue kettle" an
    anchor that the price must share a row with, and the heading "Blue kettle" is a row without the price."""
    out = [v for v in _found(task) if v.kind != "date"]
    out += [Value("name", n) for n in _names(task, skip_first=True)]
    for m in _IDENTIFIER.finditer(task):
        if not any(m.group(0) in v.text for v in out):
            out.append(Value("number", next(g for g in m.groups() if g)))
    if one_word:
        out += [Value("name", n) for n in _one_word_names(task, out)]
    return [v for v in dict.fromkeys(out) if not _new_value(task, v.text)]


# An errand that sets a value: "Change the city of … to Munich", "Move Ann Lee to Marketing", "Rename it to Spring".
_SETS = re.compile(r"^\W*(?:please\s+)?(?:set|change|update|rename|move|switch|edit|modify|assign)\b", re.I)


def _new_value(task: str, text: str) -> bool:
    """`text` is the value a set-errand writes ("Munich" in "Change the city of the customer Bruno Smith to
    Munich"), written right after "to" or "into": the record to change is identified by the rest, and the new
    value is on no row yet. (After "to the product Kite" the name is the record's.) The default model, offered a
    search for "Munich" among the customer list's actions, typed it into the sidebar's filter."""
    if not _SETS.search(task):
        return False
    return re.search(rf"\b(?:to|into)\s+[\"'“]?{re.escape(text)}", task) is not None


def values_of(sentence: str, anchors: list[Value], *, named: bool) -> list[Value]:
    """The concrete values `sentence` states, the task's identifiers aside: emails, URLs, dates, quoted strings,
    prices (a currency or a decimal part), and with `named` (the sentence is about what the task names, or it
    is an answer) runs of capitalised words."""
    out = _found(sentence)
    names = _quoted(sentence) if not named else _names(sentence, skip_first=False)
    taken = " ".join(a.text.lower() for a in anchors)
    # A run of capitals around the task's own code ("Order SO-1010 was placed by …") is the code with a word
    # before it, no value: the code is the anchor, and "Order" alone names nothing.
    codes = {a.text.lower() for a in anchors if a.kind == "number"}
    names = [n if len(kept := [w for w in n.split() if w.lower() not in codes]) == len(n.split())
             else " ".join(kept) if len(kept) >= 2 else "" for n in names]
    out += [Value("name", n) for n in names if n and not EMAIL.search(n) and not URL.search(n)]
    out += [Value("price", q.text) for q in quantities(sentence) if q.unit not in ("", "%") or not q.integer]
    out = list(dict.fromkeys(out))
    # A value inside a longer one (a date in a quoted title) is that one's part, checked with it.
    return [v for v in out if v.text.lower() not in taken and not any(w != v and v.text in w.text for w in out)]


def mentioned(sentence: str, anchors: list[Value]) -> list[Value]:
    """The task's identifiers `sentence` mentions."""
    text = normalized(sentence)
    return [a for a in anchors if a.in_text(text)]


# ---------------------------------------------------------------------------- rows, items and sections read


def lower_lines(text: str) -> str:
    """Each line lower case with its whitespace collapsed: how values are looked up (a line stays a line)."""
    return "\n".join(normalized(line) for line in text.splitlines() if line.strip())


def _cells(unit: str) -> set[str]:
    """A row's cells (or a section's lines) that could identify something in another table: an email, a
    number, or two words or more ("ann lee"), never a one-word category ("kitchen")."""
    out = set()
    for piece in re.split(r" \| |\n", unit):
        cell = _CELL_PREFIX.sub("", piece).strip(" \"“”'")
        if len(cell) >= 3 and ("@" in cell or re.search(r"\d", cell) or len(cell.split()) >= 2):
            out.add(cell)
    return out


@dataclass
class PageUnits:
    """One page read, as the places a value sits in: its rows and list items, and its sections."""

    rows: list[str] = field(default_factory=list)  # lower_lines
    sections: list[str] = field(default_factory=list)

    @classmethod
    def of(cls, pagemem: PageMem, content) -> PageUnits:
        """`content`: the page's text as evidence (grounding.page_content, without element numbers)."""
        units = cls()
        for section in pagemem.sections:
            texts = [section.details, *(item.details for item in section.items)]
            units.sections.append(lower_lines(content("\n".join(texts))))
            units.rows += [lower_lines(content(item.details)) for item in section.items]
            units.rows += [m for text in texts for g in groups_of(content(text)) for m in g.members]
        return units

    def holding(self, value: Value) -> list[str]:
        """The rows holding `value`, or (none does) the sections that do."""
        return [r for r in self.rows if value.in_text(r)] or [s for s in self.sections if value.in_text(s)]

    def lines(self) -> list[str]:
        return self.rows + [line for s in self.sections for line in s.splitlines()]


def tied(value: Value, anchor: Value, pages: list[PageUnits]) -> bool:
    """`value` sits in a row (or section) holding `anchor`, or in one of another page that shares an identifying
    cell with such a row (a join: the order's row names the customer, the customer's row holds the email)."""
    where = [(i, u) for i, page in enumerate(pages) for u in page.holding(anchor)]
    if any(value.in_text(u) for _, u in where):
        return True
    cells = {c for _, u in where for c in _cells(u)}
    own = {i for i, _ in where}
    return any(value.in_text(u) and _cells(u) & cells for i, page in enumerate(pages) if i not in own
               for u in page.holding(value))


@dataclass
class ValueCheck:
    """The value rules for one task, against everything read so far."""

    anchors: list[Value]  # the task's identifiers
    lines: list[str]  # every line read (the task, the pages, their URLs), lower_lines
    pages: list[PageUnits]
    answer: bool = False  # a final answer is about the task's identifiers even when it does not name them
    emails: bool = False  # the task asks for an email address: a sentence giving one must hold one (misnamed_emails)
    related: list[Value] = field(default_factory=list)  # names a row the task names holds, read on earlier pages

    @staticmethod
    def as_related(names: list[str] | None) -> list[Value]:
        """Names (or emails) a row the task names was seen to hold, as values a claim may sit with instead."""
        return [Value("email" if EMAIL.fullmatch(r) else "name", r) for r in names or []]

    @classmethod
    def within(cls, text: str, task: str, related: list[str] | None = None) -> ValueCheck:
        """The rules against one text alone (a section an extraction copies from): its rows and the text itself.
        `related`: names the task's row was seen to hold on earlier pages (the order's customer), which a value here
        may sit with instead (the customer's row on the customer list holds the email)."""
        rows = [m for g in groups_of(text) for m in g.members]
        return cls(identifiers(task), lower_lines(f"{task}\n{text}").splitlines(),
                   [PageUnits(rows=rows, sections=[lower_lines(text)])], emails=asks_email(task),
                   related=cls.as_related(related))

    def _held(self, value: Value) -> bool:
        return any(value.in_text(line) for line in self.lines)

    def problems(self, sentence: str) -> list[Problem]:
        """What `sentence` states that the pages do not support: a value not read, or read but not where the
        task's identifier is. Numbers are grounding.py's: a price is checked here only for where it sits."""
        named = mentioned(sentence, self.anchors)
        anchors = named or (self.anchors if self.answer else [])
        values = values_of(sentence, self.anchors, named=bool(anchors))
        out = [Problem(v.text) for v in values if v.kind not in ("price", "number") and not self._held(v)]
        if self.emails:
            out += misnamed_emails(sentence)
        if anchors and len(values) <= MAX_TIED:
            held = [v for v in values if self._held(v)]
            out += [Problem(v.text, anchors[0].text) for v in held
                    if not any(tied(v, a, self.pages) for a in [*anchors, *self.related])]
        return out
