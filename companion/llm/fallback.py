"""One bad model answer never costs the task: the one way a call gets a deterministic stand-in.

A call whose model gave no valid answer after its retries (LLMOutputError) is answered by its stand-in, and the
task's tally keeps a note of it (usage.record_fallback: the agent says it in the step's notes, the benchmarks
count it). A timeout or a lost server is not this: those have their own handling (client.py: asked again with a
longer limit, then the task stops with a checkpoint), so they pass through.

    answer = await or_stand_in(llm.ask("page_summary", ...), lambda: stand_in, prompt="page_summary",
                               what="the sections' purposes")

Decision calls (which action, which option, is the task complete) have no stand-in that would not decide for
the model: decided_twice() asks once more with a shorter prompt (no history), then raises NoDecision.
"""

from __future__ import annotations

import logging
from typing import Awaitable, Callable, TypeVar

from companion.llm.client import LLMOutputError
from companion.llm.usage import record_fallback

T = TypeVar("T")
log = logging.getLogger(__name__)


class NoDecision(LLMOutputError):
    """A decision call had no valid answer, asked twice (the second time without the history).
    done: what a workflow had already done in the browser before it (a form's fills): the step's history keeps it."""

    def __init__(self, message: str, done: list[str] | None = None):
        super().__init__(message)
        self.done = list(done or [])


async def or_stand_in(call: Awaitable[T], stand_in: Callable[[], T], *, prompt: str, what: str) -> T:
    """The call's answer, or (no valid answer after its retries) `stand_in()`, noted as `what` stood in."""
    try:
        return await call
    except LLMOutputError as exc:
        note = f"{prompt}: the model gave no valid answer; {what} stood in"
        log.warning("%s (%s)", note, exc)
        record_fallback(note)
        return stand_in()


async def decided_twice(ask: Callable[[dict], Awaitable[T]], variables: dict, *, prompt: str) -> T:
    """`ask(variables)`; with no valid answer, `ask` once more with the history left out (a shorter prompt the
    model may answer); with none again, NoDecision naming the prompt and the last problem."""
    try:
        return await ask(variables)
    except LLMOutputError as first:
        log.warning("prompt %r: no valid answer; asking once more without the history (%s)", prompt, first)
    try:
        return await ask({**variables, "history": ""})
    except LLMOutputError as exc:
        raise NoDecision(f"prompt {prompt!r}: no valid answer, asked twice (the second time without the history): "
                         f"{exc}") from exc
