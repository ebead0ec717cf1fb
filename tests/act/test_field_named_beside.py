"""A field whose only name is the text beside it takes that text when the model answers with it: the text to copy
is not the field's own description (pagemem Element.name_beside, act/basic.names_the_field). Pure functions over
pages divided by the real PageMem pipeline from HTML."""

from __future__ import annotations

from companion.act.basic import names_the_field
from companion.pagemem.divide import divide_page
from tests.support.htmlsnap import snapshot_from_html


def first_field(body: str):
    page = divide_page(snapshot_from_html(f"<html><body>{body}<button>Submit</button></body></html>"))
    return next(e for e in page.all_elements() if e.role in ("textbox", "searchbox"))


def test_the_text_beside_a_field_with_no_label_is_text_to_type():
    # "Type the text below into the text field": the default model answered "Q E 4", refused twice as the field's name.
    field = first_field('<div><span>Q</span> <span>E</span> <span>4</span></div><div><input type="text"></div>')
    assert field.name == "Q E 4" and field.name_beside
    assert not names_the_field("Q E 4", field)


def test_a_fields_own_label_or_placeholder_is_no_text_to_type():
    labelled = first_field('<label for="s">Search the shop</label><input id="s" type="search">')
    assert not labelled.name_beside and names_the_field("Search the shop", labelled)
    assert names_the_field("Your email", first_field('<input type="text" placeholder="Your email">'))
