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
