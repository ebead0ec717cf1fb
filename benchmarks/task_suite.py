"""A real-app task suite (WebArena-style): tasks on a live web application, each judged by its answer or by
the application's database, never by the path the agent took.

A task file is JSON (the format is the pydantic models below; `load_suite(path)` validates it and names the
task and field of any error):

    {"site": "djangosite",
     "tasks": [
       {"id": "orders-pending", "kind": "lookup", "start_url": "/admin/shop/order/",
        "intent": "How many orders are pending?",
        "evaluator": {"type": "number", "answer_sql": "SELECT count(*) FROM shop_order WHERE status = 'pending'"}},
       {"id": "ship-two", "kind": "change", "start_url": "/admin/shop/order/",
        "intent": "Mark orders SO-1001 and SO-1002 as shipped.",
        "evaluator": {"type": "db", "sql": "SELECT status FROM shop_order WHERE number IN ('SO-1001', 'SO-1002')",
                      "expected": [["shipped"], ["shipped"]],
                      "unchanged": ["SELECT number, status FROM shop_order WHERE number NOT IN ('SO-1001', 'SO-1002')"]}}]}

Expected values come from the application's own database, not from the file's author: `answer_sql`,
`expected_sql` and `params` (values the intent names, `{name}` in the intent) run on the database as it is
just before the task runs (the seed, after the reset of a change task), `sql` right after it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any, Literal, Union

import pydantic
from pydantic import BaseModel, ConfigDict, Field, model_validator

Kind = Literal["lookup", "change"]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class AnswerEvaluator(_Strict):
    """Judge the agent's final answer.

    exact: the answer, normalised (case, spaces, a trailing full stop, quotes), equals one expected value;
    contains: every expected value occurs in the normalised answer (answer_sql: every row's first column);
    number: the answer states the expected number (within `tolerance`) and no other number, apart from those
    the intent itself names ("Order SO-1020 totals 723.95" is right, "10 or 12" and a pasted page are not).
    An answer longer than `max_chars` is not an answer but a page pasted back, and fails.
    """

    type: Literal["exact", "contains", "number"]
    answer: str | float | list[str] | None = None  # a list: any one of them (exact), all of them (contains)
    answer_sql: str | None = None
    tolerance: float = Field(0.005, ge=0)
    max_chars: int = Field(300, ge=1)

    @model_validator(mode="after")
    def _one_source(self) -> "AnswerEvaluator":
        if (self.answer is None) == (self.answer_sql is None):
            raise ValueError("give exactly one of answer and answer_sql")
        if self.type == "number" and isinstance(self.answer, (str, list)):
            raise ValueError("a number evaluator's answer is a number (or use answer_sql)")
        return self


class DbEvaluator(_Strict):
    """Judge the application's state: the rows of `sql` after the task equal `expected` (or the rows of
    `expected_sql` run before it); each query of `unchanged` returns the same rows after as before (the
    change touched nothing else)."""

    type: Literal["db"]
    sql: str
    expected: list[list[Any]] | None = None
    expected_sql: str | None = None
    unchanged: list[str] = Field(default_factory=list)

    @model_validator(mode="after")
    def _one_source(self) -> "DbEvaluator":
        if (self.expected is None) == (self.expected_sql is None):
            raise ValueError("give exactly one of expected and expected_sql")
        return self


Evaluator = Annotated[Union[AnswerEvaluator, DbEvaluator], Field(discriminator="type")]


class AppTask(_Strict):
    id: str = Field(pattern=r"^[a-z0-9][a-z0-9-]{0,63}$")
    kind: Kind
    intent: str = Field(min_length=1)
    start_url: str = Field(pattern=r"^/", description="a path on the site, e.g. /admin/shop/order/")
    needs_login: bool = True  # the browser is logged in to the site before the task (else logged out)
    evaluator: Evaluator
    reset: bool | None = None  # restore the seeded database before the run (None: change tasks do, lookups do not)
    params: dict[str, str] = Field(default_factory=dict)  # name -> SQL of one value, put in the intent as {name}
    tags: list[str] = Field(default_factory=list)  # what the task exercises (count, total, bulk-action, inline, ...)

    @model_validator(mode="after")
    def _consistent(self) -> "AppTask":
        if self.kind == "change" and not isinstance(self.evaluator, DbEvaluator):
            raise ValueError("a change task is judged by the database (evaluator type db)")
        if self.kind == "lookup" and isinstance(self.evaluator, DbEvaluator):
            raise ValueError("a lookup task is judged by its answer (evaluator type exact, contains or number)")
        try:
            self.intent.format(**{name: "" for name in self.params})
        except (KeyError, IndexError, ValueError) as exc:
            raise ValueError(f"the intent names a parameter that `params` does not define: {exc}") from None
        return self

    @property
    def resets(self) -> bool:
        return self.kind == "change" if self.reset is None else self.reset


class TaskSuite(_Strict):
    site: Literal["djangosite"] = "djangosite"  # the application the tasks run against (tests/djangosite)
    tasks: list[AppTask] = Field(min_length=1)

    @model_validator(mode="after")
    def _unique_ids(self) -> "TaskSuite":
        seen: set[str] = set()
        for task in self.tasks:
            if task.id in seen:
                raise ValueError(f"task id {task.id!r} is used twice")
            seen.add(task.id)
        return self

    def select(self, only: list[str] | None = None, kind: Kind | None = None) -> list[AppTask]:
        """The tasks named in `only` (in file order; an unknown name is an error), of `kind` when given."""
        if only:
            unknown = sorted(set(only) - {t.id for t in self.tasks})
            if unknown:
                raise SuiteError(f"no task named {', '.join(unknown)} in the suite")
        return [t for t in self.tasks if (not only or t.id in only) and (kind is None or t.kind == kind)]


class SuiteError(ValueError):
    """A task file that cannot be used; the message names the file and what is wrong."""


def load_suite(path: Path | str) -> TaskSuite:
    path = Path(path)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise SuiteError(f"{path}: no such task file") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise SuiteError(f"{path}: not a readable JSON task file ({exc})") from None
    try:
        return TaskSuite.model_validate(data)
    except pydantic.ValidationError as exc:
        raise SuiteError(f"{path}: {_describe(exc, data)}") from None


def _describe(exc: pydantic.ValidationError, data: Any) -> str:
    """The validation errors, each naming the task by its id rather than its index."""
    lines = []
    for error in exc.errors():
        loc = list(error["loc"])
        if len(loc) >= 2 and loc[0] == "tasks" and isinstance(loc[1], int):
            try:
                loc[1] = data["tasks"][loc[1]].get("id") or f"#{loc[1]}"
            except (KeyError, IndexError, TypeError, AttributeError):
                pass
        lines.append(f"{'.'.join(str(part) for part in loc)}: {error['msg']}")
    return "; ".join(lines)
