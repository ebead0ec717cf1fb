"""Icons and images without a name are told apart as Region4Web's preprocessing does (App. D): a nameless link
shows where it goes, a nameless image its file name; an svg's <title> and screen-reader text name their link
(real Chromium, real extension, fixture page pm_icons.html)."""

from __future__ import annotations

import pytest

from companion.act.candidates import element_candidate
from benchmarks.divide_check import division_problems
from tests.support.pagemem_served import divided

pytestmark = pytest.mark.browser


def test_icon_links_and_thumbnails_are_labelled_by_their_href_image_title_or_hidden_text(browser, pages):
    snapshot, pm = divided(browser, pages, "pm_icons.html")
    assert division_problems(snapshot, pm) == []
    by_href = {e.attrs.get("href"): e for e in pm.all_elements() if e.role == "link"}
    labels = {href: element_candidate(e, "s").label for href, e in by_href.items()}
    assert "/cart" in labels["/cart"]                      # an icon font: nothing but where it goes
    assert "/account/profile" in labels["/account/profile"]  # a bare svg drawing
    assert "gear.svg" in labels["/settings"] and "/settings" in labels["/settings"]  # an image without alt
    assert by_href["/search"].name == "Search the shop"    # the svg's <title>
    assert by_href["/help"].name == "Help and contact"     # sr-only text names its icon link
    header = [labels[h] for h in ("/", "/cart", "/account/profile", "/settings", "/search", "/help")]
    assert len(set(header)) == len(header)  # no two icons read alike (no "(1 of 3)" needed)
    # A product thumbnail inside a link says which picture it is, in the section the LLM reads too.
    grid = next(s for s in pm.sections if "Trail Blazer" in s.details)
    assert "trail-blazer.jpg" in grid.details and "mud-runner.jpg" in grid.details
