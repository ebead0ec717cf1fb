"""Replies that fit: the most tokens an answer schema lets a model write, against the call's max_tokens.

A reply cut at max_tokens is not JSON, and asking again "more briefly" is cut again: the 1.5B model lost a
task at step 1 that way, a section summary allowed 400 characters within 120 tokens. So every string of an
answer schema carries a maxLength and every list a maxItems (the constrained decoder enforces both, and they
are in the schema the server gets), and the worst case those allow must fit the call's max_tokens.

The worst case is counted conservatively: CHARS_PER_TOKEN characters of a string per token (page text full of
digits and punctuation tokenises near one token per one or two characters; prose near four), each digit of an
index a token, and room for the keys, quotes, commas and the whitespace a decoder may put between them.

Two checks use it: LLMClient.ask refuses to send a call whose schema cannot fit (a programming error, named
with the prompt), and check_declared() -- run at start-up -- checks each prompt's declared answer model and
max_tokens (declare() beside the call), and that no prompt file lacks a declaration.
"""

from __future__ import annotations

import math

from pydantic import BaseModel

from companion.llm.prompts import PromptError, available_prompts
from companion.llm.structured import REASON_MAX, choice_model, json_schema_for, subset_model

CHARS_PER_TOKEN = 2  # worst case for a JSON string the model writes about a page (see the module docstring)
SPACE_TOKENS = 1  # whitespace a decoder may put around one key or value (llama.cpp's grammar allows some)
UNBOUNDED_NUMBER_TOKENS = 20


class ReplyBudgetError(PromptError):
    """An answer model that can be longer than its call's max_tokens, or a prompt with no declared answer."""


def _digits(value) -> int:
    return len(str(value))


def _enum_tokens(values: list) -> int:
    # Each digit is a token for most tokenisers of small models; strings cost what their text costs.
    return max(_digits(v) if isinstance(v, int) else 2 + math.ceil(len(str(v)) / CHARS_PER_TOKEN) for v in values)


def schema_tokens(node: dict, where: str = "answer") -> int:
    """The most tokens a JSON value matching `node` (a strict answer schema, as sent) can take.
    Raises ReplyBudgetError for a string without maxLength or a list without maxItems: nothing bounds them."""
    if "enum" in node:
        return _enum_tokens(node["enum"])
    if "const" in node:
        return _enum_tokens([node["const"]])
    kind = node.get("type")
    if kind == "object":
        total = 2 + SPACE_TOKENS
        for key, sub in node.get("properties", {}).items():
            key_tokens = math.ceil((len(key) + 3) / CHARS_PER_TOKEN)  # "key":
            total += key_tokens + 1 + 2 * SPACE_TOKENS + schema_tokens(sub, f"{where}.{key}")
        return total
    if kind == "string":
        if "maxLength" not in node:
            raise ReplyBudgetError(f"{where}: a string without maxLength has no bound")
        return 2 + math.ceil(int(node["maxLength"]) / CHARS_PER_TOKEN)
    if kind == "array":
        if "maxItems" not in node:
            raise ReplyBudgetError(f"{where}: a list without maxItems has no bound")
        item = schema_tokens(node.get("items", {}), f"{where}[]")
        return 2 + int(node["maxItems"]) * (item + 1 + SPACE_TOKENS)
    if kind == "boolean":
        return 2
    if kind in ("integer", "number"):
        return UNBOUNDED_NUMBER_TOKENS
    raise ReplyBudgetError(f"{where}: no token bound known for {node!r:.80}")


def answer_tokens(answer: type[BaseModel]) -> int:
    return schema_tokens(json_schema_for(answer), answer.__name__)


def ensure_fits(prompt: str, schema: dict, max_tokens: int) -> None:
    """ReplyBudgetError naming the prompt when the schema's longest reply cannot fit max_tokens."""
    try:
        need = schema_tokens(schema)
    except ReplyBudgetError as exc:
        raise ReplyBudgetError(f"prompt {prompt!r}: {exc}") from None
    if need > max_tokens:
        raise ReplyBudgetError(
            f"prompt {prompt!r}: its answer may take {need} tokens (at {CHARS_PER_TOKEN} characters a token), more "
            f"than max_tokens={max_tokens}: lower the answer's max_length/max_items or raise max_tokens")


# ---------------------------------------------------------------------------- numbered choices, sized to fit

