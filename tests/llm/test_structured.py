"""Answer schemas and tolerant parsing."""

import pytest

from companion.llm.answers import NewFile
from companion.llm.structured import choice_model, extract_json, json_schema_for, parse_answer, subset_model


def test_choice_schema_is_strict_with_an_index_enum():
    schema = json_schema_for(choice_model(3))
    assert schema["properties"]["index"]["enum"] == [0, 1, 2]
    assert schema["required"] == ["reason", "index"]  # reason first: the model explains, then picks
    assert schema["additionalProperties"] is False
    assert schema["properties"]["reason"]["maxLength"] > 0


def test_choice_with_none_allows_minus_one():
    schema = json_schema_for(choice_model(2, allow_none=True, reason=False))
    assert schema["properties"]["index"]["enum"] == [0, 1, -1]


def test_subset_schema_enumerates_items_and_bounds_length():
    schema = json_schema_for(subset_model(4, max_items=2))
    indices = schema["properties"]["indices"]
    assert indices["items"]["enum"] == [0, 1, 2, 3]
    assert indices["maxItems"] == 2


def test_out_of_range_index_is_rejected():
    with pytest.raises(ValueError, match="index"):
        parse_answer('{"index": 7}', choice_model(3, reason=False))


def test_extra_keys_are_rejected():
    with pytest.raises(ValueError, match="extra"):
        parse_answer('{"index": 1, "extra": true}', choice_model(3, reason=False))


def test_json_is_found_in_fences_and_prose():
    assert extract_json('Sure!\n```json\n{"index": 2}\n```') == {"index": 2}
    assert extract_json('I pick {"index": 1} because it fits.') == {"index": 1}
    with pytest.raises(ValueError):
        extract_json("no json here")


def test_filename_pattern_is_enforced():
    assert parse_answer('{"filename": "notes.txt", "content": "hi"}', NewFile).filename == "notes.txt"
    with pytest.raises(ValueError):
        parse_answer('{"filename": "../etc/passwd", "content": "x"}', NewFile)
