"""browser-use on a MiniWoB episode set up as our harness sets it up (the pinned wheel's pages on 127.0.0.1, seeded,
started in the page's world, the reward read from it), thinking through a scripted OpenAI-compatible server."""

from __future__ import annotations

import pytest

from benchmarks.miniwob import ensure_miniwob_html
from benchmarks.peer import LLMEndpoint, PeerMiniWoB
from tests.support.peer_cli import needs_peer
from tests.support.peer_llm import COMPLETION_TOKENS, PROMPT_TOKENS, PeerScriptedServer

pytestmark = [pytest.mark.browser, needs_peer]


@pytest.fixture(scope="module")
def miniwob_html():
    return ensure_miniwob_html(lambda message: None)


@pytest.fixture(scope="module")
def scripted():
    with PeerScriptedServer() as server:
        yield server


@pytest.fixture(scope="module")
def peer(miniwob_html):
    with PeerMiniWoB(miniwob_html, episode_timeout_s=120) as runner:
        yield runner


@pytest.fixture(scope="module")
def episode(peer, scripted):
    endpoint = LLMEndpoint(base_url=scripted.base_url, model=scripted.model)
    return peer.run_episode("click-button", seed=1, llm_endpoint=endpoint, max_steps=3)


def test_the_peers_episode_ends_with_the_pages_full_reward(episode):
    assert (episode.ended_by, episode.reward, episode.success) == ("miniwob", 1.0, True), episode.reason
    assert episode.actions and episode.actions[0].startswith("click("), episode.actions


def test_the_peers_calls_and_tokens_are_counted_as_the_server_reported_them(episode, scripted):
    assert episode.calls == scripted.peer_calls >= 1
    assert (episode.prompt_tokens, episode.completion_tokens) == (PROMPT_TOKENS * episode.calls, COMPLETION_TOKENS * episode.calls)


def test_the_peer_gets_the_seeds_utterance_our_harness_gets(peer, scripted, episode, browser, miniwob_html, lexical_client):
    from benchmarks.miniwob import MiniWoBHarness

    with MiniWoBHarness(miniwob_html, browser=browser, episode_timeout_s=120) as harness:
        ours = harness.run_episode("click-button", seed=1, max_steps=1)

    assert ours.utterance == episode.utterance


@pytest.fixture
def lexical_client():
    from benchmarks.lexical import lexical_server
    from companion import llm
    from companion.llm.client import LLMClient

    lexical_server()  # what `webchallenger` starts for `--llm lexical`
    client = LLMClient(spec="lexical")
    llm.set_client(client)
    yield client
    llm.set_client(None)
