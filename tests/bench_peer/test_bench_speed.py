"""`webchallenger bench speed` on two pages (a small synthetic page and a one-page corpus, gzip HTML as the shared
corpus is): it writes a JSON result with both sides per page and the ratio, and without browser-use it says so and
still measures ours. Figures only: no test looks at how fast anything was."""

from __future__ import annotations

import gzip
import json
import shutil

import pytest

from tests.support.peer_cli import ROOT, needs_peer, webchallenger

pytestmark = pytest.mark.browser
PAGE = ROOT / "tests" / "fixtures" / "pages" / "agent_shop.html"


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    root = tmp_path_factory.mktemp("corpus")
    (root / "site").mkdir()
    (root / "site" / "shop.html.gz").write_bytes(gzip.compress(PAGE.read_bytes()))
    return root


def bench_speed(corpus, out, **env):
    return webchallenger("bench", "speed", "--corpus", str(corpus), "--elements", "300", "--runs", "1", "--out", str(out),
                         env=env, timeout=600)


@needs_peer
def test_each_page_has_both_sides_and_their_ratio(corpus, tmp_path):
    proc = bench_speed(corpus, tmp_path / "speed.json")

    assert proc.returncode == 0, proc.stderr[-3000:]
    result = json.loads((tmp_path / "speed.json").read_text())
    assert [p["page"] for p in result["pages"]] == ["synthetic-300", "site/shop.html.gz"]
    for page in result["pages"]:
        ours, theirs = page["ours"], page["theirs"]
        assert ours["ms"] > 0 and theirs["ms"] > 0 and ours["elements"] > 0 and theirs["elements"] > 0, page
        assert page["ratio"] == pytest.approx(ours["ms"] / theirs["ms"])
    assert result["summary"]["ratio"]["n"] == 2
    assert result["peer"].startswith("browser-use ")
    assert "ours / browser-use: median" in proc.stdout


def test_without_browser_use_the_run_says_why_and_measures_ours(corpus, tmp_path):
    missing = tmp_path / "no-peer" / "python"  # where the peer's python would be: nothing there

    proc = bench_speed(corpus, tmp_path / "speed.json", WEBCHALLENGER_PEER_PYTHON=str(missing))

    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "browser-use side skipped" in proc.stdout and "not installed" in proc.stdout
    result = json.loads((tmp_path / "speed.json").read_text())
    assert result["peer"].startswith("not run: ")
    assert [(p["ours"]["ms"] > 0, p["theirs"]) for p in result["pages"]] == [(True, None), (True, None)]
