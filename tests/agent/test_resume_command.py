"""`webchallenger run --resume` as a user runs it (subprocesses launching their own Chromium): a task whose
LLM stalls for good fails, says where its checkpoint is, and the resumed run goes on from the page and step it
reached, without asking the LLM about the first step again."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from tests.support.scripted_server import Stall
from tests.support.run_cli import ROOT
from tests.support.price_task import PRICE_TASK, blue_price, choose_kettles_then_end


def run_cli(args: list[str], data_dir: Path, timeout: float = 300) -> subprocess.CompletedProcess:
    env = {**os.environ, "WEBCHALLENGER_DATA_DIR": str(data_dir), "WEBCHALLENGER_LLM_TIMEOUT": "4"}
    return subprocess.run([sys.executable, "-m", "companion", "run", *args], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=timeout)


def test_a_failed_task_resumes_from_its_checkpoint_on_the_command_line(pages, agent_llm, tmp_path):
    server = agent_llm(choose=choose_kettles_then_end, answer=blue_price,
                       stall=Stall(seconds=60, at=2, count=2, prompt="action_selection"))
    flags = ["--headless", "--no-confirm", "--llm", server.spec]

    first = run_cli([PRICE_TASK, "--start-url", pages.url("agent_shop.html"), *flags], tmp_path / "data")
    assert first.returncode == 1, first.stdout + first.stderr
    assert "== FAILED" in first.stdout and "LLMTimeoutError" in first.stdout
    path = Path(re.search(r"Resume with: webchallenger run --resume (\S+)", first.stdout).group(1))
    assert path.parent == tmp_path / "data" / "tasks"

    before = len(server.requests)
    resumed = run_cli(["--resume", str(path), *flags], tmp_path / "data")
    assert resumed.returncode == 0, resumed.stdout + resumed.stderr
    assert "resuming after step 1" in resumed.stdout and "Answer: $24.50" in resumed.stdout
    pages_asked = [r.last_user.split("Current page:", 1)[1].split("\n", 1)[0]
                   for r in server.requests[before:] if r.prompt == "action_selection"]
    assert pages_asked and all("agent_kettles.html" in page for page in pages_asked)
