"""UpdatePageMem / UpdateSection: diffs by stable id and content, re-summary marks, list handling."""

from __future__ import annotations

from companion.pagemem.divide import divide_page
from companion.pagemem.update import update_page_mem
from tests.support.htmlsnap import ids_of, snapshot_from_html

FILLER = "".join(f"<p>Paragraph {i} with a little text about shoes and laces.</p>" for i in range(12))


def shop(menu_open: bool = False, cart: str = "0", extra_links: int = 0, modal: bool = False, cards: int = 5) -> str:
    hide = "" if menu_open else ' style="display:none"'
    links = "".join(f'<a href="/x{i}">Extra {i}</a>' for i in range(extra_links))
    grid = "".join(f'<div class="card"><a href="/p/{i}">Shoe {i}</a></div>' for i in range(cards))
    dialog = '<div role="dialog" aria-modal="true" data-modal><p>Sign up?</p><button>No thanks</button></div>' if modal else ""
    return (f'<html><body><div class="wrap"><div class="toolbar"><button aria-expanded="{str(menu_open).lower()}">Account</button>'
            f'<ul{hide}><li><a href="/orders">Orders</a></li><li><a href="/settings">Settings</a></li>'
            f'<li><a href="/help">Help</a></li></ul><input aria-label="Cart count" value="{cart}">{links}</div>'
            f'<div class="grid">{grid}</div><div class="text">{FILLER}</div>{dialog}</div></body></html>')


def test_revealed_menu_items_are_exactly_the_added_set():
    before = snapshot_from_html(shop())
    pm = divide_page(before)
    update = update_page_mem(pm, snapshot_from_html(shop(menu_open=True), ids=ids_of(before)))
    assert sorted(e.name for e in update.added_elements) == ["Help", "Orders", "Settings"]
    toolbar = next(d for d in update.diffs.values() if d.added)
    assert [c.after.name for c in toolbar.modified] == ["Account"]  # aria-expanded flipped
    assert toolbar.removed == []


def test_unchanged_page_gives_empty_diffs_and_keeps_indices():
    before = snapshot_from_html(shop())
    pm = divide_page(before)
    indices = [e.index for e in pm.all_elements()]
    update = update_page_mem(pm, snapshot_from_html(shop(), ids=ids_of(before)))
    assert all(d.empty for d in update.diffs.values())
    assert [e.index for e in pm.all_elements()] == indices


def test_value_change_is_a_modification():
    before = snapshot_from_html(shop())
    pm = divide_page(before)
    update = update_page_mem(pm, snapshot_from_html(shop(cart="2"), ids=ids_of(before)))
    (change,) = [c for d in update.diffs.values() for c in d.modified]
    assert (change.before.value, change.after.value) == ("0", "2")


def test_large_change_marks_the_section_for_resummary_small_does_not():
    before = snapshot_from_html(shop())
    pm = divide_page(before)
    for s in pm.sections:
        s.summary, s.needs_summary = "summarized", False
    update_page_mem(pm, snapshot_from_html(shop(cart="1"), ids=ids_of(before)))
    assert not any(s.needs_summary for s in pm.sections if s.kind != "list")
    update_page_mem(pm, snapshot_from_html(shop(extra_links=3), ids=ids_of(before)))
    marked = [s for s in pm.sections if s.kind != "list" and s.needs_summary]
    assert len(marked) == 1 and any(e.name == "Extra 0" for e in marked[0].elements)


def test_list_sections_return_empty_diff_and_are_always_resummarized():
    before = snapshot_from_html(shop(cards=5))
    pm = divide_page(before)
    grid = next(s for s in pm.sections if s.kind == "list")
    grid.summary, grid.needs_summary = "five shoes", False
    update = update_page_mem(pm, snapshot_from_html(shop(cards=7), ids=ids_of(before)))
    assert update.diffs[grid.id].empty
    assert grid.needs_summary and len(grid.items) == 7


def test_a_modal_that_appears_becomes_a_new_section():
    before = snapshot_from_html(shop())
    pm = divide_page(before)
    update = update_page_mem(pm, snapshot_from_html(shop(modal=True), ids=ids_of(before)))
    modal = pm.modal()
    assert modal is not None and modal.id in update.added_sections
    assert [e.name for e in update.diffs[modal.id].added] == ["No thanks"]


def test_recreated_node_with_new_id_is_not_reported_as_added_and_removed():
    before = snapshot_from_html(shop())
    pm = divide_page(before)
    ids = ids_of(before)
    ids = {k: v for k, v in ids.items() if not k.endswith("/input")}  # the input gets a fresh id
    after = snapshot_from_html(shop(), ids=ids)
    old_id = next(e.id for e in before.frames[0].elements if e.tag == "input")
    assert next(e.id for e in after.frames[0].elements if e.tag == "input") != old_id
    update = update_page_mem(pm, after)
    assert all(not d.added and not d.removed for d in update.diffs.values())
    assert next(e for e in pm.all_elements() if e.tag == "input").ref.id != old_id
