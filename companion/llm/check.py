"""`llm check`: is this backend usable? Probe it (model, context size, structured-output mode) and time one choice.

    result = await check_backend(client)   # LLMCheck: what `webchallenger llm check` prints, and what the
                                           # extension's options page shows after its Check button

One small numbered choice (prompts/choice_probe.j2) is the smallest real call the agent makes: it goes through
the same negotiation of the structured-output mode as every task, so a backend that passes here can run tasks.
"""

from __future__ import annotations

import time

from pydantic import BaseModel

from companion.llm.client import LLMClient
from companion.llm.usage import Mode

PROBE_VARIABLES = {
    "question": "Which of these is a fruit?",
    "options": ["a hammer", "an apple", "a bicycle", "a violin"],
}


class LLMCheck(BaseModel):
    """What a check found: the backend's identity, how long it took to be ready, and the one timed choice."""

    backend: str
    spec: str
    base_url: str = ""
    model: str = ""
    n_ctx: int | None = None
    ready_s: float
    mode: Mode
    choice_s: float  # the answer time of the one choice (all its attempts)
    prompt_tokens: int
    completion_tokens: int
    answer: int
    attempts: int


async def check_backend(client: LLMClient) -> LLMCheck:
    """Probe `client`'s backend and time one choice. Raises the LLM layer's errors (LLMError, ModelError)."""
    started = time.monotonic()
    info = await client.probe()  # starts an embedded server, finds a server's model
    ready_s = time.monotonic() - started
    reply = await client.choose("choice_probe", PROBE_VARIABLES, n=len(PROBE_VARIABLES["options"]), reason=False)
    usage = reply.usage
    return LLMCheck(backend=info["backend"], spec=info["spec"], base_url=info["base_url"] or "", model=info["model"] or "",
                    n_ctx=info["n_ctx"], ready_s=ready_s, mode=usage.mode, choice_s=usage.latency_s,
                    prompt_tokens=usage.prompt_tokens, completion_tokens=usage.completion_tokens,
                    answer=reply.answer.index, attempts=usage.attempts)


__all__ = ["LLMCheck", "check_backend", "PROBE_VARIABLES"]
