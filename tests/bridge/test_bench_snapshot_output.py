"""`webchallenger bench snapshot` as a user runs it: the synthetic page's figures are shown once."""

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.browser
def test_the_synthetic_block_is_printed_once(tmp_path):
    empty_corpus = tmp_path / "corpus"
    empty_corpus.mkdir()
    result = subprocess.run([sys.executable, "-m", "companion", "bench", "snapshot", "--corpus", str(empty_corpus),
                             "--elements", "300", "--runs", "1"], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
    shown = result.stdout + result.stderr  # what a terminal shows
    assert shown.count("synthetic-300:") == 1, shown
    assert re.search(r"^synthetic-300: \d+ elements", result.stdout, re.M)  # the block itself, on stdout
    assert shown.count("walk (floor)") == 1
