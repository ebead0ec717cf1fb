"""Judging a task of the real-app suite: what is expected is read from the application's database just before
the run (`prepare`), and the answer or the database just after it is compared with that (`judge`).

    expectation = prepare(task, site.query)      # answer_sql / expected_sql / params / unchanged rows, now
    ... the agent runs task.intent formatted with expectation.params ...
    verdict = judge(task, expectation, result.answer, site.query)

`query(sql)` returns the rows of a read-only SQL query (DjangoSite.query). An evaluator whose SQL fails or
returns the wrong shape raises EvaluatorError naming the task: a broken task is never scored as a failure
of the agent.
"""

from __future__ import annotations

import math
import re
from typing import Any, Callable

from pydantic import BaseModel, Field

from benchmarks.task_suite import AnswerEvaluator, AppTask, DbEvaluator

Query = Callable[[str], list[tuple]]

# A number as written in an answer: 10, 3.5, 1,234.50, -2. Not the digits of an identifier (SO-1005,
# SKU-289, v2): a number starts after a space, bracket, sign or currency symbol, not after a letter or hyphen.
_NUMBER = re.compile(r"(?<![\w.\-])-?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?![\w])")
_QUOTES = str.maketrans({"\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"'})


class EvaluatorError(RuntimeError):
    """A task whose evaluator cannot compute its expected value or read the result (the task is broken)."""


class Expectation(BaseModel):
    """What one run of a task is judged against, computed on the database just before the run."""

    intent: str  # the task's intent with its params filled in
    params: dict[str, str] = Field(default_factory=dict)
    answers: list[str] = Field(default_factory=list)  # exact: any one; contains: all
    number: float | None = None
    rows: list[list[Any]] | None = None  # db: the rows `sql` must return after the run
    unchanged: list[list[list[Any]]] = Field(default_factory=list)  # db: the rows of each `unchanged` query before


class Verdict(BaseModel):
    success: bool
    expected: Any = None
    got: Any = None
    detail: str = ""


def _rows(task: AppTask, query: Query, sql: str, what: str) -> list[list[Any]]:
    try:
        return [list(row) for row in query(sql)]
    except Exception as exc:  # sqlite3.Error and anything the site's query raises: the task is broken
        raise EvaluatorError(f"task {task.id}: the {what} failed: {exc} (SQL: {sql})") from exc


def _scalar(task: AppTask, query: Query, sql: str, what: str) -> Any:
    rows = _rows(task, query, sql, what)
    if len(rows) != 1 or len(rows[0]) != 1:
        raise EvaluatorError(f"task {task.id}: the {what} must return one value, it returned {rows!r} (SQL: {sql})")
    if rows[0][0] is None:
        raise EvaluatorError(f"task {task.id}: the {what} returned NULL (SQL: {sql})")
    return rows[0][0]


def _text(value: Any) -> str:
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def prepare(task: AppTask, query: Query) -> Expectation:
    params = {name: _text(_scalar(task, query, sql, f"parameter {name!r}")) for name, sql in task.params.items()}
    exp = Expectation(intent=task.intent.format(**params) if params else task.intent, params=params)
    ev = task.evaluator
    if isinstance(ev, DbEvaluator):
        exp.rows = ev.expected if ev.expected is not None else _rows(task, query, ev.expected_sql, "expected_sql")
        exp.unchanged = [_rows(task, query, sql, "unchanged query") for sql in ev.unchanged]
        return exp
    if ev.type == "number":
        value = ev.answer if ev.answer is not None else _scalar(task, query, ev.answer_sql, "answer_sql")
        try:
            exp.number = float(value)
        except (TypeError, ValueError):
            raise EvaluatorError(f"task {task.id}: the expected answer {value!r} is not a number") from None
        return exp
    if ev.answer is not None:
        exp.answers = [_text(a) for a in (ev.answer if isinstance(ev.answer, list) else [ev.answer])]
    elif ev.type == "exact":
        exp.answers = [_text(_scalar(task, query, ev.answer_sql, "answer_sql"))]
    else:
        rows = _rows(task, query, ev.answer_sql, "answer_sql")
        if not rows or any(not row or row[0] is None for row in rows):
            raise EvaluatorError(f"task {task.id}: the answer_sql returned no value ({rows!r}; SQL: {ev.answer_sql})")
        exp.answers = [_text(row[0]) for row in rows]
    if not all(a.strip() for a in exp.answers):
        raise EvaluatorError(f"task {task.id}: an expected answer is empty")
    return exp


def normalize(text: str) -> str:
    text = " ".join(text.translate(_QUOTES).casefold().split())
    return text.rstrip(".").strip("\"' ")


def numbers_in(text: str) -> list[float]:
    return [float(m.group(0).replace(",", "")) for m in _NUMBER.finditer(text)]


def _same(a: Any, b: Any) -> bool:
    """Cell equality: numbers by value (SQLite returns a decimal column as a float), the rest exactly."""
    if isinstance(a, (int, float)) and isinstance(b, (int, float)) and not isinstance(a, bool) and not isinstance(b, bool):
        return math.isclose(a, b, rel_tol=0, abs_tol=1e-6)
    return a == b


def _same_rows(a: list[list[Any]], b: list[list[Any]]) -> bool:
    return len(a) == len(b) and all(len(x) == len(y) and all(_same(p, q) for p, q in zip(x, y)) for x, y in zip(a, b))


def judge_answer(ev: AnswerEvaluator, exp: Expectation, answer: str) -> Verdict:
    if len(answer) > ev.max_chars:
        return Verdict(success=False, expected=exp.number if ev.type == "number" else exp.answers, got=answer,
                       detail=f"the answer is {len(answer)} characters long (at most {ev.max_chars}): not an answer")
    if ev.type == "number":
        named = numbers_in(exp.intent)
        stated = {n for n in numbers_in(answer) if not any(abs(n - m) <= ev.tolerance for m in named)}
        right = {n for n in stated if abs(n - exp.number) <= ev.tolerance}
        ok = bool(right) and right == stated
        if ok:
            detail = ""
        elif right:
            detail = f"the answer also states {', '.join(_text(n) for n in sorted(stated - right))}"
        else:
            detail = f"no number in the answer equals {_text(exp.number)}" if stated else "the answer states no number"
        return Verdict(success=ok, expected=exp.number, got=answer, detail=detail)
    said = normalize(answer)
    if ev.type == "exact":
        ok = any(said == normalize(a) for a in exp.answers)
        return Verdict(success=ok, expected=exp.answers if len(exp.answers) > 1 else exp.answers[0], got=answer,
                       detail="" if ok else "the answer is not the expected one")
    missing = [a for a in exp.answers if normalize(a) not in said]
    return Verdict(success=not missing, expected=exp.answers if len(exp.answers) > 1 else exp.answers[0], got=answer,
                   detail=f"the answer does not contain {', '.join(repr(m) for m in missing)}" if missing else "")


def judge_db(task: AppTask, ev: DbEvaluator, exp: Expectation, query: Query) -> Verdict:
    got = _rows(task, query, ev.sql, "sql")
    if not _same_rows(got, exp.rows):
        return Verdict(success=False, expected=exp.rows, got=got, detail="the database does not hold the expected rows")
    for sql, before in zip(ev.unchanged, exp.unchanged):
        after = _rows(task, query, sql, "unchanged query")
        if not _same_rows(after, before):
            return Verdict(success=False, expected=exp.rows, got=got,
                           detail=f"the run also changed what the task leaves alone ({sql})")
    return Verdict(success=True, expected=exp.rows, got=got)


def judge(task: AppTask, exp: Expectation, answer: str, query: Query) -> Verdict:
    ev = task.evaluator
    if isinstance(ev, DbEvaluator):
        return judge_db(task, ev, exp, query)
    return judge_answer(ev, exp, answer or "")
