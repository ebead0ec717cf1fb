"""Replays that are tests: a task recorded by `webchallenger run --record FILE --keep-pages` (real Chromium, real
extension, the scripted LLM over HTTP) is replayed by `webchallenger replay` with no LLM server and no site,
live against a changed copy of the site (exit 1 naming the first divergent step), re-recorded with --update,
and exported as a DevTools Recorder user flow that @puppeteer/replay runs against the fixture pages."""

from __future__ import annotations

import json
import os
import shutil
import socket
from pathlib import Path

import pytest

from tests.support.agent_llm import AgentLLM
from tests.support.price_task import PRICE_TASK, blue_price, choose_kettles_then_end
from tests.support.replay import cli, run_flow

PAGES = Path(__file__).resolve().parents[2] / "tests" / "fixtures" / "pages"
SITE = ("agent_shop.html", "agent_kettles.html", "agent_about.html")


def copy_site(into: Path) -> Path:
    into.mkdir(parents=True)
    for name in SITE:
        shutil.copy(PAGES / name, into / name)
    return into


def change_heading(site: Path) -> None:
    """The site changed: the kettles page's heading is another."""
    page = site / "agent_kettles.html"
    text = page.read_text()
    assert "<h1>Kettles</h1>" in text
    page.write_text(text.replace("<h1>Kettles</h1>", "<h1>All our kettles</h1>"))


def scripted_llm() -> AgentLLM:
    return AgentLLM(choose=choose_kettles_then_end, answer=blue_price, selection="all").start()


def record(site: Path, session: Path, data_dir: Path) -> subprocess.CompletedProcess:
    server = scripted_llm()
    try:
        return cli(["run", PRICE_TASK, "--start-url", str(site / "agent_shop.html"), "--headless", "--no-confirm",
                    "--llm", server.spec, "--record", str(session), "--keep-pages"], data_dir)
    finally:
        server.stop()


def lines(session: Path) -> list[dict]:
    return [json.loads(line) for line in session.read_text().splitlines() if line.strip()]


def recorded_port(session: Path) -> int:
    return next(line["meta"]["local_pages_port"] for line in lines(session) if "local_pages_port" in line.get("meta", {}))


@pytest.fixture(scope="module")
def recording(tmp_path_factory) -> Path:
    """The bench task, recorded once: its session file (the site it ran on is gone when `run` exits)."""
    base = tmp_path_factory.mktemp("recorded")
    session = base / "session.jsonl"
    result = record(copy_site(base / "site"), session, base / "data")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Answer: $24.50" in result.stdout
    return session


def copy_of(recording: Path, tmp_path: Path) -> Path:
    session = tmp_path / "session.jsonl"
    shutil.copy(recording, session)
    return session


def test_a_recorded_task_replays_with_no_llm_server_and_no_site(recording, tmp_path):
    port = recorded_port(recording)
    with socket.socket() as probe:  # nothing serves the site any more (run's page server ended with it)
        assert probe.connect_ex(("127.0.0.1", port)) != 0

    replayed = cli(["replay", str(recording)], tmp_path / "data")

    assert replayed.returncode == 0, replayed.stdout + replayed.stderr
    assert "against the recorded pages, no site" in replayed.stdout
    assert "answer: $24.50" in replayed.stdout
    assert 'Action: Clicked link "Kettles"' in replayed.stdout


def test_the_recording_holds_the_pages_and_the_actions_in_order(recording):
    browser = [line["browser"] for line in lines(recording) if "browser" in line]
    acts = [b for b in browser if b["call"] == "act"]
    assert [a["request"]["action"]["kind"] for a in acts] == ["navigate", "click"]
    click = acts[1]
    assert click["step"] == 1 and click["element"]["name"] == "Kettles"
    assert ["#nav-kettles"] in click["element"]["selectors"]
    pages = [b for b in browser if b["call"] == "snapshot"]
    assert all(p["reply"]["snapshot"]["frames"] for p in pages)  # --keep-pages: whole snapshots
    assert 'heading "Kettles"' in pages[-1]["page"]
    assert os.stat(recording).st_mode & 0o777 == 0o600


def test_a_changed_action_in_the_recording_diverges_naming_the_step_and_the_action(recording, tmp_path):
    session = copy_of(recording, tmp_path)
    records = lines(session)
    click = next(r["browser"] for r in records if r.get("browser", {}).get("call") == "act"
                 and r["browser"]["request"]["action"]["kind"] == "click")
    clicked = click["request"]["action"]["target"]["id"]
    click["request"]["action"]["target"]["id"] = clicked + 1  # the recording says another element was clicked
    session.write_text("".join(json.dumps(r) + "\n" for r in records))

    replayed = cli(["replay", str(session)], tmp_path / "data")

    assert replayed.returncode == 1, replayed.stdout + replayed.stderr
    verdict = replayed.stdout.split("replay: DIVERGED at ", 1)[1]
    assert verdict.startswith("step 1: another browser request than the recording's")
    assert f'replay:        click on link "Kettles" (element {clicked})' in verdict
    assert f'recording had: click on link "Kettles" (element {clicked + 1})' in verdict


