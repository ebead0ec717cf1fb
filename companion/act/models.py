"""Typed values crossing the ACT/AGENT boundary: a candidate action and the outcome of executing one; and the
types the action workflows hand each other (FormField, FieldAction)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Awaitable, Callable, Literal

from pydantic import BaseModel, Field

from companion.pagemem.update import PageUpdate
from companion.protocol import ElementRef

# Pointer gestures on an element (act/gestures.py; resize: act/resize.py; style, a selection and a toolbar button:
# act/style_text.py; menu_path, entries pointed at and the last clicked: act/menu_path.py).
GESTURE_KINDS = ("drag", "slider", "select_text", "scroll", "sort", "resize", "style", "menu_path")
CandidateKind = Literal["element", "navigate", "type_url", "switch_tab", "view_all", "end_task", "drag", "slider", "select_text",
                        "scroll", "sort", "resize", "style", "menu_path"]


class Candidate(BaseModel):
    kind: CandidateKind
    label: str = Field(description="the one-line form shown to the LLM, e.g. `button \"Add to cart\"` (no element index)")
    element: ElementRef | None = None
    pick: str | None = Field(None, description="a remembered hidden element behind the trigger `element`, by stable key: "
                                               "open the trigger, then act on it (dropdown memory)")
    section_id: str | None = None
    url: str | None = None
    tab_id: int | None = None
    to: ElementRef | None = Field(None, description="drag: the element to drop onto (None: asked when it is chosen); "
                                                   "style: the toolbar button pressed after the selection")
    text: str | None = Field(None, description="select_text: the text to select (None: all of the element's); "
                                               "resize: the axis and way asked (x+, y-, + for both); "
                                               "style: the text to select in the editor (empty: all of it); "
                                               "menu_path: the entries' names, joined by ' > '; "
                                               "slider: the value the task gives (None: asked when it is chosen); "
                                               "element (a search box): the query to search for (act/search_for.py)")
    each: list[tuple[ElementRef, str]] = Field(default_factory=list, description="slider: every slider of the page "
                                               "in order with the value the task gives it, set by one action; sort: "
                                               "the list's items with their names")

    @property
    def key(self) -> str:
        """Identity within a step: what `exclude=` of gather_candidates takes (failed candidates)."""
        if self.kind == "element" and self.element is not None:
            base = f"element:{self.element.frame}:{self.element.id}"
            if self.text is not None:
                return f"{base}:search:{self.text}"
            return f"{base}:{self.pick}" if self.pick else base
        if self.kind == "navigate":
            return f"navigate:{self.url}"
        if self.kind == "switch_tab":
            return f"switch_tab:{self.tab_id}"
        if self.kind in GESTURE_KINDS and self.element is not None:
            to = f":{self.to.frame}:{self.to.id}" if self.to is not None else ""
            each = "".join(f":{ref.frame}.{ref.id}={value}" for ref, value in self.each)
            return f"{self.kind}:{self.element.frame}:{self.element.id}{to}:{self.text or ''}{each}"
        return self.kind


class Outcome(BaseModel):
    actions: list[str] = Field(default_factory=list, description="basic action strings for the history, successful ones only")
    url_changed: bool = False
    modal_opened: bool = False
    changes: PageUpdate | None = Field(None, description="net page change over the whole execution (its refreshes "
                                       "already happened, so a refresh by the caller would see an empty diff)")


@dataclass(frozen=True)
class FormField:
    """The form a field is being filled for (SubmitForm): its purpose, and why the page or the validation pass
    rejected the previous value ("" on the first fill)."""

    purpose: str
    problem: str = ""
    others: str = ""  # for the field a task puts a value "into": the form's other filled fields, what it is read from


# ElementAction (routing.element_action) as SubmitForm and DropdownAction receive it: called with
# (ctx, element, section=None, *, form=FormField | None). SubmitForm fills each field through it, and a dropdown
# that reveals a form submits it through SubmitForm, while routing dispatches to both: handing the routine down
# keeps form.py and dropdown.py below routing.py instead of importing it back.
FieldAction = Callable[..., Awaitable[Outcome]]
