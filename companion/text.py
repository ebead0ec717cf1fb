"""How the task's words are compared with the page's: the tokenizers, stopwords, plural folding, quoted values and
whole-word match, written once for every layer that matches text (act's guards and named fields, observe's
derived numbers, agent's grounding).

Pure functions of strings, no companion imports: the task is written by a person ("click Submit", 'Enter
"Kasie"', "the Blue kettles"), the page by its authors, and a rule that reads them differently in two places
keeps an element in one and drops it in the other.
"""

from __future__ import annotations

import re

# Lower-case runs of letters and digits: the words of a label or a task as the filtering guard compares them
# ("Log-in" is "log" "in", "item #3" is "item" "3").
_ALNUM = re.compile(r"[a-z0-9]+")
# Words with their inner apostrophes and hyphens ("don't", "e-mail", "Jean-Luc"): a run of them is a phrase the
# task contains as whole words, where "e-mail" must not match inside "e-mail-address"'s pieces.
_WHOLE_WORD = re.compile(r"[\w'-]+", re.UNICODE)
# Letters only, three or more: the nouns a number may count ("3 kettles"), without digits and short words.
_NOUN_LIKE = re.compile(r"[a-z]{3,}")
_CAMEL = re.compile(r"(?<=[a-z])(?=[A-Z])")
# A quoted phrase: "...", “...”, or '...' of two or more characters, its quotes not inside a word (the
# apostrophe of "don't" and "the user's" opens nothing).
_QUOTED = re.compile(r"\"([^\"]+)\"|“([^”]+)”|(?<!\w)'([^']{2,})'(?!\w)")
_QUOTE_MARKS = re.compile(r"[\"'“”]")

# Function words that name nothing on their own: an element whose name is only these ("Go to the", "All") is not
# one the task names, and they are not the words that tell a field apart ("the password", "your email").
STOPWORDS = frozenset(
    "a an the and or of to in on at by for with from into onto as is are be it its this that these those then so "
    "do you your me my i we our all any each some please here there what which who when where how".split())
# Words after a number that are not what it counts ("3 of the", "5 more than", "12 total"): a list tuned for
# reading a quantity's noun, so it keeps the verbs and comparatives that follow numbers, and leaves out the
# pronouns and question words STOPWORDS has for labels (a number is not followed by "please").
NOT_NOUNS = frozenset("and are for from has have its not out the their them then there these they this those "
                      "was were with which who each all only also more less than about over under total".split())


def singular(word: str) -> str:
    """A plural folded to its singular, so "kettles" matches "kettle", "boxes" "box", "entries" "entry", "sizes"
    "size" and "classes" "class". Lower-cases; short words stay ("bus", "gas", "its"), and "ies" folds only past
    four letters ("ties" is "tie")."""
    word = word.lower()
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if word.endswith(("sses", "ches", "shes", "xes")):
        return word[:-2]
    if len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
        return word[:-1]
    return word


def content_words(text: str) -> list[str]:
    """The words that can name something, in order: lower-case letter and digit runs, stopwords dropped, plurals
    folded."""
    return [singular(w) for w in _ALNUM.findall(text.lower()) if w not in STOPWORDS]


def whole_words(text: str) -> list[str]:
    """The text's words, lower case, each with its inner apostrophes and hyphens."""
    return [w.lower() for w in _WHOLE_WORD.findall(text or "")]


def noun_like_words(text: str) -> list[str]:
    """The lower-case letter runs of three or more letters: candidates for what a number counts."""
    return _NOUN_LIKE.findall(text.lower())


def split_camel(text: str) -> str:
    """camelCase split at its humps ("cardNumber" -> "card Number"), as field names and ids are written."""
    return _CAMEL.sub(" ", text)


def normalized(text: str) -> str:
    """Lower-cased, whitespace collapsed: how phrases of the task and the page are compared."""
    return " ".join(text.lower().split())


def without_quote_marks(text: str) -> str:
    """The text with its quote marks (", ', “, ”) removed and its ends stripped."""
    return _QUOTE_MARKS.sub("", text).strip()


def quoted_spans(text: str) -> list[tuple[str, int, int]]:
    """The text's quoted phrases ("...", “...”, '...'), as written (whitespace collapsed), with where each quote
    starts and ends in the text."""
    return [(" ".join(next(g for g in m.groups() if g).split()), m.start(), m.end()) for m in _QUOTED.finditer(text)]


