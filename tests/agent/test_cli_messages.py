"""What the command line says when it is given something it cannot use: in words, before any browser starts."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.agent.test_run_command import ROOT, run_cli


def webchallenger(args: list[str], data_dir: Path, timeout: float = 60) -> subprocess.CompletedProcess:
    env = {"WEBCHALLENGER_DATA_DIR": str(data_dir), "PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "companion", *args], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=timeout)


def test_run_with_a_missing_local_file_says_so_before_starting_anything(tmp_path):
    """A start file that does not exist is named, exit 2, with no model loaded and no browser started."""
    result = run_cli(["find the price", "--start-url", "no/such/page.html", "--llm", "openai:http://127.0.0.1:1/v1"],
                     tmp_path / "data")
    assert result.returncode == 2
    assert result.stderr.strip() == ("webchallenger run: no such file: no/such/page.html (give an existing HTML file, "
                                     "or an http(s) URL such as https://example.com)")
    assert result.stdout == ""  # no "Task: ... browser ready" line: nothing was started


def test_pagemem_of_a_missing_file_is_one_sentence_not_a_stack_trace(tmp_path):
    """`pagemem` on a file that is not there says so in one line, exit 2, without opening a browser."""
    result = webchallenger(["pagemem", str(tmp_path / "missing.html")], tmp_path / "data")
    assert result.returncode == 2
    assert result.stderr.strip() == (f"webchallenger pagemem: no such file: {tmp_path / 'missing.html'} (give an "
                                     "existing HTML file, or an http(s) URL such as https://example.com)")


def test_explore_of_a_missing_file_says_so(tmp_path):
    """`explore` on a file that is not there names it, exit 2, instead of exploring a URL that is not one."""
    result = webchallenger(["explore", "missing.html", "--no-summaries"], tmp_path / "data")
    assert result.returncode == 2
    assert "webchallenger explore: no such file: missing.html" in result.stderr


def test_run_llm_help_lists_lexical(tmp_path):
    """`run --help` names every LLM spec `run --llm` accepts, lexical included."""
    result = run_cli(["--help"], tmp_path / "data", timeout=60)
    assert result.returncode == 0
    assert "lexical" in " ".join(result.stdout.split())
