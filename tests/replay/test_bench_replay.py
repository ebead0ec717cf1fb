"""A bench task recorded by the task runner (`webchallenger bench tasks --record DIR`) on the shop admin site,
in real headless Chromium with the real extension and the scripted LLM over HTTP, replays with
`webchallenger replay` with the LLM server gone and no browser at all (so nothing could reach the site: the
recorded pages answer)."""

from __future__ import annotations

import json
from dataclasses import replace

from companion import llm
from benchmarks.task_runner import run_task_once
from benchmarks.task_suite import load_suite
from companion.llm.client import LLMClient
from tests.support.agent_llm import AgentLLM
from tests.support.bench_scripts import OPTS, SUITE_FILE, count_shown, count_summary, filter_then_end, task_of
from tests.support.extension_build import ensure_extension_built
from tests.support.replay import cli


def test_a_recorded_bench_task_replays_with_no_llm_server_and_no_site(django_site, tmp_path):
    ensure_extension_built()
    task = task_of(load_suite(SUITE_FILE), "orders-pending-count")
    server = AgentLLM(choose=filter_then_end("Pending"), answer=count_shown,
                      overrides={"page_task_summary": count_summary}).start()
    llm.set_client(LLMClient(spec=server.spec))
    try:
        run = run_task_once(task, django_site, "none", replace(OPTS, record_dir=tmp_path / "sessions"), tmp_path / "work")
    finally:
        llm.set_client(None)
        server.stop()
    assert run.success, run
    session = tmp_path / "sessions" / "orders-pending-count.jsonl"
    records = [json.loads(line) for line in session.read_text().splitlines()]
    assert any("key" in r for r in records) and any("browser" in r for r in records)

    replayed = cli(["replay", str(session)], tmp_path / "data")

    assert replayed.returncode == 0, replayed.stdout + replayed.stderr
    assert "against the recorded pages, no site" in replayed.stdout
    assert f"answer: {run.answer}" in replayed.stdout
