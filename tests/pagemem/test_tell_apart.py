"""Controls told apart by the text around them (pagemem/tell_apart.py), in real Chromium on pm_tell_apart.html:
a field without a label is named by the text of its own box; alike controls carry the text of their row."""

from __future__ import annotations

import pytest

from companion.act.candidates import _distinct_labels, element_candidate
from companion.act.elements import label, plain_label
from tests.support.pagemem_served import divided

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def pm(browser, pages):
    return divided(browser, pages, "pm_tell_apart.html")[1]


def _fields(pm):
    return [e for e in pm.all_elements() if e.role == "textbox"]


def test_a_field_without_a_label_is_named_by_the_text_of_its_own_box(pm):
    names = [e.name for e in _fields(pm)]
    # a span beside it, a div row, a table header cell, text after it (its trailing " *" and ":" left out)
    assert names[:4] == ["Genre", "Director Name", "Year", "Rating"]


def test_a_label_or_placeholder_still_names_a_field(pm):
    names = [e.name for e in _fields(pm)]
    assert names[4:6] == ["City", "Keywords"]


def test_prose_around_a_field_is_not_its_label(pm):
    prose, area = _fields(pm)[6:8]
    assert prose.name == ""
    assert area.name == ""  # the last text before it belongs to another box


def test_a_text_area_says_so_in_its_line(pm):
    area = _fields(pm)[7]
    assert "(text area)" in area.line()


def test_alike_buttons_carry_the_text_of_their_row(pm):
    odd = [e for e in pm.all_elements() if e.name == "Odd"]
    assert [e.context for e in odd] == ["7", "12"]
    assert label(odd[1]) == 'button "Odd" (for "12")'
    assert plain_label(odd[1]) == 'the button "Odd" for "12"'


def test_alike_links_in_table_rows_carry_their_row(pm):
    edits = [e for e in pm.all_elements() if e.name == "Edit"]
    assert [e.context for e in edits] == ["Ada Byron", "Alan Turing"]


def test_a_row_without_text_is_told_by_its_other_controls(pm):
    adds = [e for e in pm.all_elements() if e.name == "Add"]
    assert [e.context for e in adds] == ["Categories", "Orders"]  # the row's "Change" is alike too: not said


def test_alike_controls_side_by_side_have_no_context_and_a_unique_control_none(pm):
    copies = [e for e in pm.all_elements() if e.name == "Copy"]
    assert [e.context for e in copies] == ["", ""]
    assert next(e for e in pm.all_elements() if e.name == "Search").context == ""


def test_candidates_of_alike_controls_are_told_apart_by_row_else_by_position(pm):
    els = [e for e in pm.all_elements() if e.name in ("Odd", "Copy")]
    got = [c.label for c in _distinct_labels([element_candidate(e, "s1") for e in els], pm)]
    assert got == ['button "Odd" (for "7")', 'button "Odd" (for "12")', 'button "Copy" (1 of 2)', 'button "Copy" (2 of 2)']


def test_a_link_in_a_column_header_says_it_reorders_the_table_and_a_rows_own_link_does_not(browser, pages):
    pm = divided(browser, pages, "sort_table.html")[1]
    labels = {e.name: element_candidate(e, "s1").label for e in pm.all_elements()}
    assert labels["Price"] == 'link "Price" (column header: reorders the table)'
    assert labels["Stock"] == 'link "Stock" (column header: reorders the table)'  # an ARIA grid's header
    assert labels["Turntable"] == 'link "Turntable"'  # a <th> of the body is the row's own link
