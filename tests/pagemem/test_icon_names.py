"""What glyphs and icon names mean (pagemem/icon_names.py): pure functions of strings."""

from __future__ import annotations

import pytest

from companion.pagemem.icon_names import (
    class_words, colour_name, file_words, glyph_meaning, is_glyph, seen_glyph, with_meaning,
)


@pytest.mark.parametrize("glyph, meaning", [
    ("×", "close"), ("✕", "close"), ("☰", "menu"), ("⋮", "more"), ("✔", "done"), ("★", "star"),
    ("❤️", "like"), ("🗑", "delete"), ("✏", "edit"), ("↻", "reload"), ("←", "back"), ("+", "add"), (" − ", "remove"),
])
def test_a_well_known_glyph_means_one_thing(glyph, meaning):
    assert glyph_meaning(glyph) == meaning


def test_text_around_a_glyph_is_no_glyph():
    assert glyph_meaning("× Close") == ""
    assert glyph_meaning("Add +") == ""
    assert not is_glyph("OK")
    assert is_glyph("⊕")  # unknown, but drawn: no letter in it


@pytest.mark.parametrize("classes, words", [
    ("fa fa-reply", "reply"), ("glyphicon glyphicon-share", "share"), ("icon-forward", "forward"),
    ("fa-solid fa-trash-can fa-lg", "trash can"), ("bi bi-trash3-fill", "trash"), ("fa fa-times", "close"),
    ("btn btn-close", "close"), ("ui-icon ui-icon-closethick", "close"), ("mdi mdi-pencil-outline", "edit"),
    ("fas fa-arrow-left", "arrow left"), ("ql-bold", "bold"), ("ql-underline", "underline"),
    ("ui-icon ui-icon-triangle-1-n", "triangle up"), ("ui-icon ui-icon-triangle-1-s", "triangle down"),
    ("ui-icon ui-icon-carat-1-e", "carat right"),
])
def test_an_icon_class_names_the_icon_without_its_set_size_or_colour(classes, words):
    assert class_words(classes) == words


@pytest.mark.parametrize("classes", ["btn btn-primary btn-lg", "card clickable", "fa fa-2x", "email-reply"])
def test_classes_that_are_no_icon_name_say_nothing(classes):
    assert class_words(classes) == ""


@pytest.mark.parametrize("name, words", [
    ("trash-can.svg", "trash can"), ("ic_reply_24px.png", "reply"), ("arrowBack.svg", "arrow back"),
    ("IMG_2031.jpg", ""), ("1x1.gif", ""), ("share-hover.png", "share"), ("star_selected.svg", "star"),
])
def test_an_icon_file_name_names_the_icon(name, words):
    assert file_words(name) == words


def test_a_glyph_named_with_its_meaning_keys_as_the_glyph():
    assert seen_glyph(with_meaning("×", "close")) == "×"
    assert seen_glyph("Save (draft)") == "Save (draft)"  # words in front: a name of its own, left whole


@pytest.mark.parametrize("code, name", [("#e60000", "red"), ("#ff9900", "orange"), ("#008a00", "green"),
                                        ("#ffffff", "white")])
def test_a_swatch_is_called_by_the_nearest_css_colour(code, name):
    assert colour_name(code) == name
