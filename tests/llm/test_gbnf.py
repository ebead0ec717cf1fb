"""The JSON schema -> GBNF converter (used for servers that take `grammar` but no JSON-schema formats)."""

import pytest

from companion.llm.answers import Verification
from companion.llm.gbnf import UnsupportedSchema, schema_to_gbnf
from companion.llm.structured import choice_model, json_schema_for, subset_model


def test_choice_grammar_lists_exactly_the_valid_indices():
    grammar = schema_to_gbnf(json_schema_for(choice_model(3, allow_none=True)))
    assert 'answer-index-enum ::= "0" | "1" | "2" | "-1"' in grammar
    assert "char{0,200}" in grammar  # the reason's maxLength bounds generation
    assert grammar.startswith("root ::= ")


def test_subset_grammar_bounds_the_number_of_items():
    grammar = schema_to_gbnf(json_schema_for(subset_model(5, max_items=2)))
    assert '("," ws answer-indices-item-enum){0,1}' in grammar


def test_booleans_and_key_order_follow_the_schema():
    grammar = schema_to_gbnf(json_schema_for(Verification))
    assert grammar.index('"\\"reason\\""') < grammar.index('"\\"complete\\""')
    assert 'boolean ::= "true" | "false"' in grammar


def test_unsupported_schema_is_reported():
    with pytest.raises(UnsupportedSchema):
        schema_to_gbnf({"anyOf": [{"type": "string"}, {"type": "null"}]})
