"""`webchallenger run` end to end as a user runs it (a subprocess launching its own Chromium): a session
recorded against the scripted LLM replays to the identical sequence of actions with no LLM server at all."""

from __future__ import annotations

import json

from tests.support.price_task import PRICE_TASK, blue_price, choose_kettles_then_end
from tests.support.run_cli import action_lines, run_cli


def test_recorded_session_replays_to_the_same_actions_without_a_server(pages, agent_llm, tmp_path):
    server = agent_llm(choose=choose_kettles_then_end, answer=blue_price)
    session = tmp_path / "session.jsonl"
    common = [PRICE_TASK, "--start-url", pages.url("agent_shop.html"), "--headless", "--no-confirm"]

    recorded = run_cli(common + ["--llm", server.spec, "--record", str(session)], tmp_path / "data1")
    assert recorded.returncode == 0, recorded.stdout + recorded.stderr
    assert "Answer: $24.50" in recorded.stdout
    assert 'Action: Clicked link "Kettles"' in recorded.stdout
    calls = len(server.requests)
    assert calls > 0 and sum("key" in json.loads(line) for line in session.read_text().splitlines()) == calls  # every call recorded
    server.stop()  # nothing answers HTTP any more

    replayed = run_cli(common + ["--replay", str(session)], tmp_path / "data2")
    assert replayed.returncode == 0, replayed.stdout + replayed.stderr
    assert action_lines(replayed.stdout) == action_lines(recorded.stdout)
    assert "Answer: $24.50" in replayed.stdout
    assert "LLM: replay:" in replayed.stdout


def test_run_reports_a_bad_llm_spec_clearly(tmp_path):
    result = run_cli(["anything", "--start-url", "http://127.0.0.1:1/", "--llm", "nonsense:thing"], tmp_path / "data", timeout=60)
    assert result.returncode == 2
    assert "cannot understand LLM spec" in result.stderr


def test_replay_of_a_missing_file_is_a_clear_error(tmp_path):
    result = run_cli(["anything", "--start-url", "http://127.0.0.1:1/", "--replay", str(tmp_path / "none.jsonl")],
                     tmp_path / "data", timeout=60)
    assert result.returncode == 2
    assert "not found" in result.stderr


def test_a_local_file_start_page_is_served_from_loopback(agent_llm, tmp_path):
    server = agent_llm(choose=choose_kettles_then_end, answer=blue_price)
    result = run_cli([PRICE_TASK, "--start-url", "tests/fixtures/pages/agent_shop.html", "--headless", "--no-confirm",
                      "--llm", server.spec], tmp_path / "data")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "(http://127.0.0.1:" in result.stdout  # the step header names the served URL, not a file:// one
    assert "Answer: $24.50" in result.stdout
