"""Every LLM call of the observation pipeline goes through one Caller: it checks the prompt against the
budget before sending, keeps per-call accounting for the Observation, and answers a call the model gave no
valid answer to with the call's Fallback (llm/fallback.py: the task goes on, the step's notes say so).

The accounting is collected from each reply rather than with llm.track_usage(), because a nested
track_usage would hide these calls from the task-level tally the agent keeps.
"""

from __future__ import annotations

from typing import Any, Callable, NamedTuple, Protocol

from pydantic import BaseModel, Field

from companion import llm
from companion.llm.fallback import or_stand_in
from companion.llm.usage import CallUsage, Reply
from companion.observe.budget import Budget, ensure_fits


class LLMLike(Protocol):
    """companion.llm.LLMClient, or the local deterministic policy of the token benchmark."""

    async def ask(self, prompt: str, variables: dict, answer: Any, *, max_tokens: int, temperature: float = 0.0) -> Reply: ...

    async def choose_many(self, prompt: str, variables: dict, n: int, *, max_items: int | None = None,
                          reason: bool = False, max_tokens: int | None = None) -> Reply: ...


class Fallback(NamedTuple):
    """What a call's answer is when the model gave none that is valid: `stand_in()`, said to be `what`."""

    what: str  # e.g. "the section's structural description (headings, labels, first lines)"
    stand_in: Callable[[], Any]


class CallRecord(BaseModel):
    prompt: str
    prompt_tokens: int = Field(description="our count of the prompt as rendered (the budget's measure)")
    section_id: str | None = None
    usage: CallUsage | None = Field(None, description="the server's accounting")
    fallback: bool = Field(False, description="no valid answer: the call's Fallback stood in")


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

    async def _call(self, prompt: str, request, size: int, section_id: str | None, fallback: Fallback) -> Reply | None:
        """The request's reply, accounted; None when its fallback is to stand in (accounted as such)."""
        what = f"{fallback.what} (section {section_id})" if section_id else fallback.what
        reply = await or_stand_in(request, lambda: None, prompt=prompt, what=what)
        self.accounting.calls.append(CallRecord(prompt=prompt, prompt_tokens=size, section_id=section_id,
                                                usage=reply.usage if reply else None, fallback=reply is None))
        return reply

    async def ask(self, prompt: str, variables: dict, answer: type[BaseModel], *, max_tokens: int, fallback: Fallback,
                  section_id: str | None = None) -> Any:
        n = ensure_fits(prompt, variables, self.budget)
        reply = await self._call(prompt, self._client().ask(prompt, variables, answer, max_tokens=max_tokens), n,
                                 section_id, fallback)
        return reply.answer if reply else fallback.stand_in()

    async def choose_many(self, prompt: str, variables: dict, n: int, *, fallback: Fallback,
                          max_items: int | None = None, section_id: str | None = None) -> list[int]:
        size = ensure_fits(prompt, variables, self.budget)
        # No max_tokens: the client gives the longest subset exactly the tokens it needs (llm/fit.py).
        reply = await self._call(prompt, self._client().choose_many(prompt, variables, n, max_items=max_items), size,
                                 section_id, fallback)
        return list(reply.answer.indices) if reply else list(fallback.stand_in())
