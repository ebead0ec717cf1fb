"""Faults of the LLM server, through the real openai client: a slow answer costs one retry with a longer
limit, a server that is gone is named with what to do about it."""

import asyncio
import socket

import pytest

from companion.llm import LLMClient, LLMConnectionError, LLMTimeoutError
from companion.llm.client import TIMEOUT_RETRY_FACTOR
from benchmarks.openai_server import ChatReply
from tests.support.scripted_server import Stall

PROBE = {"question": "Which is a fruit?", "options": ["hammer", "apple", "violin"]}


def free_port() -> int:
    with socket.socket() as sock:  # free a moment ago: nothing listens there
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


async def test_an_answer_past_the_limit_is_asked_again_with_a_longer_limit(scripted_llm, llm_client_for):
    server = scripted_llm(script=['{"index": 1}'], stall=Stall(seconds=30, at=1))
    client = llm_client_for(server, timeout_s=1.5)
    reply = await asyncio.wait_for(client.choose("choice_probe", PROBE, n=3, reason=False), timeout=60)
    assert reply.answer.index == 1
    chats = [r for r in server.requests if r.path.endswith("chat/completions")]
    assert len(chats) == 2 and server.stalled == [chats[0]]  # the stalled request, then its retry


async def test_a_prompt_the_retry_finds_cached_counts_as_new(scripted_llm, llm_client_for):
    # The server read the first request's prompt after the client gave up: the retry finds it in its cache.
    cached = ChatReply(content='{"index": 1}', prompt_tokens=500, cached_tokens=499)
    server = scripted_llm(script=[cached, cached], stall=Stall(seconds=30, at=1))
    client = llm_client_for(server, timeout_s=1.5)
    retried = await asyncio.wait_for(client.choose("choice_probe", PROBE, n=3, reason=False), timeout=60)
    assert retried.usage.prompt_tokens == 500 and retried.usage.cached_tokens == 0
    answered = await asyncio.wait_for(client.choose("choice_probe", PROBE, n=3, reason=False), timeout=60)
    assert answered.usage.cached_tokens == 499  # asked once: what the server reports


async def test_a_server_too_slow_twice_is_a_timeout_naming_both_limits(scripted_llm, llm_client_for):
    server = scripted_llm(script=['{"index": 0}'], delay_s=30)
    client = llm_client_for(server, timeout_s=0.5)
    with pytest.raises(LLMTimeoutError, match=rf"within 0.5s, nor within {0.5 * TIMEOUT_RETRY_FACTOR:g}s") as info:
        await asyncio.wait_for(client.choose("choice_probe", PROBE, n=3), timeout=20)
    assert "choice_probe" in str(info.value)
    assert len(server.requests) == 2  # one retry, not more


async def test_a_server_that_is_gone_is_named_with_how_to_check_and_start_it():
    port = free_port()
    spec = f"openai:http://127.0.0.1:{port}/v1#m"
    client = LLMClient(spec=spec, timeout_s=5)
    with pytest.raises(LLMConnectionError) as info:
        await asyncio.wait_for(client.choose("choice_probe", PROBE, n=3), timeout=20)
    message = str(info.value)
    assert f"http://127.0.0.1:{port}/v1" in message
    assert "connection refused" in message
    assert f"webchallenger llm check --llm {spec}" in message
    assert "start the OpenAI-compatible server" in message


async def test_a_preset_server_that_is_gone_says_how_to_start_that_server(monkeypatch):
    port = free_port()
    monkeypatch.setitem(__import__("companion.llm.config", fromlist=["PRESETS"]).PRESETS, "ollama", f"http://127.0.0.1:{port}/v1")
    client = LLMClient(spec="ollama#m", timeout_s=5)
    with pytest.raises(LLMConnectionError, match="ollama serve"):
        await asyncio.wait_for(client.choose("choice_probe", PROBE, n=3), timeout=20)


async def test_a_reply_cut_by_the_token_budget_is_asked_again_unchanged_with_twice_the_budget(scripted_llm, llm_client_for):
    """A reply cut at max_tokens (a reason of digits takes a token a character, twice what fit.py counts) is not
    the model's error: the same messages go again with twice the budget, and the bounded reply fits."""
    from tests.support.scripted_server import ScriptedReply

    cut = ScriptedReply(content='{"reason": "2023-08-22 12:22:52.142.0.12', finish_reason="length")
    server = scripted_llm(script=[cut, '{"reason": "2023-08-22 12:22:52", "index": 2}'])
    client = llm_client_for(server)
    reply = await asyncio.wait_for(client.choose("choice_probe", PROBE, n=3), timeout=60)
    assert reply.answer.index == 2
    first, second = [r.body for r in server.requests if r.path.endswith("chat/completions")]
    assert second["messages"] == first["messages"]  # asked again as it was, not told to be brief
    assert second["max_tokens"] == 2 * first["max_tokens"]
