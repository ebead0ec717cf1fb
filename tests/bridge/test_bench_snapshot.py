"""The snapshot benchmark's synthetic page has the size it claims, and the benchmark runs end to end."""

import pytest

from benchmarks.snapshot import FloorProbe, measure_page, synthetic_page


@pytest.mark.parametrize("n", [10_000, 1_000, 7])
def test_synthetic_page_has_exactly_n_elements(n):
    from lxml import html

    tree = html.document_fromstring(synthetic_page(n))
    assert sum(1 for _ in tree.iter("*")) == n


@pytest.mark.browser
def test_measure_page_reports_floor_in_page_and_companion_figures(browser, tmp_path):
    from companion.bridge.pageserver import PageServer

    (tmp_path / "synthetic.html").write_text(synthetic_page(500))
    floor = FloorProbe(browser)
    with PageServer(tmp_path) as server:
        try:
            figures = measure_page(browser, floor, "synthetic-500", server.url("synthetic.html"), runs=2)
        finally:
            floor.close()
    assert figures.error is None
    assert 490 <= figures.elements <= 500  # the extension may leave out head-only elements
    assert figures.json_bytes > 0 and figures.companion_ms > 0 and figures.parse_ms > 0
    assert figures.walk_ms is not None and figures.in_page_ms is not None, "the count-only floor was not measured"
    assert len(figures.runs["walk_ms"]) == 2
