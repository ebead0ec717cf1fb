"""What a task asks, read from its words with no LLM call: the action verbs it uses as imperatives (a verb opening
the task or one of its clauses: "Select Bob from the list and click Submit" -> select, click), and whether it is a
question to answer from pages rather than an errand. The end rules (agent/finish.py), the premature-click rules
(act/premature.py) and the rows a question names (observe/rows.py) read it, so it sits in the bottom layer beside
text.py: no companion imports.
"""

from __future__ import annotations

import re

# Verb group -> the basic action strings (their first word, action_strings.py) that could do it.
_CLICKS = ("Clicked", "Submitted", "Pressed", "Checked", "Unchecked", "Selected")
ACTION_VERBS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    # group: (verbs, action kinds that could do it)
    "click": (("click", "press", "tap", "hit", "push"), _CLICKS),
    "type": (("type", "enter", "fill", "input", "write"), ("Typed", "Selected", "Uploaded")),
    "select": (("select", "choose", "pick"), ("Selected", "Clicked", "Checked")),
    "check": (("check", "tick", "uncheck", "untick"), ("Checked", "Unchecked", "Clicked")),
    "submit": (("submit",), ("Submitted", "Clicked", "Pressed")),
    "focus": (("focus",), ("Clicked", "Typed", "Pressed")),
    "search": (("search",), ("Typed", "Pressed", "Submitted")),
    "log in": (("log in", "login", "sign in", "log out", "logout", "sign out", "sign up", "register"),
               ("Submitted", "Clicked", "Pressed", "Typed")),
    "upload": (("upload", "attach"), ("Uploaded",)),
    "open": (("open", "go to", "navigate to", "visit"), ("Navigated", "Clicked", "Switched", "Submitted")),
    # The everyday verbs of web apps (mail, admin, social, shop): a task opening with one asks for a change. Not
    # "like": after a comma it is as often "such as" (", like a kettle,") as a verb.
    "change": (("add", "remove", "delete", "buy", "order", "book", "send", "save", "subscribe", "post", "reply",
                "set", "change", "update", "expand", "collapse", "drag", "toggle", "switch", "forward", "share",
                "archive", "mark", "star", "flag", "follow", "move", "rename", "edit", "create", "assign",
                "invite", "approve", "reject", "publish", "cancel", "play", "retweet", "upvote"),
               _CLICKS + ("Typed", "Navigated")),
}
_CLAUSE_START = r"(?:^|[.;:!?,]\s*|\b(?:and|then|please|also|now|first|next|finally)\s+)"


# "Check whether it is in stock", "check for messages": a check that asks to look, not to tick a box.
_LOOKING = r"(?!\s+(?:if|whether|what|which|who|how|when|where|that|for|out)\b)"


def _verb_pattern(verbs: tuple[str, ...], looking: str = "") -> re.Pattern[str]:
    alternatives = "|".join(re.escape(v).replace(r"\ ", r"\s+") for v in verbs)
    return re.compile(_CLAUSE_START + rf"(?:{alternatives})\b" + looking, re.I)


_VERB_PATTERNS = {group: _verb_pattern(verbs, _LOOKING if group == "check" else "")
                  for group, (verbs, _) in ACTION_VERBS.items()}


def requested_actions(task: str) -> list[str]:
    """The verb groups the task asks to carry out: an imperative verb opening the task or one of its clauses
    ("Select Bob from the list and click Submit" -> select, click). A question ("What is the price?") has none."""
    text = " ".join(task.split())
    return [group for group, pattern in _VERB_PATTERNS.items() if pattern.search(text)]


def is_question(task: str) -> bool:
    """A question to answer from pages ("What is the price of the kettle?"), not an errand: a "?" and no action asked."""
    return "?" in task and not requested_actions(task)

_COUNT = re.compile(r"\bhow\s+many\b|\bnumber\s+of\b", re.I)


def asks_count(task: str) -> bool:
    """The task asks for a count ("How many orders are pending?", "the number of products")."""
    return _COUNT.search(task) is not None



# What deletes: a control or an option that removes records ("Delete selected customers", "Remove", "Erase all").
_DELETES = re.compile(r"^\W*(?:delete|remove|erase|destroy|purge|wipe)\b", re.I)
_DELETE_WORDS = re.compile(r"\b(?:delet\w*|remov\w*|eras\w*|destroy\w*|purg\w*|wip\w*|clear\w*)\b", re.I)


def deletes(label: str) -> bool:
    """The control or option's label opens with a verb that removes something."""
    return _DELETES.match(label or "") is not None


def asks_deletion(task: str) -> bool:
    """The task says to delete, remove, erase, clear or wipe something."""
    return _DELETE_WORDS.search(task) is not None


# "Change the city of the customer Bruno Smith to Munich", "Set the stock of the Wireless Mouse to 25", "update the
# status to shipped": the field a set-errand names and the value it writes. A value ends at a clause's end; a decimal
# point inside it stays ("$30.00").
_SET_VALUE = re.compile(
    r"\b(?:set|change|update)\s+(?:the\s+|its\s+|their\s+|his\s+|her\s+)?(?P<field>[a-z][a-z -]{1,30}?)\s+"
    r"(?:of\s+[^.;!?]+?\s+)?to\s+[\"'“]?(?P<value>(?:[^\"'”,;!?.\s]|\.(?=\d)|\s(?!and\b|then\b))+)", re.I)
MAX_FIELD_WORDS = 3


def set_request(task: str) -> tuple[str, str] | None:
    """(field, value) of the one set-errand in the task that names a field and the value to write, else None."""
    found = [(m.group("field").strip(), m.group("value").strip()) for m in _SET_VALUE.finditer(task)]
    found = [(f, v) for f, v in found if len(f.split()) <= MAX_FIELD_WORDS and v]
    return found[0] if len(found) == 1 else None
