"""Widget kinds (pagemem/widgets.py): one answer for the tree's Node, the PageMem's Element and a raw snapshot element."""

from __future__ import annotations

from companion.pagemem.model import Element
from companion.pagemem.tree import build_tree
from companion.pagemem.widgets import (
    is_page_link_name, is_reset_button, is_submit_button, is_submit_like, is_text_field, is_typed_control,
)
from companion.protocol import ElementRef
from tests.support.htmlsnap import snapshot_from_html


def el(tag: str, role: str, name: str = "", **attrs: str) -> Element:
    return Element(ref=ElementRef(frame=0, id=1), index=1, tag=tag, role=role, name=name, text=name, attrs=attrs)


def test_a_button_without_a_type_submits_its_form():
    assert is_submit_button(el("button", "button", "Go"))


def test_a_button_of_an_unknown_type_submits_its_form():
    assert is_submit_button(el("button", "button", "Go", type="sbumit"))


def test_a_button_of_type_button_submits_nothing():
    assert not is_submit_button(el("button", "button", "Go", type="button"))


def test_a_button_of_type_reset_submits_nothing_but_resets():
    button = el("button", "button", "Clear", type="reset")
    assert not is_submit_button(button) and is_reset_button(button)


def test_outside_a_form_only_a_declared_submit_button_submits():
    assert not is_submit_button(el("button", "button", "Go"), in_form=False)
    assert is_submit_button(el("button", "button", "Go", type="submit"), in_form=False)


def test_the_type_attribute_is_read_case_insensitively():
    assert is_submit_button(el("button", "button", "Go", type="SUBMIT"), in_form=False)


def test_an_image_input_submits_outside_a_form_too():
    assert is_submit_button(el("input", "button", "", type="image"), in_form=False)


def test_a_scripted_button_named_like_a_submit_is_submit_like():
    assert is_submit_like(el("div", "button", "Sign in"), in_form=False)


def test_a_button_exposed_as_another_role_is_not_submit_like_by_its_words():
    assert not is_submit_like(el("button", "tab", "Next", type="button"))


def test_an_input_of_an_unknown_type_is_a_text_field():
    assert is_text_field(el("input", "textbox", "Name", type="fancy"))


def test_a_checkbox_with_role_textbox_is_no_text_field():
    assert not is_text_field(el("input", "textbox", "Agree", type="checkbox"))


def test_a_scripted_textbox_is_a_text_field():
    assert is_text_field(el("div", "textbox", "Comment"))


def test_contenteditable_false_in_any_case_is_not_editable():
    assert not is_typed_control(el("div", "generic", "Note", contenteditable="FALSE"))


def test_an_empty_contenteditable_is_editable():
    assert is_typed_control(el("div", "generic", "Note", contenteditable=""))


def test_a_tree_node_gets_the_same_answers_as_its_element():
    tree = build_tree(snapshot_from_html('<html><body><div><input aria-label="Email">'
                                         '<div role="button" tabindex="0">Sign in</div></div></body></html>'))
    nodes = {n.tag: n for root in tree.roots for n in root.iter() if n.el.interactive}
    assert is_text_field(nodes["input"]) and is_submit_like(nodes["div"], in_form=False)



def test_a_tree_node_of_a_button_exposed_as_a_tab_is_not_submit_like_by_its_words():
    tree = build_tree(snapshot_from_html('<html><body><button type="button" role="tab">Next</button></body></html>'))
    button = next(n for root in tree.roots for n in root.iter() if n.tag == "button")
    assert not is_submit_like(button, in_form=False)


def test_a_pagination_bars_links_are_named_by_number_word_or_arrow():
    assert all(is_page_link_name(n) for n in ["2", " 3 ", "Next", "next page", "‹ Previous", "»", "…", "Show all",
                                                "Older posts", "Page 2", "suivant"])


def test_a_year_or_a_name_that_only_starts_with_a_paging_word_is_no_page_link():
    # A list's date bar ("2023 2024 2025") narrows the list to a year; "More filters" opens a panel.
    assert not any(is_page_link_name(n) for n in ["2024", "1999", "More filters", "Next steps guide", "Pages"])
