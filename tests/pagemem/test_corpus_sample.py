"""The corpus acceptance checks on a fixed sample of real pages, snapshotted in-test through real
Chromium + the extension: deterministic, every interactive element in exactly one section, no normal
section over the token bound, no failure. The full corpus runs in `webchallenger bench divide`."""

from __future__ import annotations

import pytest

from companion.bridge.pageserver import PageServer
from benchmarks.divide_check import division_problems
from benchmarks.corpus import corpus_pages, default_corpus_dir
from companion.pagemem.divide import DivideOptions, divide_page

pytestmark = pytest.mark.browser

CORPUS = default_corpus_dir()
# Every 25th page plus a very large one (reddit: ~11k elements), chosen once so CI is stable.
SAMPLE = [p.relative_to(CORPUS).as_posix() for p in corpus_pages(CORPUS)[::25]] if CORPUS.is_dir() else []
SAMPLE += [name for name in ["postlight/fixtures_www.reddit.com.html.gz"] if (CORPUS / name).exists() and name not in SAMPLE]


@pytest.fixture(scope="module")
def corpus_server():
    if not SAMPLE:
        pytest.skip(f"no corpus at {CORPUS}")
    with PageServer(CORPUS, decompress=True) as server:
        yield server


@pytest.mark.parametrize("page", SAMPLE)
def test_division_invariants_hold_on_corpus_page(browser, corpus_server, page):
    try:
        browser.open(corpus_server.url(page))
    except Exception:  # a page still loading subresources is divided as it stands
        pass
    snapshot = browser.run(browser.session.snapshot())
    pm = divide_page(snapshot)
    assert division_problems(snapshot, pm) == []
    assert pm.sections


def test_a_tighter_bound_is_respected_too(browser, corpus_server):
    browser.open(corpus_server.url(SAMPLE[0]))
    snapshot = browser.run(browser.session.snapshot())
    options = DivideOptions(max_tokens=300)
    pm = divide_page(snapshot, options)
    assert division_problems(snapshot, pm, options) == []
