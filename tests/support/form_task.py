"""The suite's form task on tests/fixtures/pages/form_combo.html: the page, the task, the field values the scripted
model gives, and the choice that fills the form."""

from __future__ import annotations

from tests.support.agent_llm import index_of, option_named, options, submit_the_form

PAGE = "form_combo.html"
TASK = "Order a plant for Ada: a Medium pot, delivered to Lisbon, wrapped in Cloth."


def page_of(text: str) -> str:
    return text.split("Current page:", 1)[1].split("\n", 1)[0]


def fill_the_form(text: str, labels: list[str]) -> int:
    """Open the form through its name field; on the confirmation page, end the task."""
    if "form_combo_done.html" in page_of(text):
        return index_of(labels, r"^end the task")
    found = index_of(labels, r'^textbox "Your name"')
    return found if found is not None else index_of(labels, r"^end the task")


def every_field(text: str) -> dict:
    return {"indices": list(range(len(options(text.split("Fields:\n", 1)[1].split("\n\n", 1)[0]))))}


def field_value(text: str) -> dict:
    field = text.split("Field:", 1)[1].split("\n", 1)[0]
    if "Your name" in field:
        return {"value": "Ada"}
    if "Delivery city" in field:
        return {"value": "Lisbon"}
    return {"value": "Medium pot"}  # what a field-by-field typist would put into the pot size


OVERRIDES = {
    "form_field_selection": every_field,
    "field_value": field_value,
    "dropdown_option": option_named(r"Medium pot"),
    "search_suggestion": option_named(r"Lisbon"),
    "select_option": option_named(r"^Cloth$"),
    "form_review": submit_the_form,
}
