"""What kind of widget a PageMem element is for acting on it: the predicates the routing and workflows share (form
fields, search boxes, irreversible and copy buttons), built on the widget kinds every layer shares
(pagemem/widgets.py: text fields, submit buttons)."""

from __future__ import annotations

import re

from companion.pagemem.model import Element, PageSection
from companion.pagemem.widgets import is_page_link_name, is_submit_like, is_text_field

# Irreversible-looking: money, deletion, sending. Matched on the accessible name/text of a button or link.
IRREVERSIBLE_WORDS = re.compile(
    r"\b(pay|payment|purchase|buy|place (?:your )?order|order now|checkout|check out|delete|remove|erase|destroy|"
    r"send|transfer|unsubscribe|cancel (?:my )?(?:subscription|account|order)|close (?:my )?account)\b", re.I)
SEARCH_WORDS = re.compile(r"\bsearch\b|\bfind\b|\bquery\b", re.I)
COPY_WORDS = re.compile(r"^\s*copy\b|\bcopy to clipboard\b|\bcopy (?:link|url|code|text)\b", re.I)


def label(el: Element) -> str:
    """`button "Log in"`: the element without its page-specific index, for action strings and prompts. One of
    several alike controls says its row or card: `button "Odd" (for "3")` (pagemem/tell_apart.py)."""
    name = el.name or el.text
    said = f'{el.role} "{name[:80]}"' if name else el.role
    return f'{said} (for "{el.context}")' if el.context else said


# Roles a person knows by name, in their words; any other role ("generic", "img", "group") is not said.
_ROLE_WORDS = {"button": "button", "link": "link", "checkbox": "checkbox", "radio": "option", "switch": "switch",
               "textbox": "field", "searchbox": "search field", "combobox": "list", "listbox": "list",
               "option": "option", "menuitem": "menu item", "tab": "tab", "slider": "slider"}


def plain_label(el: Element) -> str:
    """`the button "Buy now"`, or `"Buy now"` for a role a person has no word for: the element in a question the
    user reads (a confirmation), where label()'s `generic "Buy now"` means nothing."""
    name = (el.name or el.text)[:80]
    word = _ROLE_WORDS.get(el.role)
    of = f' for "{el.context}"' if el.context else ""  # which row's "Delete" is asked about
    if name:
        return f'the {word} "{name}"{of}' if word else f'"{name}"{of}'
    return f"the {word}{of}" if word else "an unnamed element"


def is_file_input(el: Element) -> bool:
    return el.tag == "input" and el.input_type == "file"


def is_native_select(el: Element) -> bool:
    return el.tag == "select"


def is_checkable(el: Element) -> bool:
    return (el.tag == "input" and el.input_type in ("checkbox", "radio")) or el.role in ("checkbox", "radio", "switch")


def is_form_field(el: Element) -> bool:
    return is_text_field(el) or is_native_select(el) or is_file_input(el) or is_checkable(el) or el.role == "combobox"


def is_search_field(el: Element, section: PageSection | None = None) -> bool:
    if not is_text_field(el) or el.tag == "textarea":
        return False
    if el.role == "searchbox" or el.input_type == "search":
        return True
    hints = " ".join([el.name, el.attrs.get("placeholder", ""), el.attrs.get("name", ""), el.attrs.get("id", ""),
                      el.attrs.get("aria-label", "")])
    if SEARCH_WORDS.search(hints):
        return True
    return section is not None and (section.attrs.get("role") == "search" or section.tag == "search")


def is_search_form(section: PageSection) -> bool:
    """A form whose only text field is a search field: it gets the search workflow, not SubmitForm."""
    texts = [e for e in section.all_elements() if is_text_field(e) or is_native_select(e)]
    return len(texts) == 1 and is_search_field(texts[0], section)


def is_copy_button(el: Element) -> bool:
    return el.role in ("button", "link", "menuitem") and bool(COPY_WORDS.search(el.name or el.text))


def is_password(el: Element) -> bool:
    return el.is_password


def irreversible_reason(el: Element) -> str | None:
    """Why clicking this element may be irreversible (None when it looks harmless)."""
    if el.role not in ("button", "link", "menuitem", "option") and not (el.tag == "input" and el.input_type in ("submit", "image", "button")):
        return None
    match = IRREVERSIBLE_WORDS.search(el.name or el.text)
    return f'"{(el.name or el.text)[:80]}" looks irreversible ({match.group(0).lower()})' if match else None


def probably_opens_something(el: Element, explored: set[str] | None, key: str | None = None) -> bool:
    """aria-haspopup / aria-expanded, or an element never explored (clicking it may reveal a menu or dialog).
    explored: the site's explored set (stable keys); key: the element's stable key (pagemem/identity.py)."""
    popup = el.attrs.get("aria-haspopup", "").lower()
    if popup and popup != "false":
        return True
    if el.expanded is not None or "aria-expanded" in el.attrs:
        return True
    if el.explored or (el.role == "link" and is_page_link_name(el.name or el.text)):
        # A pagination bar's link shows the list's next page, no menu: what it shows is the next step's to read
        # (asked to pick among page 2's results as among a menu's entries, the model took the first).
        return False
    if explored is None or key is None:
        return True
    return key not in explored


def is_form_cluster(added: list[Element]) -> bool:
    """IsForm: at least two input-like elements and one submit-like button among the revealed elements."""
    inputs = [e for e in added if is_text_field(e) or is_native_select(e) or is_file_input(e)]
    return len(inputs) >= 2 and any(is_submit_like(e) for e in added if not is_form_field(e))


def is_empty(el: Element, typed_secrets: set[tuple[int, int]]) -> bool:
    if el.is_password:  # a secret's value is never read: the page says whether there is one, or we typed it
        return not el.has_value and el.key not in typed_secrets
    if is_checkable(el):
        return not el.checked
    return not (el.value or "").strip()


def field_description(el: Element, typed_secrets: set[tuple[int, int]], *, options: bool = True) -> str:
    """One line for a form field: its line without the index, plus whether a password field was filled.
    options=False drops a select's inline option list (when the options follow as a numbered list, an
    unnumbered copy invites off-by-one answers)."""
    line = el.line()
    line = re.sub(r"^\[\d+\]\s*", "", line)
    if not options:
        line = re.sub(r" options: .*$", "", line)
    if el.is_password:
        line += " (filled)" if el.has_value or el.key in typed_secrets else " (empty)"
    elif is_text_field(el) and not el.value:
        line += " (empty)"
    return line


def declares_suggestions(el: Element) -> bool:
    """The field says it completes from a list it shows: a text combobox, or aria-autocomplete list or both."""
    return el.role == "combobox" or el.attrs.get("aria-autocomplete", "").lower() in ("list", "both")
