"""Exploration memory for the real-app suite: one `webchallenger explore ADMIN_URL --no-summaries` of the site
(structure only: pages, templates, dropdowns; no LLM call), logged in through a copy of a Chromium profile, into
a directory of its own. Each task then starts from a copy of that memory (task_runner.py).

It runs the installed command in a child process, exactly as a user would, with WEBCHALLENGER_DATA_DIR pointing
at the bench's directory so the user's own memory is never read or written. Exploration skips whatever could
write (ShouldSkip); the database is compared before and after all the same, and restored if it changed.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

from pydantic import BaseModel

from benchmarks.task_runner import BenchError


class ExploreLimits(BaseModel):
    max_pages: int = 60
    max_time: float = 900.0
    max_depth: int | None = None  # None: explore's own default
    max_elements: int | None = None


class ExploredMemory(BaseModel):
    memory_dir: Path  # the WebsiteMem files the exploration wrote (one per site)
    wall_s: float
    report: dict | list | None = None  # explore's --report-json, as it wrote it
    db_changed: bool  # exploration wrote to the site's database (it should not; the seed was restored)
    command: list[str]


def explore_site(site, work_dir: Path, limits: ExploreLimits | None = None, *, show: bool = False) -> ExploredMemory:
    """Explore the site's admin, logged in, into work_dir/explore/; return where the memory is."""
    limits = limits or ExploreLimits()
    base = work_dir / "explore"
    profile, data, report_path = base / "profile", base / "data", base / "report.json"
    base.mkdir(parents=True, exist_ok=True)
    os.chmod(base, 0o700)
    site.login_profile(profile)  # cookies on disk: explore --profile starts from a copy, logged in
    cmd = [sys.executable, "-m", "companion", "explore", site.admin_url, "--no-summaries", "--profile", str(profile),
           "--max-pages", str(limits.max_pages), "--max-time", f"{limits.max_time:g}", "--report-json", str(report_path), "-q"]
    if limits.max_depth is not None:
        cmd += ["--max-depth", str(limits.max_depth)]
    if limits.max_elements is not None:
        cmd += ["--max-elements", str(limits.max_elements)]
    if show:
        cmd.append("--show")
    env = dict(os.environ, WEBCHALLENGER_DATA_DIR=str(data))
    before = site.db_digest()
    started = time.monotonic()
    try:
        done = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=limits.max_time + 300)
    except subprocess.TimeoutExpired as exc:
        raise BenchError(f"exploration did not end within {limits.max_time + 300:g} s: {' '.join(cmd)}") from exc
    wall = time.monotonic() - started
    changed = site.db_digest() != before
    if changed:
        site.reset()
    if done.returncode != 0:
        tail = "\n".join((done.stderr or done.stdout).strip().splitlines()[-15:])
        raise BenchError(f"exploration failed (exit {done.returncode}): {' '.join(cmd)}\n{tail}")
    memory_dir = data / "memory"
    if not any(memory_dir.glob("*.json")):
        raise BenchError(f"exploration wrote no memory file under {memory_dir}")
    try:
        report = json.loads(report_path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError):
        report = None
    return ExploredMemory(memory_dir=memory_dir, wall_s=round(wall, 1), report=report, db_changed=changed, command=cmd)
