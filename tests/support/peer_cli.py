"""Run the installed `webchallenger` command as a user would (helpers for tests/bench_peer)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from benchmarks.peer import peer_available_message

ROOT = Path(__file__).resolve().parents[2]
WEBCHALLENGER = ROOT / ".venv" / "bin" / "webchallenger"


def webchallenger(*args: str, env: dict | None = None, timeout: float = 900) -> subprocess.CompletedProcess:
    return subprocess.run([str(WEBCHALLENGER), *args], cwd=ROOT, env={**os.environ, **(env or {})}, capture_output=True,
                          text=True, timeout=timeout)


PEER_MISSING = peer_available_message()


needs_peer = pytest.mark.skipif(PEER_MISSING is not None, reason=f"browser-use side not testable: {PEER_MISSING}")
