"""count_tokens: deterministic, monotone in content, and in the range of a real BPE tokenizer."""

from companion.pagemem.tokens import count_tokens


def test_empty_is_zero_and_words_cost_about_one_token():
    assert count_tokens("") == 0
    # o200k_base gives 9 tokens for this sentence.
    assert 8 <= count_tokens("The quick brown fox jumps over the lazy dog.") <= 11


def test_outline_line_cost_matches_bpe_ballpark():
    # o200k_base: 8 tokens.
    assert 6 <= count_tokens('[12] button "Add to cart"') <= 10


def test_long_text_scales_linearly():
    one = count_tokens("shoes and laces " * 10)
    ten = count_tokens("shoes and laces " * 100)
    assert 9 * one <= ten <= 11 * one


def test_cjk_costs_more_per_character_than_english():
    assert count_tokens("東京都の天気予報") >= 5
