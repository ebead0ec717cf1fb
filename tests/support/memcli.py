"""Run the installed `webchallenger` command on a data directory, as a user would (helpers for tests/memory)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
WEBCHALLENGER = ROOT / ".venv" / "bin" / "webchallenger"


def honouring_file_modes() -> list[str]:
    """A command prefix under which a chmod 000 file is unreadable. Root reads any file, so as root the
    command runs without the two capabilities that let it (still uid 0, everything else unchanged)."""
    if os.geteuid() != 0:
        return []
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        pytest.skip("running as root without setpriv: a file's mode cannot make it unreadable")
    return [setpriv, "--bounding-set=-dac_override,-dac_read_search"]


def cli(data_dir: Path, *args: str, honour_file_modes: bool = False) -> subprocess.CompletedProcess:
    env = {**os.environ, "WEBCHALLENGER_DATA_DIR": str(data_dir)}
    prefix = honouring_file_modes() if honour_file_modes else []
    return subprocess.run([*prefix, str(WEBCHALLENGER), *args], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=300)


def cli_json(data_dir: Path, *args: str):
    out = cli(data_dir, *args, "--json")
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)
