"""PageMem model helpers: the extraction cache keyed by the details string, lookups by index and ref."""

from __future__ import annotations

from companion.pagemem.divide import divide_page
from companion.pagemem.model import PageMem
from tests.support.htmlsnap import snapshot_from_html

HTML = '<html><body><nav><a href="/">Home</a><a href="/a">About</a></nav><button>Buy</button></body></html>'


def test_extraction_is_reused_only_for_the_same_details_string():
    section = divide_page(snapshot_from_html(HTML)).sections[0]
    section.store_extraction(section.details, "the home link")
    assert section.cached_extraction(section.details) == "the home link"
    assert section.cached_extraction(section.details + "\n- text: new") is None


def test_lookups_by_index_and_ref_and_json_round_trip():
    pm = divide_page(snapshot_from_html(HTML))
    buy = pm.element(3)
    assert buy is not None and buy.name == "Buy"
    assert pm.element_by_ref(buy.ref) == buy and pm.section_of(buy.ref).elements[-1] == buy
    assert PageMem.model_validate_json(pm.model_dump_json()) == pm