REASON_MIN = 40  # characters: below this a reason says nothing; a budget that leaves less fails ensure_fits


def fitted_choice(n: int, max_tokens: int | None, *, reason: bool = True, allow_none: bool = False,
                  exclude: frozenset[int] = frozenset()) -> tuple[type[BaseModel], int]:
    """(answer model, max_tokens) of a numbered choice: without max_tokens, the budget its longest reply needs;
    with one, the reason's length is what the budget leaves (at most REASON_MAX, at least REASON_MIN)."""
    if not reason:
        model = choice_model(n, reason=False, allow_none=allow_none, exclude=exclude)
        return model, max_tokens or answer_tokens(model)
    if max_tokens is None:
        model = choice_model(n, allow_none=allow_none, exclude=exclude)
        return model, answer_tokens(model)
    bare = answer_tokens(choice_model(n, allow_none=allow_none, exclude=exclude, reason_max=0))
    room = min(REASON_MAX, (max_tokens - bare) * CHARS_PER_TOKEN)
    return choice_model(n, allow_none=allow_none, exclude=exclude, reason_max=max(REASON_MIN, room)), max_tokens


def fitted_subset(n: int, max_tokens: int | None, *, max_items: int | None = None,
                  reason: bool = False) -> tuple[type[BaseModel], int]:
    """(answer model, max_tokens) of a subset choice: without max_tokens, the budget its longest reply needs;
    with one, as many items as the budget holds (at least one)."""
    limit = min(max_items or n, n)
    model = subset_model(n, max_items=limit, reason=reason)
    if max_tokens is None:
        return model, answer_tokens(model)
    one = answer_tokens(subset_model(n, max_items=1, reason=reason))
    each = answer_tokens(subset_model(n, max_items=2, reason=reason)) - one if n > 1 else 1
    fits = max(1, 1 + (max_tokens - one) // each)
    if fits < limit:
        model = subset_model(n, max_items=fits, reason=reason)
    return model, max_tokens


# ---------------------------------------------------------------------------- the declarations

_declared: dict[str, list[tuple[type[BaseModel], int]]] = {}


def declare(prompt: str, answer: type[BaseModel], max_tokens: int) -> None:
    """Beside a call: `prompt` is answered with `answer` within `max_tokens` (checked by check_declared).
    A choice built per call is declared with its largest shape (choice_model(n) of the most options shown)."""
    pairs = _declared.setdefault(prompt, [])
    if (answer, max_tokens) not in pairs:
        pairs.append((answer, max_tokens))


LARGEST_CHOICE = 100  # options: the shape a choice prompt is declared with (past 99, only a digit more each)


def declare_choice(prompt: str, max_tokens: int | None = None, *, reason: bool = True, allow_none: bool = False) -> None:
    """declare() for a numbered choice asked through LLMClient.choose with these settings."""
    declare(prompt, *fitted_choice(LARGEST_CHOICE, max_tokens, reason=reason, allow_none=allow_none))


def declare_subset(prompt: str, max_tokens: int | None = None, *, max_items: int | None = None,
                   reason: bool = False) -> None:
    """declare() for a subset choice asked through LLMClient.choose_many with these settings."""
    declare(prompt, *fitted_subset(LARGEST_CHOICE, max_tokens, max_items=max_items, reason=reason))


def declared() -> dict[str, list[tuple[type[BaseModel], int]]]:
    return {name: list(pairs) for name, pairs in _declared.items()}


def check_declared(declarations: dict[str, list[tuple[type[BaseModel], int]]] | None = None,
                   prompts: list[str] | None = None) -> None:
    """Every prompt file has a declared answer, and each declared answer fits its max_tokens; else one
    ReplyBudgetError listing every problem by prompt name."""
    declarations = declared() if declarations is None else declarations
    names = available_prompts() if prompts is None else prompts
    problems = [f"prompt {name!r}: no answer model declared (companion.llm.fit.declare)"
                for name in names if name not in declarations]
    for name, pairs in sorted(declarations.items()):
        for answer, max_tokens in pairs:
            try:
                ensure_fits(name, json_schema_for(answer), max_tokens)
            except ReplyBudgetError as exc:
                problems.append(str(exc))
    if problems:
        raise ReplyBudgetError("answers that do not fit their budget:\n" + "\n".join(problems))


declare_choice("choice_probe", reason=False)  # the llm layer's own probe (check.py, bench.py)
