"""ElementAction's decision tree for the fields SubmitForm fills (Algorithm 9), as a pure choice over a PageMem
built from HTML (tests/support/htmlsnap.py): each field goes where its type says, none is typed into blindly.
The workflows themselves run in real Chromium in tests/agent/test_form_fields.py."""

from __future__ import annotations

from pathlib import Path

from companion.act import AgentContext
from companion.act.form import form_fields
from companion.act.routing import element_route
from companion.pagemem.divide import divide_page
from tests.support.htmlsnap import snapshot_from_html

FORM = """<form aria-label="Order"><input aria-label="Name"><input type="search" aria-label="Find a plant">
<span role="combobox" tabindex="0" aria-label="Pot size" aria-haspopup="listbox" aria-expanded="false">Choose</span>
<button type="button" aria-haspopup="listbox" aria-label="Colour">Pick a colour</button>
<input aria-autocomplete="list" aria-label="City"><select aria-label="Wrap"><option>Paper</option></select>
<input type="file" aria-label="Photo"><input type="checkbox" aria-label="Gift"><button type="submit">Order</button></form>"""


def routes(in_form: bool) -> dict[str, str]:
    pm = divide_page(snapshot_from_html(f"<html><body>{FORM}</body></html>", url="http://127.0.0.1:8000/order"))
    ctx = AgentContext(session=None, task="Order a plant", files_dir=Path("/nonexistent"), pagemem=pm)
    return {e.name: element_route(ctx, e, in_form=in_form) for s in pm.sections for e in form_fields(s)}


def test_each_field_of_a_form_goes_to_the_action_its_type_needs():
    assert routes(in_form=True) == {"Name": "input", "Find a plant": "autocomplete", "Pot size": "dropdown",
                                    "Colour": "dropdown", "City": "autocomplete", "Wrap": "select", "Photo": "upload",
                                    "Gift": "check"}


def test_a_search_box_is_searched_with_enter_only_outside_a_form_workflow():
    assert routes(in_form=False)["Find a plant"] == "search"
