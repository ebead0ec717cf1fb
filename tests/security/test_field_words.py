"""(pure) The words that make a field sensitive are read as words, not as any substring: a search box or an
ordinary field whose name merely contains "pin", "card" or "account" stays what it is (no over-asking)."""

from __future__ import annotations

import pytest

from companion.act.field_words import search_field_words, sensitive_words

ORDINARY = ["shipping", "Shipping address line", "spinner", "opinion", "Card name", "Search accounts", "Frying pan",
            "Your name", "email", "Stadt", "Suchbegriff", "Gift code"]


@pytest.mark.parametrize("words", ORDINARY)
def test_a_word_that_only_contains_a_sensitive_stem_is_not_sensitive(words):
    assert sensitive_words(words) is None


@pytest.mark.parametrize("words,kind", [("user_pin", "PIN"), ("cardNumber", "payment card"), ("Kreditkarten-Nr.", "payment card"),
                                        ("2FA code", "one-time-code"), ("Passwort wiederholen", "password")])
def test_names_split_as_a_script_writes_them_still_say_what_the_field_holds(words, kind):
    assert kind in (sensitive_words(words) or "")


@pytest.mark.parametrize("words,search", [("q", True), ("Søg", True), ("Buscar productos", True), ("Empfänger", False),
                                          ("recipient", False), ("Gift code", False)])
def test_a_search_field_is_known_by_its_words_in_any_language(words, search):
    assert search_field_words(words) is search
