"""Every LLM call of the observation pipeline goes through one Caller: it checks the prompt against the
budget before sending, and keeps per-call accounting for the Observation.

The accounting is collected from each reply rather than with llm.track_usage(), because a nested
track_usage would hide these calls from the task-level tally the agent keeps.
"""

from __future__ import annotations

from typing import Any, Protocol

from pydantic import BaseModel, Field

from companion import llm
from companion.llm.usage import CallUsage, Reply
from companion.observe.budget import Budget, ensure_fits


class LLMLike(Protocol):
    """companion.llm.LLMClient, or the local deterministic policy of the token benchmark."""

    async def ask(self, prompt: str, variables: dict, answer: Any, *, max_tokens: int, temperature: float = 0.0) -> Reply: ...

    async def choose_many(self, prompt: str, variables: dict, n: int, *, max_items: int | None = None,
                          reason: bool = False, max_tokens: int | None = None) -> Reply: ...


class CallRecord(BaseModel):
    prompt: str
    prompt_tokens: int = Field(description="our count of the prompt as rendered (the budget's measure)")
    section_id: str | None = None
    usage: CallUsage | None = Field(None, description="the server's accounting")


class Accounting(BaseModel):
    calls: list[CallRecord] = Field(default_factory=list)

    @property
    def count(self) -> int:
        return len(self.calls)

    @property
    def max_prompt_tokens(self) -> int:
        return max((c.prompt_tokens for c in self.calls), default=0)

    @property
    def prompt_tokens(self) -> int:
        return sum(c.prompt_tokens for c in self.calls)

    def by_prompt(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for c in self.calls:
            out[c.prompt] = out.get(c.prompt, 0) + 1
        return out


class Caller:
    def __init__(self, client: LLMLike | None, budget: Budget, accounting: Accounting) -> None:
        self.client = client
        self.budget = budget
        self.accounting = accounting

    def _client(self) -> LLMLike:
        return self.client if self.client is not None else llm.get_client()

    async def ask(self, prompt: str, variables: dict, answer: type[BaseModel], *, max_tokens: int,
                  section_id: str | None = None) -> Any:
        n = ensure_fits(prompt, variables, self.budget)
        reply = await self._client().ask(prompt, variables, answer, max_tokens=max_tokens)
        self.accounting.calls.append(CallRecord(prompt=prompt, prompt_tokens=n, section_id=section_id, usage=reply.usage))
        return reply.answer

    async def choose_many(self, prompt: str, variables: dict, n: int, *, max_items: int | None = None,
                          section_id: str | None = None) -> list[int]:
        size = ensure_fits(prompt, variables, self.budget)
        limit = min(max_items or n, n)
        # Each index costs a few tokens ("12, "): fitted, so a long subset never runs for seconds.
        reply = await self._client().choose_many(prompt, variables, n, max_items=max_items,
                                                 max_tokens=12 + 4 * limit)
        self.accounting.calls.append(CallRecord(prompt=prompt, prompt_tokens=size, section_id=section_id, usage=reply.usage))
        return list(reply.answer.indices)
