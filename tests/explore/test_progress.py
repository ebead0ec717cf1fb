"""The explore progress bar counts towards the pages found so far, not towards --max-pages."""

from companion.explore.progress import bar_total


def test_a_finished_site_reads_full():
    """A site of 9 pages whose exploration ended shows 9 of 9, not 9 of --max-pages (200)."""
    assert bar_total(9, 0, 200, ended=True) == 9


def test_a_running_site_counts_towards_the_pages_known_up_to_max_pages():
    """While running: pages done plus the frontier, never more than --max-pages."""
    assert bar_total(4, 3, 200, ended=False) == 7
    assert bar_total(150, 120, 200, ended=False) == 200
