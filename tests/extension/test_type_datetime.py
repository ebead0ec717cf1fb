"""Typing into date and time fields: what a person writes ("05/20/2010", "9:37 PM") becomes the ISO value the
field takes (extension/content/datetime.js), with input and change events; unreadable text is a clear error."""

from __future__ import annotations

import pytest
from selenium.webdriver.common.by import By

pytestmark = pytest.mark.browser


def _value(browser, element_id):
    return browser.driver.find_element(By.ID, element_id).get_attribute("value")


async def _ref(browser, find, **attrs):
    snap = await browser.session.snapshot()
    return find(snap, **attrs)[0]


@pytest.mark.parametrize(("field", "typed", "value"), [
    ("day", "05/20/2010", "2010-05-20"),
    ("day", "May 20, 2010", "2010-05-20"),
    ("clock", "9:37 PM", "21:37"),
    ("when", "05/20/2010 9:37 PM", "2010-05-20T21:37"),
    ("month", "May 2010", "2010-05"),
    ("week", "05/20/2010", "2010-W20"),
])
async def test_a_human_date_or_time_becomes_the_fields_value(browser, open_page, find, field, typed, value):
    open_page("ext_datetime.html")
    ref = await _ref(browser, find, id=field)
    result = await browser.session.type(ref, typed)
    assert result.ok, result.error
    assert _value(browser, field) == value


async def test_the_page_sees_input_and_change_events(browser, open_page, find):
    open_page("ext_datetime.html")
    ref = await _ref(browser, find, id="day")
    assert (await browser.session.type(ref, "05/20/2010")).ok
    field = browser.driver.find_element(By.ID, "day")
    assert field.get_attribute("data-inputs") == "1"
    assert field.get_attribute("data-changes") == "1"


async def test_the_snapshot_shows_the_iso_value(browser, open_page, find):
    open_page("ext_datetime.html")
    ref = await _ref(browser, find, id="clock")
    assert (await browser.session.type(ref, "9:37 PM")).ok
    _, el = find(await browser.session.snapshot(), id="clock")
    assert el.value == "21:37"


async def test_text_that_is_no_date_is_a_clear_error(browser, open_page, find):
    open_page("ext_datetime.html")
    ref = await _ref(browser, find, id="day")
    result = await browser.session.type(ref, "next blue moon")
    assert not result.ok
    assert result.error == ('cannot read "next blue moon" as a date: this field takes one such as '
                            "2010-05-20, 05/20/2010 or May 20, 2010")
    assert _value(browser, "day") == ""


async def test_an_impossible_date_is_refused(browser, open_page, find):
    open_page("ext_datetime.html")
    ref = await _ref(browser, find, id="day")
    result = await browser.session.type(ref, "02/30/2010")
    assert not result.ok and "as a date" in result.error
    assert _value(browser, "day") == ""


async def test_clearing_a_date_field_empties_it(browser, open_page, find):
    open_page("ext_datetime.html")
    ref = await _ref(browser, find, id="day")
    assert (await browser.session.type(ref, "2010-05-20")).ok
    assert (await browser.session.clear(ref)).ok
    assert _value(browser, "day") == ""


async def test_an_ambiguous_date_follows_the_pages_language(browser, open_page, find):
    open_page("ext_datetime.html")
    browser.driver.execute_script("document.documentElement.lang = 'de'")
    ref = await _ref(browser, find, id="day")
    assert (await browser.session.type(ref, "05/06/2010")).ok
    assert _value(browser, "day") == "2010-06-05"  # 5 June, as a German page writes it
