"""Accounting: tokens and latency per call, summed per task.

A task opens `track_usage()`; every call made inside it (including concurrent sub-calls spawned with
asyncio.gather, which inherit the context) adds to the same tally.
"""

from __future__ import annotations

import contextlib
import contextvars
from typing import Generic, Iterable, Literal, TypeVar

from pydantic import BaseModel, Field

T = TypeVar("T")

Mode = Literal["json_schema", "json_object_schema", "grammar", "text", "replay"]


class CallUsage(BaseModel):
    prompt: str
    prompt_version: str
    mode: Mode
    model: str
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cached_tokens: int = 0
    latency_s: float = 0.0
    attempts: int = 1  # 1 + the retries after invalid output


class Reply(BaseModel, Generic[T]):
    answer: T
    usage: CallUsage
    raw: str = ""  # the model's text, as received


class UsageTally(BaseModel):
    calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cached_tokens: int = 0
    latency_s: float = 0.0
    by_prompt: dict[str, int] = Field(default_factory=dict)  # calls per prompt name
    new_by_prompt: dict[str, int] = Field(default_factory=dict)  # new (uncached) prompt tokens per prompt name
    fallbacks: list[str] = Field(default_factory=list)  # calls with no valid answer a stand-in replaced (fallback.py)
    dropped: set[str] = Field(default_factory=set)  # values the model stated that no page read supports, left out
    # (observe/grounding.py), each once however often it was stated: "<value> was not found [with ...] on this page"

    def add(self, usage: CallUsage) -> None:
        self.calls += 1
        self.prompt_tokens += usage.prompt_tokens
        self.completion_tokens += usage.completion_tokens
        self.cached_tokens += usage.cached_tokens
        self.latency_s += usage.latency_s
        self.by_prompt[usage.prompt] = self.by_prompt.get(usage.prompt, 0) + 1
        new = max(0, usage.prompt_tokens - usage.cached_tokens)
        self.new_by_prompt[usage.prompt] = self.new_by_prompt.get(usage.prompt, 0) + new


_current: contextvars.ContextVar[UsageTally | None] = contextvars.ContextVar("webchallenger_llm_tally", default=None)


@contextlib.contextmanager
def track_usage():
    """`with track_usage() as tally:` sums every LLM call made in this context (a task)."""
    tally = UsageTally()
    token = _current.set(tally)
    try:
        yield tally
    finally:
        _current.reset(token)


def record_usage(usage: CallUsage) -> None:
    tally = _current.get()
    if tally is not None:
        tally.add(usage)


def record_fallback(note: str) -> None:
    """A call of this task got no valid answer and a stand-in took its place: `note` says which and what."""
    tally = _current.get()
    if tally is not None:
        tally.fallbacks.append(note)


def record_dropped(notes: Iterable[str]) -> None:
    """This task's grounding left out the values of `notes` (one per value) that a model stated and no page read
    supports; a value stated again (the same observation grounded twice, the next step) counts once."""
    tally = _current.get()
    if tally is not None:
        tally.dropped.update(notes)
