"""Recorded tasks that type: a search (typed text and Enter become `change` and key steps of the exported user
flow, which @puppeteer/replay runs to the same results page) and a login (the password the LLM chose is in no
line of the recording, the replay still passes, and the export leaves the password out and says so)."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from companion.bridge.pageserver import PageServer
from tests.support.agent_llm import AgentLLM, index_of, options
from tests.support.replay import cli, run_flow

PAGES = Path(__file__).resolve().parents[2] / "tests" / "fixtures" / "pages"
SEARCH_TASK = "Search for the steel teapot and tell me its price."
PASSWORD = "hunter22"


def page_of(text: str) -> str:
    return text.split("Current page:", 1)[1].split("\n", 1)[0]


def record(task: str, start: Path, server: AgentLLM, session: Path, data_dir: Path):
    try:
        return cli(["run", task, "--start-url", str(start), "--headless", "--no-confirm", "--llm", server.spec,
                    "--record", str(session), "--keep-pages"], data_dir)
    finally:
        server.stop()


def site(tmp: Path, *names: str) -> Path:
    tmp.mkdir()
    for name in names:
        shutil.copy(PAGES / name, tmp / name)
    return tmp


@pytest.fixture(scope="module")
def search_session(tmp_path_factory) -> Path:
    base = tmp_path_factory.mktemp("search")

    def choose(text: str, labels: list[str]) -> int:
        if "agent_tea_results.html" in page_of(text):
            return index_of(labels, r"^end the task")
        return index_of(labels, r'searchbox "Search the shop"')

    def answer(text: str) -> str:
        found = re.search(r"Steel teapot - (\$\d+\.\d\d)", text)
        return found.group(1) if found else "not found"

    server = AgentLLM(choose=choose, answer=answer, selection="all",
                      overrides={"search_query": lambda text: {"value": "steel teapot"}}).start()
    session = base / "session.jsonl"
    pages = site(base / "site", "agent_tea.html", "agent_tea_results.html")
    result = record(SEARCH_TASK, pages / "agent_tea.html", server, session, base / "data")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Answer: $42.00" in result.stdout
    return session


@pytest.fixture(scope="module")
def login_session(tmp_path_factory) -> Path:
    base = tmp_path_factory.mktemp("login")

    def choose(text: str, labels: list[str]) -> int:
        return index_of(labels, r"^end the task" if "Logged in as alice" in text else r'textbox "Username"')

    def field_value(text: str) -> dict:
        field = text.split("Field:", 1)[1].split("\n", 1)[0]
        return {"value": PASSWORD if 'textbox "Password"' in field else "alice"}

    def review(text: str) -> dict:
        return {"reason": "both fields are filled", "index": index_of(options(text), r"^Submit the form")}

    # The task does not hold the password: only the LLM's answer does (a secret in the task text is masked
    # in the recording too, so such a task's prompts could not be asked again from it).
    server = AgentLLM(choose=choose, answer=lambda text: "logged in", selection="all",
                      overrides={"field_value": field_value, "form_review": review}).start()
    session = base / "session.jsonl"
    pages = site(base / "site", "act_login.html")
    result = record("Log in as alice.", pages / "act_login.html", server, session, base / "data")
    assert result.returncode == 0, result.stdout + result.stderr
    assert 'Typed a password into textbox "Password"' in result.stdout
    return session


def port_of(session: Path) -> int:
    return next(json.loads(line)["meta"]["local_pages_port"] for line in session.read_text().splitlines()
                if "local_pages_port" in line)


def test_typing_and_enter_export_as_change_and_key_steps_that_puppeteer_replay_runs(search_session, tmp_path):
    flow_file = tmp_path / "flow.json"
    exported = cli(["export", str(search_session), "-o", str(flow_file)], tmp_path / "data", timeout=60)
    assert exported.returncode == 0, exported.stderr
    steps = json.loads(flow_file.read_text())["steps"]
    assert [s["type"] for s in steps] == ["setViewport", "navigate", "change", "keyDown", "keyUp"]
    assert steps[2]["value"] == "steel teapot" and ["aria/Search the shop"] in steps[2]["selectors"]
    assert steps[3]["key"] == "Enter"

    with PageServer(site(tmp_path / "site", "agent_tea.html", "agent_tea_results.html"), port=port_of(search_session)):
        ended = run_flow(flow_file, tmp_path / "chromium-profile")

    assert ended["url"].endswith("/agent_tea_results.html?q=steel+teapot")  # typed, then submitted with Enter
    assert ended["title"] == "Search results - Tea Corner"


def test_a_recorded_search_replays_with_no_site(search_session, tmp_path):
    replayed = cli(["replay", str(search_session)], tmp_path / "data")

    assert replayed.returncode == 0, replayed.stdout + replayed.stderr
    assert "answer: $42.00" in replayed.stdout


def test_the_password_the_llm_chose_is_in_no_line_of_the_recording(login_session):
    text = login_session.read_text()
    assert PASSWORD not in text
    typed = [json.loads(line)["browser"]["request"]["action"] for line in text.splitlines()
             if '"browser"' in line and '"kind": "type"' in line]
    assert {a["text"] for a in typed} == {"alice", "[redacted]"}


def test_a_recorded_login_replays_although_its_password_was_never_kept(login_session, tmp_path):
    replayed = cli(["replay", str(login_session)], tmp_path / "data")

    assert replayed.returncode == 0, replayed.stdout + replayed.stderr
    assert 'Typed a password into textbox "Password"' in replayed.stdout


def test_the_export_leaves_the_password_out_and_says_so(login_session, tmp_path):
    exported = cli(["export", str(login_session)], tmp_path / "data", timeout=60)

    assert exported.returncode == 0, exported.stderr
    steps = json.loads(exported.stdout)["steps"]
    assert [s.get("value") for s in steps if s["type"] == "change"] == ["alice"]
    assert "left out: step 1: typing into a password field" in exported.stderr
