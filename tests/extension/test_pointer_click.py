"""A click lands where a person's would: on the topmost element at the element's visible point, with the
whole pointer/mouse sequence there, focus moving on the press (extension/content/actions.js click)."""

from __future__ import annotations

import pytest
from selenium.webdriver.common.by import By

pytestmark = pytest.mark.browser


def _el(browser, element_id):
    return browser.driver.find_element(By.ID, element_id)


async def _ref(browser, find, **attrs):
    snap = await browser.session.snapshot()
    return find(snap, **attrs)[0]


async def test_clicking_a_tab_reaches_the_link_inside_it(browser, open_page, find):
    open_page("ext_click.html")
    ref = await _ref(browser, find, id="tab2")
    result = await browser.session.click(ref)
    assert result.ok and result.note is None
    assert _el(browser, "panel2").is_displayed()
    assert not _el(browser, "panel1").is_displayed()


async def test_the_pointer_sequence_goes_to_the_element_under_the_point(browser, open_page, find):
    open_page("ext_click.html")
    ref = await _ref(browser, find, id="pad")
    assert (await browser.session.click(ref)).ok
    assert _el(browser, "log").get_attribute("data-events").split() == [
        "pointerdown:pad-inner:1:under",
        "mousedown:pad-inner:1:under",
        "pointerup:pad-inner:0:under",
        "mouseup:pad-inner:0:under",
        "click:pad-inner:0:under",
    ]


async def test_a_covered_element_is_clicked_and_the_cover_is_named(browser, open_page, find):
    open_page("ext_click.html")
    ref = await _ref(browser, find, id="under")
    result = await browser.session.click(ref)
    assert result.ok
    assert result.note is not None and 'covered by <div id="overlay">' in result.note
    assert _el(browser, "under").get_attribute("data-n") == "1"


async def test_a_styled_checkbox_under_its_label_toggles_once(browser, open_page, find):
    open_page("ext_click.html")
    ref = await _ref(browser, find, id="fancy")
    result = await browser.session.check(ref, True)
    assert result.ok and result.note is None
    assert _el(browser, "fancy").is_selected()
    assert _el(browser, "fancy").get_attribute("data-changes") == "1"


async def test_a_press_moves_focus_to_the_focusable_element_around_the_point(browser, open_page, find):
    open_page("ext_click.html")
    snap = await browser.session.snapshot()
    assert (await browser.session.focus(find(snap, id="field")[0])).ok
    assert (await browser.session.click(find(snap, id="card-text")[0])).ok
    assert browser.driver.execute_script("return document.activeElement.id") == "card"
