"""Record and replay with a local-file start page: `run` serves the file from 127.0.0.1 on a free port and
notes the port in the session; the replay serves it on that same port, so its prompts are the recorded ones."""

from __future__ import annotations

import json
import re
import socket

from tests.support.run_cli import action_lines, run_cli
from tests.support.price_task import PRICE_TASK, blue_price, choose_kettles_then_end

SERVED = re.compile(r"\(http://127\.0\.0\.1:(\d+)/agent_shop\.html\)")
START = ["--start-url", "tests/fixtures/pages/agent_shop.html", "--headless", "--no-confirm"]


def test_a_local_file_session_replays_to_the_same_actions_without_a_server(agent_llm, tmp_path):
    server = agent_llm(choose=choose_kettles_then_end, answer=blue_price)
    session = tmp_path / "session.jsonl"

    recorded = run_cli([PRICE_TASK, *START, "--llm", server.spec, "--record", str(session)], tmp_path / "data1")
    assert recorded.returncode == 0, recorded.stdout + recorded.stderr
    assert 'Action: Clicked link "Kettles"' in recorded.stdout
    port = int(SERVED.search(recorded.stdout).group(1))
    lines = [json.loads(line) for line in session.read_text().splitlines()]
    assert {"meta": {"local_pages_port": port}} in lines
    assert len([line for line in lines if "key" in line]) == len(server.requests) > 0
    server.stop()  # nothing answers HTTP any more

    replayed = run_cli([PRICE_TASK, *START, "--replay", str(session)], tmp_path / "data2")
    assert replayed.returncode == 0, replayed.stdout + replayed.stderr
    assert int(SERVED.search(replayed.stdout).group(1)) == port
    assert action_lines(replayed.stdout) == action_lines(recorded.stdout)
    assert "Answer: $24.50" in replayed.stdout


def test_a_replay_whose_port_is_taken_says_so(tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        session = tmp_path / "session.jsonl"
        session.write_text(json.dumps({"meta": {"local_pages_port": port}}) + "\n")
        result = run_cli([PRICE_TASK, *START, "--replay", str(session)], tmp_path / "data", timeout=60)
    assert result.returncode == 1
    assert f"127.0.0.1:{port}" in result.stderr and "not free" in result.stderr
