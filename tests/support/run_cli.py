"""`webchallenger run` as a user runs it: a subprocess of this interpreter with its own data directory, and the action
lines of its output."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def run_cli(args: list[str], data_dir: Path, timeout: float = 180) -> subprocess.CompletedProcess:
    env = {**os.environ, "WEBCHALLENGER_DATA_DIR": str(data_dir)}
    return subprocess.run([sys.executable, "-m", "companion", "run", *args], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=timeout)


def action_lines(output: str) -> list[str]:
    return [line.strip() for line in output.splitlines() if line.strip().startswith(("Action:", "Reason:"))]
