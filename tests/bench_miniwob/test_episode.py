"""MiniWoB++ end to end: the pinned wheel's pages served on 127.0.0.1, one episode through the real extension in
the session's headless Chromium, the agent on the lexical policy (the real client over HTTP to its server), and
the reward read from the page's own world. The wheel is fetched with pip into the test session's cache."""

from __future__ import annotations

import re

import pytest

from benchmarks.lexical import lexical_server
from benchmarks.miniwob import MiniWoBHarness
from companion import llm
from companion.llm.client import LLMClient

pytestmark = pytest.mark.browser


@pytest.fixture
def lexical_client():
    lexical_server()  # what `webchallenger` starts for `--llm lexical`
    client = LLMClient(spec="lexical")
    llm.set_client(client)
    yield client
    llm.set_client(None)


def test_click_button_episode_ends_with_the_pages_full_reward(browser, miniwob_html, lexical_client):
    with MiniWoBHarness(miniwob_html, browser=browser, episode_timeout_s=120) as harness:
        result = harness.run_episode("click-button", seed=0, max_steps=3)

    target = re.search(r'"([^"]+)"', result.utterance).group(1)
    assert (result.ended_by, result.reward, result.success) == ("miniwob", 1.0, True), result.reason
    assert any(a.startswith("Clicked button") and f'"{target}"' in a for a in result.actions), result.actions
    assert result.calls > 0 and result.prompt_tokens > 0


def test_the_seed_decides_the_episode(browser, miniwob_html, lexical_client):
    with MiniWoBHarness(miniwob_html, browser=browser, episode_timeout_s=120) as harness:
        first, again, other = (harness.run_episode("click-button", seed=s, max_steps=1) for s in (0, 0, 1))

    assert first.utterance == again.utterance
    assert first.utterance != other.utterance
