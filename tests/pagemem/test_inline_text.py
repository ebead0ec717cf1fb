"""Inline elements stay inside their sentence: the snapshot's run_text (extension/content/snapshot.js) and the
lines the model reads (companion/pagemem/render.py), on a fixture page in real Chromium with the real extension."""

from __future__ import annotations

import pytest

from benchmarks.divide_check import division_problems
from tests.support.pagemem_served import divided

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def inline(browser, pages):
    return divided(browser, pages, "pm_inline.html")


def _lines(pm) -> list[str]:
    return [line.strip() for s in pm.sections for line in s.details.splitlines()]


def _element(snapshot, **attrs):
    return next(e for e in snapshot.frames[0].elements if all(e.attrs.get(k) == v for k, v in attrs.items()))


def test_the_division_satisfies_the_invariants(inline):
    snapshot, pm = inline
    assert division_problems(snapshot, pm) == []


def test_a_sentence_reads_whole_with_its_bold_words(inline):
    _, pm = inline
    lines = _lines(pm)
    assert "- text: Find the email by Agustina and forward that email to Hedy." in lines
    assert "- text: Agustina" not in lines and "- text: Hedy" not in lines


def test_a_link_in_a_sentence_is_in_the_sentence_and_still_an_element(inline):
    _, pm = inline
    lines = _lines(pm)
    assert "- text: Read our terms first." in lines
    assert '- [1] link "terms"' in lines


def test_a_menu_of_links_makes_no_sentence(inline):
    snapshot, pm = inline
    assert _element(snapshot, id="menu").run_text is None
    assert sum("Home" in line for line in _lines(pm)) == 1


def test_a_buttons_name_reads_in_document_order(inline):
    _, pm = inline
    assert any(e.role == "button" and e.name == "Add to cart" for e in pm.all_elements())


def test_inline_elements_set_apart_by_margin_read_as_separate_words(inline):
    _, pm = inline
    assert "- text: Owner: Ada Lovelace" in _lines(pm)


def test_flex_items_are_not_run_together(inline):
    snapshot, pm = inline
    assert _element(snapshot, id="row").run_text is None
    lines = _lines(pm)
    assert "- text: Left cell" in lines and "- text: Right cell" in lines


def test_letters_in_boxes_of_their_own_read_as_one_word(inline):
    # Each letter an inline-block, skewed: the default model typed "j y E" for "jyE".
    _, pm = inline
    assert "- text: jyE" in _lines(pm), _lines(pm)


def test_inline_blocks_wider_than_their_text_read_as_separate_words(inline):
    _, pm = inline
    assert "- text: Quantity Price" in _lines(pm), _lines(pm)
