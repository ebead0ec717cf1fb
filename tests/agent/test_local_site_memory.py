"""A local file is one site across commands: `explore` then `run` on the same file reads the memory explore filled
(its folder is served on the same port each time, bridge/localsites.py)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.agent_llm import index_of
from tests.support.run_cli import ROOT, run_cli

pytestmark = pytest.mark.browser

PAGE = '<!doctype html><html><head><title>{title}</title></head><body><h1>{title}</h1><nav>{links}</nav><p>{text}</p></body></html>'
SITE = {"index.html": ("Home", "Welcome."), "kettles.html": ("Kettles", "The Blue kettle costs $24.50."),
        "contact.html": ("Contact", "Write to us.")}


def small_site(folder: Path) -> Path:
    """Three pages that all link to each other: each is linked from two pages, so each becomes a bookmark."""
    folder.mkdir()
    for name, (title, text) in SITE.items():
        links = "".join(f'<a href="{other}">{SITE[other][0]}</a> ' for other in SITE if other != name)
        (folder / name).write_text(PAGE.format(title=title, links=links, text=text), encoding="utf-8")
    return folder / "index.html"


@pytest.mark.selection("all")
def test_run_after_explore_on_the_same_local_file_reads_the_explored_memory(agent_llm, tmp_path):
    """The run's first call is the choice among the bookmarks explore learned, which it only makes when the
    site's memory has some: the run is on the explored site, not on a new empty one."""
    start = small_site(tmp_path / "site")
    data = tmp_path / "data"
    env = {**os.environ, "WEBCHALLENGER_DATA_DIR": str(data)}
    explored = subprocess.run([sys.executable, "-m", "companion", "explore", str(start), "--no-summaries", "-q"], cwd=ROOT,
                              env=env, capture_output=True, text=True, timeout=300)
    assert explored.returncode == 0, explored.stdout + explored.stderr

    server = agent_llm(choose=lambda text, labels: index_of(labels, r"^end the task"), answer=lambda text: "Welcome.")
    result = run_cli(["What does the home page say?", "--start-url", str(start), "--headless", "--no-confirm",
                      "--llm", server.spec], data)
    assert result.returncode == 0, result.stdout + result.stderr
    [offered] = server.prompts("bookmark_selection")
    assert "kettles.html" in offered and "contact.html" in offered
    sites = [p.stem for p in (data / "memory").glob("127.0.0.1_*.json")]
    assert len(sites) == 1, sites  # one site for the folder, not one per command
