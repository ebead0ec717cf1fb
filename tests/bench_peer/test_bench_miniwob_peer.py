"""`webchallenger bench miniwob --peer browser-use`: our agent and browser-use on the same episode and the same
OpenAI-compatible endpoint (scripted: the lexical policy for our prompts, a click on the quoted element for
browser-use's), both rows in one table and in the JSON result."""

from __future__ import annotations

import json
import re
import tomllib

import pytest

from tests.support.peer_cli import ROOT, needs_peer, webchallenger
from tests.support.peer_llm import PeerScriptedServer

pytestmark = pytest.mark.browser
PEER_PIN = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]["peer"]


@pytest.fixture(scope="module")
def scripted():
    with PeerScriptedServer() as server:
        yield server


@pytest.fixture(scope="module")
def side_by_side(scripted, tmp_path_factory):
    out = tmp_path_factory.mktemp("miniwob") / "result.json"
    proc = webchallenger("bench", "miniwob", "--tasks", "click-button", "--seeds", "1,", "--max-steps", "3",
                         "--episode-timeout", "120", "--llm", scripted.spec, "--peer", "browser-use", "--out", str(out))
    return proc, out


@needs_peer
def test_both_agents_have_a_row_for_the_task_in_one_table(side_by_side):
    proc, _ = side_by_side
    assert proc.returncode == 0, proc.stderr[-3000:]
    rows = [line for line in proc.stdout.splitlines() if re.match(r"^(click-button|\s{30})\s", line) and "/" in line]
    assert [("webchallenger" in r, "browser-use" in r) for r in rows[:2]] == [(True, False), (False, True)], proc.stdout


@needs_peer
def test_the_json_result_holds_the_peers_scored_episode_on_the_same_seed(side_by_side):
    proc, out = side_by_side
    assert proc.returncode == 0, proc.stderr[-3000:]
    result = json.loads(out.read_text())
    ours, theirs = result["episodes"][0], result["peer"]["episodes"][0]
    assert (theirs["task"], theirs["seed"], theirs["utterance"]) == (ours["task"], ours["seed"], ours["utterance"])
    assert (theirs["ended_by"], theirs["reward"], theirs["calls"] > 0) == ("miniwob", 1.0, True), theirs["reason"]
    assert f'browser-use=={result["peer"]["version"]}' in PEER_PIN  # the release pyproject's peer extra pins


def test_the_lexical_policy_is_refused_for_the_peer_with_the_reason():
    proc = webchallenger("bench", "miniwob", "--tasks", "click-button", "--llm", "lexical", "--peer", "browser-use", timeout=120)

    assert proc.returncode == 2
    assert "browser-use needs a model" in proc.stderr and "lexical" in proc.stderr
