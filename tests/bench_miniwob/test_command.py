"""`webchallenger bench miniwob` as a user runs it: a subprocess with its own Chromium, the lexical policy, the
JSON result and the table; and the arguments it refuses before starting anything."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def bench(*args: str, timeout: float = 240) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "companion", "bench", "miniwob", *args], cwd=ROOT, env=dict(os.environ),
                          capture_output=True, text=True, timeout=timeout)


@pytest.mark.browser
def test_one_task_writes_the_json_result_and_prints_the_table(miniwob_html, tmp_path):
    out = tmp_path / "miniwob.json"

    proc = bench("--tasks", "click-button", "--seeds", "1", "--llm", "lexical", "--max-steps", "3", "--out", str(out))

    assert proc.returncode == 0, proc.stdout + proc.stderr
    result = json.loads(out.read_text())
    assert [(e["task"], e["seed"], e["ended_by"], e["reward"]) for e in result["episodes"]] == [("click-button", 0, "miniwob", 1.0)]
    assert result["overall"]["successes"] == 1 and result["llm"] == "lexical"
    assert out.stat().st_mode & 0o777 == 0o600
    assert any(line.startswith("overall") and "1/1" in line for line in proc.stdout.splitlines()), proc.stdout
    # New and cached prompt tokens per call (the stand-in caches nothing: every token is new).
    (episode,) = result["episodes"]
    assert episode["cached_tokens"] == 0 and episode["calls"] > 0
    assert result["overall"]["new_tokens_per_call"] == round(episode["prompt_tokens"] / episode["calls"]) > 0
    assert f"prompt tokens per call: {result['overall']['new_tokens_per_call']} new, 0 from the server's cache" in proc.stdout


@pytest.mark.parametrize("args, message", [
    (["--tasks", "draw-line"], "draw-line is excluded: needs drawing"),
    (["--tasks", "no-such-task"], "no-such-task is not a MiniWoB task"),
    (["--category", "painting"], "unknown category 'painting'"),
    (["--seeds", "x"], "--seeds: 'x' is neither a count nor a comma list"),
])
def test_a_task_or_seed_it_cannot_run_is_refused_with_the_reason(args, message):
    proc = bench(*args, "--llm", "lexical", timeout=60)

    assert proc.returncode == 2
    assert message in proc.stderr


@pytest.mark.browser
def test_append_goes_on_with_the_run_in_the_file_and_runs_only_what_it_lacks(miniwob_html, tmp_path):
    out = tmp_path / "split.json"
    first = bench("--tasks", "click-button", "--seeds", "0,", "--llm", "lexical", "--max-steps", "3", "--out", str(out))
    assert first.returncode == 0, first.stdout + first.stderr
    kept = json.loads(out.read_text())["episodes"][0]

    proc = bench("--tasks", "click-button,click-link", "--seeds", "0,", "--llm", "lexical", "--max-steps", "3",
                 "--out", str(out), "--append")

    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "1 episode(s) kept, 1 to run" in proc.stdout
    result = json.loads(out.read_text())
    assert [(e["task"], e["seed"]) for e in result["episodes"]] == [("click-button", 0), ("click-link", 0)]
    assert result["episodes"][0] == kept  # kept as it was, not run again
    assert result["overall"]["episodes"] == 2 and set(result["tasks"]) == {"click-button", "click-link"}
    assert [p["episodes"] for p in result["parts"]] == [1, 1]
    assert result["wall_s"] >= sum(p["wall_s"] for p in result["parts"]) - 0.2
    assert "click-button seed 0" not in proc.stdout and "[2/2] click-link seed 0" in proc.stdout


@pytest.mark.parametrize("content, message", [
    ('{"benchmark": "miniwob", "llm": "lexical", "max_steps": 5, "episodes": []}', "step budget 5 there, 3 here"),
    ('{"benchmark": "miniwob", "llm": "embedded", "max_steps": 3, "episodes": []}', "LLM 'embedded' there, 'lexical' here"),
    ('{"benchmark": "miniwob", "llm": "lexical", "max_steps": 3, "episodes": [', "is no readable result"),
    ('{"benchmark": "tasks", "episodes": []}', "is no MiniWoB result"),
])
def test_append_to_a_file_it_cannot_go_on_with_is_refused_and_leaves_it(tmp_path, content, message):
    out = tmp_path / "other.json"
    out.write_text(content)

    proc = bench("--tasks", "click-button", "--llm", "lexical", "--max-steps", "3", "--out", str(out), "--append", timeout=60)

    assert proc.returncode == 2 and message in proc.stderr, proc.stderr
    assert out.read_text() == content


def test_append_without_a_result_file_to_go_on_with_is_refused():
    proc = bench("--tasks", "click-button", "--llm", "lexical", "--append", timeout=60)

    assert proc.returncode == 2 and "--append needs --out" in proc.stderr
