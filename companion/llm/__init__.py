"""The LLM layer: one client for every call, prompts rendered by name from prompts/*.j2.

    from companion import llm

    reply = await llm.ask("page_task_summary", {"task": ..., "history": ..., "page": ..., "extractions": ...},
                          llm.TaskSummary, max_tokens=200)
    choice = await llm.choose("action_selection", {...}, n=len(candidates))   # choice.answer.index, .reason
    subset = await llm.choose_many("section_selection", {...}, n=len(sections))  # subset.answer.indices

    with llm.track_usage() as tally:   # sums every call of a task, including concurrent sub-calls
        ...

The module-level functions use a process-wide client configured from --llm / WEBCHALLENGER_LLM / llm.toml;
`llm.set_client(LLMClient(spec=...))` replaces it (tests point it at the scripted server).
"""

from __future__ import annotations

from companion.llm.answers import *  # noqa: F401,F403  (the answer models of the prompts)
from companion.llm.client import (
    LLMClient,
    LLMConnectionError,
    LLMError,
    LLMOutputError,
    LLMServerError,
    LLMTimeoutError,
)
from companion.llm.fallback import NoDecision, decided_twice, or_stand_in
from companion.llm.config import LLMConfigError, LLMSettings, add_llm_arguments, load_settings, parse_spec
from companion.llm.prompts import PromptError, available_prompts, numbered, render, untrusted, use_task_nonce
from companion.llm.structured import StrictAnswer, choice_model, subset_model
from companion.llm.usage import CallUsage, Reply, UsageTally, record_dropped, track_usage

_client: LLMClient | None = None


def get_client() -> LLMClient:
    global _client
    if _client is None:
        _client = LLMClient()
    return _client


def set_client(client: LLMClient | None) -> None:
    global _client
    _client = client


async def ask(prompt, variables, answer, *, max_tokens, temperature=0.0) -> Reply:
    return await get_client().ask(prompt, variables, answer, max_tokens=max_tokens, temperature=temperature)


async def choose(prompt, variables, n, **kw) -> Reply:
    return await get_client().choose(prompt, variables, n, **kw)


async def choose_many(prompt, variables, n, **kw) -> Reply:
    return await get_client().choose_many(prompt, variables, n, **kw)


def use_llm_from_args(args) -> LLMClient:
    """Build the process-wide client from add_llm_arguments' flags (env and llm.toml fill the rest)."""
    client = LLMClient(spec=getattr(args, "llm", None), timeout_s=getattr(args, "llm_timeout", None),
                       record_path=getattr(args, "llm_record", None))
    set_client(client)
    return client
