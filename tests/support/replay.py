"""Helpers of the replay tests: the CLI in a subprocess, and a user flow run by @puppeteer/replay in Chromium."""

from __future__ import annotations

import fcntl
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def cli(args: list[str], data_dir: Path, timeout: float = 240) -> subprocess.CompletedProcess:
    env = {**os.environ, "WEBCHALLENGER_DATA_DIR": str(data_dir)}
    return subprocess.run([sys.executable, "-m", "companion", *args], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=timeout)


NPM_CACHE = Path(os.environ.get("WEBCHALLENGER_NPM_CACHE", Path.home() / ".cache" / "webchallenger-tests" / "puppeteer-replay"))


def puppeteer_replay() -> Path:
    """node_modules with @puppeteer/replay and puppeteer-core (never `puppeteer`: it downloads a browser)."""
    modules = NPM_CACHE / "node_modules"
    if (modules / "@puppeteer" / "replay").is_dir() and (modules / "puppeteer-core").is_dir():
        return modules
    if shutil.which("npm") is None or shutil.which("node") is None:
        if os.environ.get("CI") == "true":
            pytest.fail("npm and node are needed to run the exported flow with @puppeteer/replay")
        pytest.skip("npm/node not installed: cannot run the exported flow with @puppeteer/replay")
    NPM_CACHE.mkdir(parents=True, exist_ok=True)
    with open(NPM_CACHE / ".install.lock", "w") as lock:  # parallel test workers: one installs, the others wait
        fcntl.flock(lock, fcntl.LOCK_EX)
        if (modules / "@puppeteer" / "replay").is_dir() and (modules / "puppeteer-core").is_dir():
            return modules
        (NPM_CACHE / "package.json").write_text('{"private": true}\n')
        installed = subprocess.run(["npm", "install", "--no-audit", "--no-fund", "@puppeteer/replay", "puppeteer-core"],
                                   cwd=NPM_CACHE, capture_output=True, text=True, timeout=600)
        assert installed.returncode == 0, installed.stdout + installed.stderr
    return modules


def run_flow(flow_file: Path, profile: Path) -> dict:
    """Run the user flow with @puppeteer/replay in Debian's Chromium; {"url", "title"} of the page it ended on."""
    modules = puppeteer_replay()
    ran = subprocess.run(["node", str(ROOT / "tests" / "replay" / "run_flow.mjs"), str(flow_file), str(profile)],
                         env={**os.environ, "NODE_PATH": str(modules)}, capture_output=True, text=True, timeout=180)
    assert ran.returncode == 0, ran.stdout + ran.stderr
    return json.loads(ran.stdout.strip().splitlines()[-1])
