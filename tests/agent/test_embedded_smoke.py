"""Smoke: `webchallenger run` with an embedded model (no server, no scripted answers) completes a simple task
on a local fixture site: read an item's price from the kettles page's price table, one step (the README's first
command runs the longer path from the home page; bench_agent.py measures it). About a minute and a half on
2 cores with the default model; part of the default run (`-m "not model_smoke"` leaves it out). At
temperature 0 the model answers the same prompts the same way, so the run is repeatable on one machine kind;
tests/bench/bench_agent.py measures more tasks.

The model is WEBCHALLENGER_SMOKE_MODEL (default: the product default, qwen2.5-coder-1.5b); the wall time
is printed for the report (`pytest -s -m model_smoke tests/agent`), never asserted.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from companion.llm.model_files import DEFAULT_MODEL, ensure_model

pytestmark = [pytest.mark.embedded, pytest.mark.model_smoke]

ROOT = Path(__file__).resolve().parents[2]
MODEL = os.environ.get("WEBCHALLENGER_SMOKE_MODEL", DEFAULT_MODEL)


def test_embedded_model_reads_an_items_price_and_reports_it(pages, tmp_path):
    ensure_model(MODEL, install=True, log=lambda message: None)  # into the tests' cache dir, once per session
    env = {k: v for k, v in os.environ.items() if k != "WEBCHALLENGER_WHOLE_PAGE_TOKENS"}  # the product's default
    env = {**env, "WEBCHALLENGER_DATA_DIR": str(tmp_path / "data"),
           # A loaded 2-core machine can take minutes for the first call of a cold model.
           "WEBCHALLENGER_LLM_TIMEOUT": os.environ.get("WEBCHALLENGER_LLM_TIMEOUT", "600"),
           # Every core goes to the model (the browser idles while it thinks): about twice as fast as the product's
           # all-but-one default on an otherwise idle machine; parallel test workers share the cores with it.
           "WEBCHALLENGER_LLM_THREADS": os.environ.get("WEBCHALLENGER_LLM_THREADS", str(os.cpu_count() or 1))}
    started = time.monotonic()
    result = subprocess.run(
        [sys.executable, "-m", "companion", "run", "What is the price of the Blue kettle?",
         "--start-url", pages.url("agent_kettles.html"), "--headless", "--no-confirm", "--max-steps", "8",
         "--llm", f"embedded:{MODEL}"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=1800)
    elapsed = time.monotonic() - started
    print(f"\n[embedded smoke] model {MODEL}: {elapsed:.1f} s wall\n{result.stdout}")
    assert result.returncode == 0, result.stdout + result.stderr
    answer = next(line for line in result.stdout.splitlines() if line.startswith("Answer:"))
    assert "24.50" in answer