def test_a_changed_site_makes_a_live_replay_fail_at_the_first_divergent_step(recording, tmp_path):
    site = copy_site(tmp_path / "changed")
    change_heading(site)

    replayed = cli(["replay", str(recording), "--live", "--headless", "--start-url", str(site / "agent_shop.html")],
                   tmp_path / "data")

    assert replayed.returncode == 1, replayed.stdout + replayed.stderr
    verdict = replayed.stdout.split("replay: DIVERGED at ", 1)[1]
    assert verdict.startswith("step 1: the page differs from the recorded one")
    assert 'a page showing heading "All our kettles"' in verdict
    assert 'recording had: a page showing heading "Kettles"' in verdict
    assert "the step's recorded action before it: click on link \"Kettles\"" in verdict


def test_an_unchanged_site_replays_live_to_the_same_actions(recording, tmp_path):
    site = copy_site(tmp_path / "same")

    replayed = cli(["replay", str(recording), "--live", "--headless", "--start-url", str(site / "agent_shop.html")],
                   tmp_path / "data")

    assert replayed.returncode == 0, replayed.stdout + replayed.stderr
    assert "against the live site" in replayed.stdout


def test_update_records_the_changed_site_again(recording, tmp_path):
    session = copy_of(recording, tmp_path)
    site = copy_site(tmp_path / "changed")
    change_heading(site)
    server = scripted_llm()
    try:
        updated = cli(["replay", str(session), "--update", "--headless", "--llm", server.spec,
                       "--start-url", str(site / "agent_shop.html")], tmp_path / "data1")
    finally:
        server.stop()
    assert updated.returncode == 0, updated.stdout + updated.stderr
    assert os.stat(session).st_mode & 0o777 == 0o600
    pages = [line["browser"]["page"] for line in lines(session) if line.get("browser", {}).get("call") == "snapshot"]
    assert 'heading "All our kettles"' in pages[-1]  # the new recording saw the changed page

    replayed = cli(["replay", str(session)], tmp_path / "data2")  # and replays without server or site
    assert replayed.returncode == 0, replayed.stdout + replayed.stderr


def test_a_file_without_a_recorded_task_is_refused(tmp_path):
    session = tmp_path / "session.jsonl"
    session.write_text(json.dumps({"meta": {"local_pages_port": 1}}) + "\n")

    replayed = cli(["replay", str(session)], tmp_path / "data", timeout=60)

    assert replayed.returncode == 2
    assert "names no task" in replayed.stderr


def test_the_exported_flow_runs_with_puppeteer_replay_against_the_fixture_page(recording, tmp_path):
    from companion.bridge.pageserver import PageServer

    flow_file = tmp_path / "flow.json"
    exported = cli(["export", str(recording), "--format", "devtools-recorder", "-o", str(flow_file)], tmp_path / "data",
                   timeout=60)
    assert exported.returncode == 0, exported.stderr
    flow = json.loads(flow_file.read_text())
    assert flow["title"] == PRICE_TASK
    assert [s["type"] for s in flow["steps"]] == ["setViewport", "navigate", "click"]

    site = copy_site(tmp_path / "site")
    with PageServer(site, port=recorded_port(recording)):  # where the recorded URLs point
        ended = run_flow(flow_file, tmp_path / "chromium-profile")

    assert ended["url"].endswith("/agent_kettles.html")  # the flow's click really followed the link
    assert ended["title"] == "Kettles - Kettle Shop"


def test_a_page_that_asks_the_llm_another_question_diverges_naming_the_prompt(recording, tmp_path):
    session = copy_of(recording, tmp_path)
    records = lines(session)
    shop = next(r["browser"]["reply"] for r in records if r.get("browser", {}).get("call") == "snapshot")
    for frame in shop["snapshot"]["frames"]:
        for element in frame["elements"]:
            if element.get("text", "").startswith("We sell kettles"):
                element["text"] = "We sell teapots too."  # prose: not in the digest, but in every prompt about it
    session.write_text("".join(json.dumps(r) + "\n" for r in records))

    replayed = cli(["replay", str(session)], tmp_path / "data")

    assert replayed.returncode == 1, replayed.stdout + replayed.stderr
    verdict = replayed.stdout.split("replay: DIVERGED at ", 1)[1]
    assert verdict.startswith("step 1: the LLM was asked what the recording never asked it")
    # The shop page is small enough to show whole (observe/whole.py): the first prompt that reads it is the action choice.
    assert "prompt action_selection: the prompt was recorded, but with other variables" in verdict


def test_a_recording_without_pages_replays_live_and_exports(tmp_path):
    site = copy_site(tmp_path / "site")
    session = tmp_path / "session.jsonl"
    server = scripted_llm()
    try:
        recorded = cli(["run", PRICE_TASK, "--start-url", str(site / "agent_shop.html"), "--headless", "--no-confirm",
                        "--llm", server.spec, "--record", str(session)], tmp_path / "data1")
    finally:
        server.stop()
    assert recorded.returncode == 0, recorded.stdout + recorded.stderr
    snapshots = [line["browser"] for line in lines(session) if line.get("browser", {}).get("call") == "snapshot"]
    assert snapshots and all("reply" not in s and s["page"] for s in snapshots)  # digests only, no pages

    replayed = cli(["replay", str(session), "--headless"], tmp_path / "data2")
    assert replayed.returncode == 0, replayed.stdout + replayed.stderr
    assert "against the live site" in replayed.stdout

    exported = cli(["export", str(session)], tmp_path / "data3", timeout=60)
    assert exported.returncode == 0, exported.stderr
    assert [s["type"] for s in json.loads(exported.stdout)["steps"]] == ["setViewport", "navigate", "click"]
