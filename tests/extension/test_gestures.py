"""Pointer gestures made of synthetic DOM events, without chrome.debugger (extension/content/gestures.js): each test
reads what the page's own handlers received."""

from __future__ import annotations

import pytest
from selenium.webdriver.common.by import By

pytestmark = pytest.mark.browser


def _log(browser) -> list[str]:
    return browser.driver.find_element(By.ID, "log").get_attribute("textContent").split()


async def _refs(browser, find, *ids):
    snap = await browser.session.snapshot()
    return [find(snap, id=i)[0] for i in ids]


async def test_a_script_drag_handler_moves_the_item_onto_the_target(browser, open_page, find):
    """A mousedown/mousemove/mouseup drag handler (the way jQuery UI's works) sees the press, moves with the
    button held, and a release over the target element."""
    open_page("gestures.html")
    item, box = await _refs(browser, find, "item", "boxB")
    result = await browser.session.drag(item, box)
    assert result.ok, result.error
    assert _log(browser) == ["item:mousedown", "item:dropped:boxB:moves=8"]


async def test_a_drag_by_an_offset_releases_there(browser, open_page, find):
    """Without a target element the release is at the start point plus the offset."""
    open_page("gestures.html")
    (item,) = await _refs(browser, find, "item")
    assert (await browser.session.drag(item, dx=0, dy=300)).ok
    assert browser.driver.execute_script("return document.getElementById('item').style.top") == "300px"


async def test_a_draggable_element_is_dropped_with_html5_drag_and_drop(browser, open_page, find):
    """draggable=true: dragstart, dragenter on the target, drop with the data dragstart put in the DataTransfer,
    dragend."""
    open_page("gestures.html")
    card, bin_ = await _refs(browser, find, "card", "bin")
    result = await browser.session.drag(card, bin_)
    assert result.ok and result.note is None, result
    assert _log(browser) == ["card:dragstart", "bin:dragenter", "bin:drop:card-data", "card:dragend"]


async def test_a_text_selection_is_seen_by_a_mouseup_handler(browser, open_page, find):
    """The phrase (across an inline element, matched ignoring case) is the document's selection when the page's
    mouseup handler reads it, and the page saw selectionchange."""
    open_page("gestures.html")
    (para,) = await _refs(browser, find, "para")
    assert (await browser.session.select_text(para, "jumps OVER the lazy")).ok
    assert browser.driver.find_element(By.ID, "log").get_attribute("textContent") == "para:mouseup:jumps over the lazy\n"
    assert int(browser.driver.find_element(By.TAG_NAME, "body").get_attribute("data-selectionchanges")) >= 1


async def test_text_not_in_the_element_is_a_clear_error(browser, open_page, find):
    open_page("gestures.html")
    (para,) = await _refs(browser, find, "para")
    result = await browser.session.select_text(para, "purple cat")
    assert not result.ok and '"purple cat" is not in the element' in result.error


async def test_a_native_range_input_is_set_with_input_and_change(browser, open_page, find):
    open_page("gestures.html")
    (volume,) = await _refs(browser, find, "volume")
    result = await browser.session.set_slider(volume, 35)
    assert result.ok and result.note is None
    assert _log(browser) == ["volume:input:35", "volume:change:35"]


async def test_a_handle_slider_is_dragged_until_the_number_beside_it_says_the_value(browser, open_page, find):
    """No aria values: the number shown next to the track, which moves with the handle, is read while dragging."""
    open_page("gestures.html")
    (handle,) = await _refs(browser, find, "handle")
    result = await browser.session.set_slider(handle, 43)
    assert result.ok and result.note is None, result
    assert browser.driver.find_element(By.ID, "shown").text == "43"
    assert _log(browser) == ["handle:released"]


async def test_a_vertical_slider_is_set_through_its_track_by_aria_valuenow(browser, open_page, find):
    """The track given, its handle found; the value read from aria-valuenow; bottom is the minimum."""
    open_page("gestures.html")
    (track,) = await _refs(browser, find, "vtrack")
    assert (await browser.session.set_slider(track, 4)).ok
    assert browser.driver.find_element(By.ID, "vhandle").get_attribute("aria-valuenow") == "4"


@pytest.mark.parametrize("dragged, onto, order", [
    ("Ida", "Eve", "Ada,Bo,Cy,Dora,Ida,Eve,Fay,Gus,Hal"),    # up and left, into the centre
    ("Dora", "Cy", "Ada,Bo,Dora,Cy,Eve,Fay,Gus,Hal,Ida"),    # up and right: still before it
    ("Bo", "Hal", "Ada,Cy,Dora,Eve,Fay,Gus,Hal,Bo,Ida"),     # down: after it
    ("Ada", "Bo", "Bo,Ada,Cy,Dora,Eve,Fay,Gus,Hal,Ida"),     # the neighbour on the right
])
async def test_a_script_sortable_grid_puts_the_dragged_tile_in_the_place_of_the_one_it_is_dropped_on(
        browser, open_page, find, dragged, onto, order):
    """The tiles shift under the pointer as it moves: each move heads for where the target is now, and the last
    ones come into its quarter on its side of the order (a planned straight path left the order as it was)."""
    open_page("mouse_sortable_grid.html")
    snapshot = await browser.session.snapshot()
    tile, _ = find(snapshot, tag="li", text=dragged)
    target, _ = find(snapshot, tag="li", text=onto)

    result = await browser.session.drag(tile, target)

    assert result.ok, result
    assert browser.driver.find_element(By.ID, "log").text == order
