"""Text matching (companion/text.py): how the task's words are compared with the page's, as pure functions."""

from __future__ import annotations

from companion.text import (
    NOT_NOUNS, STOPWORDS, as_quoted, content_words, in_asked_case, names_in, normalized, noun_like_words, quoted, quoted_as_written,
    quoted_spans, singular, split_camel, whole_words, without_quote_marks,
)


def test_a_regular_plural_folds_to_its_singular():
    assert singular("kettles") == "kettle"


def test_a_plural_of_ies_folds_to_y():
    assert singular("entries") == "entry"


def test_a_short_ies_word_keeps_its_ie():
    assert singular("ties") == "tie"


def test_a_plural_after_s_x_ch_or_sh_drops_its_es():
    assert [singular(w) for w in ("classes", "boxes", "watches", "dishes")] == ["class", "box", "watch", "dish"]


def test_a_plural_of_a_word_ending_in_e_keeps_the_e():
    assert [singular(w) for w in ("sizes", "houses", "courses")] == ["size", "house", "course"]


def test_a_short_word_ending_in_s_is_no_plural():
    assert [singular(w) for w in ("bus", "gas", "its")] == ["bus", "gas", "its"]


def test_singular_lower_cases():
    assert singular("Kettles") == "kettle"


def test_content_words_drop_stopwords_and_fold_plurals():
    assert content_words("Add the Blue kettles to my cart") == ["add", "blue", "kettle", "cart"]


def test_content_words_split_at_punctuation():
    assert content_words("Log-in #3") == ["log", "3"]


def test_whole_words_keep_inner_apostrophes_and_hyphens():
    assert whole_words("Don't use the E-mail field") == ["don't", "use", "the", "e-mail", "field"]


def test_a_phrase_is_named_only_as_whole_words():
    assert names_in("Select Iceland from the list", "Iceland") and not names_in("Select Icelandic", "Iceland")


def test_a_begun_last_word_counts_only_when_asked():
    assert names_in("Lisbon, Portugal", "Lis", begun=True) and not names_in("Lisbon, Portugal", "Lis")


def test_a_one_letter_phrase_names_nothing():
    assert not names_in("Pick option a", "a")


def test_quoted_phrases_in_all_three_quote_styles_are_found():
    assert quoted_as_written('Type "Kasie" or “Bob” or \'Ada Lovelace\'') == ["Kasie", "Bob", "Ada Lovelace"]


def test_an_apostrophe_inside_a_word_opens_no_quote():
    assert quoted_as_written("Open the user's page, don't wait") == []


def test_quoted_spans_give_where_each_quote_stands():
    assert quoted_spans('Enter "a  b" now') == [("a b", 6, 12)]


def test_quoted_phrases_are_normalized_for_comparison():
    assert quoted('Click "Log  In"') == ["log in"]


def test_normalized_lower_cases_and_collapses_whitespace():
    assert normalized("  Add\tto   Cart \n") == "add to cart"


def test_quote_marks_are_removed_from_an_answer():
    assert without_quote_marks(' "Search the shop" ') == "Search the shop"


def test_camel_case_is_split_at_its_humps():
    assert split_camel("cardNumberField") == "card Number Field"


def test_noun_like_words_are_letter_runs_of_three_or_more():
    assert noun_like_words("3 Kettles, 2 of them x12") == ["kettles", "them"]


def test_the_two_stopword_lists_are_tuned_for_different_jobs():
    # STOPWORDS name nothing in a label; NOT_NOUNS are what follows a number without being what it counts.
    assert "please" in STOPWORDS and "please" not in NOT_NOUNS
    assert "total" in NOT_NOUNS and "total" not in STOPWORDS


def test_a_value_is_spelled_as_the_tasks_quote_when_only_case_or_a_final_stop_differs():
    assert as_quoted('Reply to them with the text "Ut.".', "Ut") == "Ut."
    assert as_quoted('Enter "Bob" as the name', "bob") == "Bob"
    assert as_quoted('Enter "Bob" as the name', "Bobby") == "Bobby"  # another value: the model's stands
    assert as_quoted("Write a short greeting", "Hello.") == "Hello."  # nothing quoted


def test_a_value_is_in_the_letter_case_the_task_asks_for():
    assert as_quoted('Type "TULA" in all lower case letters in the text input.', "tula") == "tula"
    assert as_quoted('Type "TULA" in all lower case letters in the text input.', "TULA") == "tula"  # the quote as written
    assert as_quoted('Enter "bob" in upper case.', "Bob") == "BOB"
    assert in_asked_case('Type "TULA" in lowercase.', "TULA") == "tula"
    assert in_asked_case('Type "Tula" and press Submit.', "Tula") == "Tula"  # no case asked


def test_a_copy_a_letter_or_two_off_is_the_quote_when_the_task_asks_another_letter_case():
    assert as_quoted('Type "emile" in all upper case letters in the text input.', "EMIL") == "EMILE"
    assert as_quoted('Type "emile" in all upper case letters.', "EMILY") == "EMILE"
    assert as_quoted('Type "emile" in all upper case letters.', "SUBMIT") == "SUBMIT"  # another value
    assert as_quoted('Enter "Bobby" as the name', "Boby") == "Boby"  # no case asked: the model's stands
