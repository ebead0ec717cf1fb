"""Idle unloading of the embedded model (xllamacpp + SmolLM2-135M): after `idle_unload_s` without a call its
server is stopped and its memory freed; the next call loads it again and answers."""

import asyncio
import logging
import socket
from urllib.parse import urlsplit

import pytest

from companion.llm import LLMClient
from companion.llm.model_files import ensure_model

pytestmark = pytest.mark.embedded

IDLE_S = 2.0
OPTIONS = ["Home", "Search", "Cart"]


@pytest.fixture(scope="module")
def small_model():
    return ensure_model("smollm2-135m", install=True, log=lambda m: None)


@pytest.fixture
def client(small_model):
    # Its own context size: a model of its own, apart from the other embedded tests' (kept loaded) one.
    return LLMClient(spec="embedded:smollm2-135m", n_ctx=2048, n_parallel=1, timeout_s=120, idle_unload_s=IDLE_S)


async def _choose(client: LLMClient) -> int:
    reply = await client.choose("choice_probe", {"question": "Which page?", "options": OPTIONS}, n=len(OPTIONS), reason=False)
    return reply.answer.index


def _accepts(base_url: str) -> bool:
    parts = urlsplit(base_url)
    try:
        with socket.create_connection((parts.hostname, parts.port), timeout=1):
            return True
    except OSError:
        return False


async def _wait_until(condition, within: float) -> bool:
    deadline = asyncio.get_running_loop().time() + within
    while asyncio.get_running_loop().time() < deadline:
        if condition():
            return True
        await asyncio.sleep(0.1)
    return condition()


async def test_an_idle_embedded_model_is_unloaded_and_its_server_stopped(client):
    """After idle_unload_s without a call the model is unloaded: its loopback server no longer accepts connections."""
    await _choose(client)
    url = client.base_url
    assert _accepts(url)
    assert await _wait_until(lambda: not _accepts(url), within=IDLE_S + 5)


async def test_a_call_after_unloading_loads_the_model_again_and_answers(client, caplog):
    """The call after an unload waits for the model to load again (a log line says so) and gets its answer."""
    await _choose(client)
    first_url = client.base_url
    assert await _wait_until(lambda: not _accepts(first_url), within=IDLE_S + 5)
    with caplog.at_level(logging.INFO, logger="companion.llm.embedded"):
        assert 0 <= await _choose(client) < len(OPTIONS)
    assert any("loading the embedded model" in r.getMessage() for r in caplog.records)
    assert _accepts(client.base_url)


async def test_idle_unload_zero_keeps_the_model_loaded(small_model):
    """idle_unload_s = 0 turns unloading off: the server still answers well past a short idle period."""
    client = LLMClient(spec="embedded:smollm2-135m", n_ctx=1024, n_parallel=1, timeout_s=120, idle_unload_s=0)
    await _choose(client)
    await asyncio.sleep(IDLE_S + 1.5)
    assert _accepts(client.base_url)