def quoted_as_written(text: str) -> list[str]:
    """The text's quoted phrases ("...", “...”, '...'), as written."""
    return [phrase for phrase, _, _ in quoted_spans(text)]


_EDGE_PUNCT = ".,;:!?"


_LOWER = re.compile(r"\b(?:in\s+)?(?:all\s+)?(?:lower[\s-]?case|small letters)\b", re.I)
_UPPER = re.compile(r"\b(?:in\s+)?(?:all\s+)?(?:upper[\s-]?case|capital letters|capitals|all caps)\b", re.I)


def in_asked_case(task: str, value: str) -> str:
    """`value` in the letter case the task asks for ('Type "TULA" in all lower case letters'), else as it is."""
    lower, upper = _LOWER.search(task) is not None, _UPPER.search(task) is not None
    if lower == upper:  # neither, or both (which one goes where is not for a rule)
        return value
    return value.lower() if lower else value.upper()


def as_quoted(task: str, value: str) -> str:
    """`value` as the task's quote spells it when they differ only in case or in a full stop or comma at the end:
    asked to reply with "Ut.", the default model answered "Ut", and the page wanted the stop too. In the case the task
    asks for, when it asks for one: the default model typed "tula" for 'Type "TULA" in all lower case letters', and
    the quote's own spelling had put back "TULA"."""
    bare = value.strip().rstrip(_EDGE_PUNCT).lower()
    if not bare:
        return value
    phrases = quoted_as_written(task)
    for phrase in phrases:
        if phrase.rstrip(_EDGE_PUNCT).lower() == bare:
            return in_asked_case(task, phrase)
    # Asked for the one quote in another letter case, a copy a letter or two off is the quote: the default model typed
    # "EMIL" for 'Type "emile" in all upper case letters'. (Without a case asked, "Bobby" for "Bob" may be meant.)
    asks_case = (_LOWER.search(task) is None) != (_UPPER.search(task) is None)
    if asks_case and len(phrases) == 1 and len(bare) >= MIN_NEAR_COPY \
            and _edits(phrases[0].rstrip(_EDGE_PUNCT).lower(), bare) <= MAX_COPY_EDITS:
        return in_asked_case(task, phrases[0])
    return value


MIN_NEAR_COPY = 4
MAX_COPY_EDITS = 2


def _edits(a: str, b: str) -> int:
    """Levenshtein distance: letters inserted, deleted or replaced to make `a` into `b`."""
    row = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        prev, row[0] = row[0], i
        for j, cb in enumerate(b, 1):
            prev, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, prev + (ca != cb))
    return row[-1]


def quoted(text: str) -> list[str]:
    """The text's quoted phrases, normalized."""
    return [normalized(q) for q in quoted_as_written(text)]


def names_in(text: str, phrase: str, *, begun: bool = False) -> bool:
    """The text contains `phrase` as a run of whole words (case-insensitive); with `begun`, the phrase's last word
    may be only begun in the text's ("Lis" in "Lisbon, Portugal": what was typed into an autocomplete field)."""
    want = whole_words(phrase)
    if not want or len(" ".join(want)) < 2:
        return False
    have = whole_words(text)
    n = len(want)

    def at(i: int) -> bool:
        last = have[i + n - 1]
        return have[i:i + n - 1] == want[:-1] and (last.startswith(want[-1]) if begun else last == want[-1])
    return any(at(i) for i in range(len(have) - n + 1))


def states_the_task(task: str, text: str, share: float = 0.8) -> bool:
    """`text` is the task's own sentence: nearly all of its content words are the task's (a page that shows the task
    it sets, as a test page does)."""
    words = content_words(text)
    asked = set(content_words(task))
    return len(words) >= 2 and sum(w in asked for w in words) >= share * len(words)


# "the 2nd text area", "the third button", "the last word": a place counted in a task.
ORDINALS = {w: i for i, w in enumerate("first second third fourth fifth sixth seventh eighth ninth tenth".split(), 1)}
COUNTS = {w: i for i, w in enumerate("one two three four five six seven eight nine ten".split(), 1)}  # "up by two"
ORDINAL = r"\d{1,2}(?:st|nd|rd|th)|" + "|".join(ORDINALS) + "|last"


def place(nth: str, count: int) -> int:
    """The 1-based place an ordinal (a match of ORDINAL) names among `count` ("2nd": 2, "second": 2, "last": count)."""
    nth = nth.lower()
    if nth == "last":
        return count
    return ORDINALS.get(nth) or int(re.match(r"\d+", nth).group(0))

