"""Answer schemas and parsing: pydantic model -> strict JSON schema for the server; model text -> validated answer.

Numbered choices use `enum` over the valid indices: the portable form every constrained decoder supports,
so a small model cannot even spell an index that is out of range.
"""

from __future__ import annotations

import copy
import json
import re
from functools import lru_cache
from typing import Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError, create_model

T = TypeVar("T", bound=BaseModel)

REASON_MAX = 200  # characters; each generated token costs ~60 ms on 2 cores, so reasons stay one short sentence


class StrictAnswer(BaseModel):
    """Base for answer models: unknown keys are rejected, so the strict server schema and our check agree."""

    model_config = ConfigDict(extra="forbid")


def _index_type(n: int, allow_none: bool, exclude: frozenset[int] = frozenset()):
    values = tuple(i for i in range(n) if i not in exclude) + ((-1,) if allow_none else ())
    if not values:
        raise ValueError("a choice needs at least one option")
    return Literal[values]  # type: ignore[valid-type]


@lru_cache(maxsize=256)  # one class per shape: equal answers compare equal, Reply[...] is built once
def choice_model(n: int, *, reason: bool = True, allow_none: bool = False, reason_max: int = REASON_MAX,
                 exclude: frozenset[int] = frozenset()) -> type[StrictAnswer]:
    """Answer model {"reason"?: str, "index": int in 0..n-1 but not in `exclude` (or -1 when allow_none)}.

    `reason` comes first so the model thinks before it picks (generation order follows the schema order).
    """
    fields: dict = {}
    if reason:
        fields["reason"] = (str, Field(max_length=reason_max))
    fields["index"] = (_index_type(n, allow_none, exclude), ...)
    gaps = "X" + "_".join(map(str, sorted(exclude))) if exclude else ""
    return create_model(f"Choice{n}{'N' if allow_none else ''}{gaps}", __base__=StrictAnswer, **fields)


@lru_cache(maxsize=256)
def subset_model(n: int, *, max_items: int | None = None, reason: bool = False, reason_max: int = REASON_MAX) -> type[StrictAnswer]:
    """Answer model {"reason"?: str, "indices": [distinct ints in 0..n-1]} (may be empty)."""
    fields: dict = {}
    if reason:
        fields["reason"] = (str, Field(max_length=reason_max))
    limit = min(max_items, n) if max_items else n
    fields["indices"] = (list[_index_type(n, False)], Field(max_length=limit))
    model = create_model(f"Subset{n}", __base__=StrictAnswer, **fields)
    return model


def _strictify(node):
    """OpenAI strict mode: every object closes its properties and lists all of them as required."""
    if isinstance(node, dict):
        node.pop("title", None)  # titles and docstrings cost prompt tokens and carry no constraint
        node.pop("description", None)
        if node.get("type") == "object" and "properties" in node:
            node["additionalProperties"] = False
            node["required"] = list(node["properties"])
        for key, value in list(node.items()):
            if key == "properties" and isinstance(value, dict):
                for prop in value.values():
                    _strictify(prop)
            else:
                _strictify(value)
    elif isinstance(node, list):
        for item in node:
            _strictify(item)
    return node


def json_schema_for(model: type[BaseModel]) -> dict:
    schema = copy.deepcopy(model.model_json_schema())
    # Pydantic renders Literal[0, 1, 2] as {"enum": [...], "type": "integer"}: keep both (portable form).
    return _strictify(schema)


def schema_name(model: type[BaseModel]) -> str:
    return re.sub(r"[^a-zA-Z0-9_-]", "_", model.__name__)[:64] or "answer"


_FENCE_RE = re.compile(r"```(?:json)?\s*(.*?)```", re.S)


def extract_json(text: str):
    """Tolerant JSON extraction for servers without constrained decoding: fenced block, whole text, or the
    first balanced {...} found. Raises ValueError when nothing parses."""
    candidates = [m.group(1) for m in _FENCE_RE.finditer(text)] + [text]
    for cand in candidates:
        try:
            return json.loads(cand.strip())
        except (json.JSONDecodeError, ValueError):
            pass
    decoder = json.JSONDecoder()
    for start in [i for i, ch in enumerate(text) if ch == "{"]:
        try:
            value, _ = decoder.raw_decode(text[start:])
            return value
        except json.JSONDecodeError:
            continue
    raise ValueError("no JSON object found in the reply")


def parse_answer(text: str, model: type[T]) -> T:
    """Validate the reply against the answer model. Raises ValueError with a message fit to show the model."""
    try:
        data = extract_json(text)
    except ValueError as exc:
        raise ValueError(f"{exc}. Reply with one JSON object only.") from exc
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        problems = "; ".join(f"{'.'.join(map(str, e['loc'])) or 'answer'}: {e['msg']}" for e in exc.errors()[:5])
        raise ValueError(f"the JSON does not match the required shape: {problems}") from exc
