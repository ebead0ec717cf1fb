"""`webchallenger snapshot` on real pages from the shared corpus (gzipped, served from 127.0.0.1):
a fixed sample through the shared browser, plus the real command line once."""

import subprocess
import sys
from pathlib import Path

import pytest

from companion.bridge.pageserver import PageServer
from companion.commands.snapshot import snapshot_url
from companion.protocol import Snapshot

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT.parent / "shared" / "corpus"
SAMPLE_SIZE = 10


def corpus_sample() -> list[Path]:
    """Every 30th page in sorted order: fixed, and spread over both corpus sources."""
    if not CORPUS.is_dir():
        return []
    pages = sorted(CORPUS.rglob("*.html.gz"))
    step = max(1, len(pages) // SAMPLE_SIZE)
    return pages[::step][:SAMPLE_SIZE]


needs_corpus = pytest.mark.skipif(not CORPUS.is_dir(), reason=f"corpus not found at {CORPUS} (CI places shared/ beside the clone)")


@pytest.fixture(scope="module")
def corpus_server():
    with PageServer(CORPUS) as server:
        yield server


@needs_corpus
@pytest.mark.parametrize("page", corpus_sample(), ids=lambda p: p.name)
def test_snapshot_of_a_corpus_page(browser, corpus_server, page):
    snapshot, timing = snapshot_url(browser, corpus_server.url(page), timeout=20)
    assert snapshot.url == corpus_server.url(page)
    assert snapshot.frames and snapshot.frames[0].frame == 0
    top = snapshot.frames[0].elements
    assert any(e.tag == "body" for e in top)
    assert sum(len(e.text) for e in top) > 100  # real text arrived, not an error page
    assert timing.json_bytes > 0 and timing.elements == sum(len(f.elements) for f in snapshot.frames)


@needs_corpus
def test_snapshot_command_line_prints_wire_json_and_timing():
    page = corpus_sample()[0]
    done = subprocess.run([sys.executable, "-m", "companion", "snapshot", str(page)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    snapshot = Snapshot.model_validate_json(done.stdout)
    assert snapshot.frames[0].elements
    assert '"value":null' not in done.stdout  # the wire format omits nulls
    assert "snapshot" in done.stderr and " ms" in done.stderr


def test_snapshot_command_rejects_a_missing_file(tmp_path, capsys):
    from companion.cli import main

    assert main(["snapshot", str(tmp_path / "nope.html")]) == 2
    assert "neither a URL nor a file" in capsys.readouterr().err
