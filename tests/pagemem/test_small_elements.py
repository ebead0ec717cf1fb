"""What a person can see is kept, however small; what no one can see is dropped, by visibility, not by size
(real Chromium, real extension, fixture page pm_small.html)."""

from __future__ import annotations

import pytest

from benchmarks.divide_check import division_problems
from tests.support.pagemem_served import divided

pytestmark = pytest.mark.browser


def test_a_one_word_link_in_small_type_is_kept_and_unseen_ones_are_dropped(browser, pages):
    snapshot, pm = divided(browser, pages, "pm_small.html")
    box = next(e.box for f in snapshot.frames for e in f.elements if e.attrs.get("id") == "in")
    assert box is not None and box.w < 10  # the 9 px link really is that small
    assert division_problems(snapshot, pm) == []
    names = [e.name for e in pm.all_elements()]
    assert names.count("In") == 1
    assert "Prices include VAT" in "\n".join(s.details for s in pm.sections)  # the small print is page text
    # Clipped to 1 px (sr-only), off the page, transparent, visibility:hidden, zero height: nobody sees them.
    for unseen in ("Skip to the content", "Off the page", "Transparent link", "Hidden link", "Flat link"):
        assert unseen not in names
        assert all(unseen not in s.details for s in pm.sections)
