"""The outlines the companion sends for a PageMem (companion/panel/sections.py), without a browser: what each
label says, which sections are drawn, and that purposes come from the site's memory without writing it."""

from __future__ import annotations

from typing import get_args

from companion.panel.sections import known_purposes, outlines_message, section_outline
from companion.memory.store import WebsiteMemStore, purpose_scope, site_key
from companion.pagemem.divide import divide_page
from companion.pagemem.model import SectionKind
from companion.protocol import OutlineKind
from tests.support.htmlsnap import snapshot_from_html

URL = "http://shop.test/list"
# Enough text that the page is not one small section as a whole (as tests/pagemem/test_divide.py does).
FILLER = "".join(f"<p>Paragraph {i} with a little text about shoes and laces.</p>" for i in range(12))
PAGE = f"""<html><body><div class="wrap">
<nav aria-label="Main"><a href="/a">Home</a> <a href="/b">Shoes</a> <a href="/c">Bags</a> <a href="/d">Help</a></nav>
<div class="intro"><h1>Running shoes</h1><p>Our selection of running shoes for road and trail.</p></div>
<form action="/search"><input name="q" placeholder="Search"><button>Search</button></form>
<div class="filler">{FILLER}</div></div></body></html>"""


def divided():
    snapshot = snapshot_from_html(PAGE, url=URL)
    return snapshot, divide_page(snapshot)


def test_the_wire_knows_every_section_kind():
    assert set(get_args(OutlineKind)) == set(get_args(SectionKind))


def test_a_section_without_a_known_purpose_is_labelled_by_its_first_line():
    _, pm = divided()
    heading = next(s for s in pm.sections if "Running shoes" in s.details)
    outline = section_outline(heading)
    assert outline.purpose is None
    assert outline.label == 'heading "Running shoes" [level=1]'
    assert outline.box == heading.box and outline.kind == heading.kind


def test_a_known_purpose_is_the_label(tmp_path):
    _, pm = divided()
    form = next(s for s in pm.sections if s.kind == "form")
    with WebsiteMemStore(site_key(URL), tmp_path) as store:
        store.store_purpose("search the shop", scope=purpose_scope(pm.template_id, form.signature))
    known_purposes(pm, tmp_path)
    outline = section_outline(form)
    assert outline.purpose == outline.label == "search the shop"


def test_purposes_of_a_site_without_memory_create_no_file(tmp_path):
    _, pm = divided()
    known_purposes(pm, tmp_path)
    assert list(tmp_path.iterdir()) == []
    assert all(s.purpose is None for s in pm.sections)


def test_the_message_outlines_every_section_with_a_box_at_the_snapshots_scroll():
    snapshot, pm = divided()
    snapshot.scroll.y = 120.0
    pm.sections[0].box = None  # nothing of it renders: nothing to outline
    draw = outlines_message(pm, snapshot, tab=7)
    assert [o.id for o in draw.sections] == [s.id for s in pm.sections[1:]]
    assert (draw.tab_id, draw.scroll_x, draw.scroll_y) == (7, 0.0, 120.0)
