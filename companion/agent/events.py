"""Task events: numbered, typed (protocol.TaskEventData), fanned out to every subscriber as they happen.

Subscribers are plain callables or coroutine functions; one that fails is logged and dropped from
nothing else (a broken UI must not stop the task).
"""

from __future__ import annotations

import asyncio
import inspect
import logging
from typing import Any, Awaitable, Callable

from companion.llm.usage import UsageTally
from companion.typed_secrets import map_strings, mask
from companion.protocol import PromptUsage, TaskEventData, TaskUsage

log = logging.getLogger(__name__)

Subscriber = Callable[[TaskEventData], Any | Awaitable[Any]]


def usage_of(tally: UsageTally, *, by_prompt: bool = True) -> TaskUsage:
    """by_prompt=False: the totals only (what each step event carries; the finished event has the split)."""
    return TaskUsage(calls=tally.calls, prompt_tokens=tally.prompt_tokens, cached_tokens=tally.cached_tokens,
                     completion_tokens=tally.completion_tokens,
                     llm_seconds=round(tally.latency_s, 3), fallbacks=len(tally.fallbacks),
                     values_dropped=len(tally.dropped),
                     by_prompt={name: PromptUsage(calls=calls, new_tokens=tally.new_by_prompt.get(name, 0))
                                for name, calls in tally.by_prompt.items()} if by_prompt else {})


class EventStream:
    def __init__(self, subscribers: list[Subscriber] | None = None):
        self.subscribers: list[Subscriber] = list(subscribers or [])
        self.events: list[TaskEventData] = []

    async def emit(self, kind: str, **fields) -> TaskEventData:
        # Events are shown and kept (the side panel's task history): a secret the task typed is masked in them.
        fields = {k: map_strings(v, mask) if isinstance(v, (str, list)) else v for k, v in fields.items()}
        event = TaskEventData(seq=len(self.events), kind=kind, **fields)
        self.events.append(event)
        for subscriber in list(self.subscribers):
            try:
                result = subscriber(event)
                if inspect.isawaitable(result):
                    await result
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("task event subscriber failed on %s event", kind)
        return event
