"""Basic-action strings for the history, built after execution from the real values (paper Table 5 style).

Indices are left out (they mean nothing on a later page); the element is named by role and accessible name.
A password's value never appears: typing into a password field is written as "Typed a password into ...".
"""

from __future__ import annotations

from companion.act.elements import label
from companion.pagemem.model import Element

VALUE_CHARS = 200


def _q(text: str) -> str:
    text = " ".join(text.split())
    if len(text) > VALUE_CHARS:
        text = text[: VALUE_CHARS - 1] + "…"
    return '"' + text.replace('"', "'") + '"'


def clicked(el: Element) -> str:
    return f"Clicked {label(el)}"


def typed(el: Element, text: str) -> str:
    if el.is_password:
        return f"Typed a password into {label(el)}"
    return f"Typed {_q(text)} into {label(el)}"


def selected(el: Element, option: str) -> str:
    return f"Selected {_q(option)} in {label(el)}"


def checked(el: Element, state: bool) -> str:
    return f"{'Checked' if state else 'Unchecked'} {label(el)}"


def pressed_enter(el: Element) -> str:
    return f"Pressed Enter in {label(el)}"


def uploaded(el: Element, filename: str, created: bool) -> str:
    how = "a new text file" if created else "file"
    return f"Uploaded {how} {_q(filename)} to {label(el)}"


def created_file(filename: str, chars: int) -> str:
    return f"Created text file {_q(filename)} ({chars} characters)"


def copied(el: Element, text: str | None) -> str:
    if text is None:
        return f"Clicked {label(el)} to copy to the clipboard (the copied text could not be read)"
    return f"Copied {_q(text)} to the clipboard with {label(el)}"


def submitted(button: Element | None) -> str:
    return f"Submitted the form with {label(button)}" if button is not None else "Submitted the form by pressing Enter"


def left_form() -> str:
    return "Left the form without submitting"


def kept_form(why: str) -> str:
    return f"Did not leave the form, submitted it instead: {why}"


def left_form_at_review_limit(purpose: str, rounds: int) -> str:
    return (f"Left the form {_q(purpose)} as it is, not submitted: the review ended after {rounds} edits "
            "without a choice to submit it")


def navigated(url: str) -> str:
    return f"Navigated to {url}"


def switched_tab(tab_id: int, title: str, url: str) -> str:
    return f"Switched to tab {tab_id}: {_q(title)} ({url})"


def dragged(el: Element, where: str) -> str:
    return f"Dragged {label(el)} {where}"


def selected_text(text: str) -> str:
    return f"Selected the text {_q(text)}"


def scrolled(what: str, where: str) -> str:
    return f"Scrolled {what} to the {where}"


def slid(el: Element, value: str) -> str:
    return f"Set {label(el) if el.name or el.text else 'the slider'} to {value}"


def slid_all(values: list[str]) -> str:
    return f"Set the sliders to {', '.join(values)}"
