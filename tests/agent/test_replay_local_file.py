"""Record and replay with a local-file start page: the page is served from 127.0.0.1 on a free port, which
differs between the recording run and the replay; the served host:port is aliased in what is matched."""

from __future__ import annotations

import re

from companion.llm import LLMClient, TextValue
from companion.llm.recording import LOCAL_PAGES_HOST
from companion.llm.testing import scripted_llm  # noqa: F401  (fixture)
from tests.agent.test_run_command import action_lines, choose_kettles_then_end, run_cli
from tests.agent.test_task_flow import PRICE_TASK, _blue_price

SERVED = re.compile(r"\(http://(127\.0\.0\.1:\d+)/agent_shop\.html\)")


def test_a_local_file_session_replays_to_the_same_actions_without_a_server(agent_llm, tmp_path):
    server = agent_llm(choose=choose_kettles_then_end, answer=_blue_price)
    session = tmp_path / "session.jsonl"
    common = [PRICE_TASK, "--start-url", "tests/fixtures/pages/agent_shop.html", "--headless", "--no-confirm"]

    recorded = run_cli(common + ["--llm", server.spec, "--record", str(session)], tmp_path / "data1")
    assert recorded.returncode == 0, recorded.stdout + recorded.stderr
    assert 'Action: Clicked link "Kettles"' in recorded.stdout
    recorded_host = SERVED.search(recorded.stdout).group(1)
    text = session.read_text()
    assert len(text.splitlines()) == len(server.requests) > 0
    assert recorded_host not in text and LOCAL_PAGES_HOST in text  # the recording names no port
    server.stop()  # nothing answers HTTP any more

    replayed = run_cli(common + ["--replay", str(session)], tmp_path / "data2")
    assert replayed.returncode == 0, replayed.stdout + replayed.stderr
    assert SERVED.search(replayed.stdout) is not None  # served again, on a port of its own
    assert action_lines(replayed.stdout) == action_lines(recorded.stdout)
    assert "Answer: $24.50" in replayed.stdout


async def test_a_recorded_answer_naming_the_served_page_is_replayed_with_the_new_port(scripted_llm, tmp_path):
    session = tmp_path / "session.jsonl"
    server = scripted_llm(script=['{"value": "http://127.0.0.1:41234/second.html"}'])
    recording = LLMClient(spec=server.spec, record_path=str(session))
    recording.aliases.register("127.0.0.1:41234")
    field = {"task": "Open the second page", "history": "", "field": "address bar"}
    first = await recording.ask("input_value", {**field, "observation": "Basic page (http://127.0.0.1:41234/basic.html)"},
                                TextValue, max_tokens=40)
    assert first.answer.value == "http://127.0.0.1:41234/second.html"  # the live run sees what the server said
    server.stop()

    replay = LLMClient(spec=f"replay:{session}")
    replay.aliases.register("127.0.0.1:50321")
    again = await replay.ask("input_value", {**field, "observation": "Basic page (http://127.0.0.1:50321/basic.html)"},
                             TextValue, max_tokens=40)
    assert again.answer.value == "http://127.0.0.1:50321/second.html"
