"""What the command line says: about what it cannot use, in words and before any browser starts; about a page
that cannot be loaded, with Chromium's reason; and nothing on stderr when all goes well."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.run_cli import ROOT, run_cli


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


@pytest.mark.browser
@pytest.mark.selection("all")
def test_the_readme_run_prints_no_warning(agent_llm, tmp_path):
    """The README's first command (`run` on the local shop, which pairs its browser through the options page)
    prints the answer and nothing on stderr: no warning about the options page's requests."""
    from tests.support.price_task import PRICE_TASK, blue_price, choose_kettles_then_end

    server = agent_llm(choose=choose_kettles_then_end, answer=blue_price)
    result = run_cli([PRICE_TASK, "--start-url", "tests/fixtures/pages/agent_shop.html", "--headless", "--no-confirm",
                      "--llm", server.spec, "-q"], tmp_path / "data")
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.strip() == "$24.50"
    assert result.stderr == ""


@pytest.mark.browser
@pytest.mark.selection("all")
def test_an_unreachable_start_url_is_said_with_chromiums_reason(agent_llm, tmp_path):
    """A start URL nothing answers at ends the task saying the page could not be loaded, with the URL and
    Chromium's net error, not the extension's "Frame with ID 0 is showing error page"."""
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        url = f"http://127.0.0.1:{s.getsockname()[1]}/"  # closed again: nothing listens there
    server = agent_llm(choose=lambda text, labels: 0)
    result = run_cli(["find the price", "--start-url", url, "--headless", "--no-confirm", "--llm", server.spec],
                     tmp_path / "data")
    assert result.returncode == 1, result.stdout + result.stderr
    assert f"the page could not be loaded: {url} (net::ERR_CONNECTION_REFUSED)" in result.stdout
    assert "Frame with ID" not in result.stdout + result.stderr
