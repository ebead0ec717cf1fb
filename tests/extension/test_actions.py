"""Actions sent through the companion change the page as a user would; the page is read back through Selenium."""

from __future__ import annotations

import pytest
from selenium.webdriver.common.by import By

pytestmark = pytest.mark.browser


def _el(browser, element_id):
    return browser.driver.find_element(By.ID, element_id)


async def _ref(browser, find, **attrs):
    snap = await browser.session.snapshot()
    return find(snap, **attrs)[0]


async def test_click_runs_the_pages_handler(browser, open_page, find):
    open_page("ext_form.html")
    ref = await _ref(browser, find, id="counter")
    result = await browser.session.click(ref)
    assert result.ok and not result.url_changed
    assert _el(browser, "counter").text == "clicked 1"


async def test_click_inside_a_cross_origin_frame(browser, open_page, find):
    open_page("ext_frames.html", other=True)
    snap = await browser.session.snapshot()
    _, iframe = find(snap, tag="iframe", id="cross")
    ref, _ = find(snap, text="Frame button", frame=iframe.child_frame)
    assert (await browser.session.click(ref)).ok
    driver = browser.driver
    driver.switch_to.frame(driver.find_element(By.ID, "cross"))
    try:
        assert driver.find_element(By.ID, "go").text == "pressed"
    finally:
        driver.switch_to.default_content()


async def test_click_on_a_link_navigates_and_says_so(browser, open_page, find):
    url = open_page("ext_form.html")
    ref = await _ref(browser, find, id="link")
    result = await browser.session.click(ref)
    assert result.ok and result.url_changed
    assert result.url_before == url
    assert result.url_after.endswith("ext_result.html?from=link")
    assert _el(browser, "query").text == "?from=link"


async def test_type_replaces_the_value_with_real_input_events(browser, open_page, find):
    open_page("ext_form.html")
    _el(browser, "q").send_keys("old text")
    ref = await _ref(browser, find, id="q")
    assert (await browser.session.type(ref, "new words")).ok
    field = _el(browser, "q")
    assert field.get_attribute("value") == "new words"
    # The page's own listeners saw input and change events, as with a user typing.
    assert int(field.get_attribute("data-inputs")) >= 1
    assert int(field.get_attribute("data-changes")) >= 1


async def test_type_append_keeps_the_existing_text(browser, open_page, find):
    open_page("ext_form.html")
    _el(browser, "q").send_keys("hello")
    ref = await _ref(browser, find, id="q")
    assert (await browser.session.type(ref, " world", mode="append")).ok
    assert _el(browser, "q").get_attribute("value") == "hello world"


async def test_type_into_a_textarea_and_a_contenteditable(browser, open_page, find):
    open_page("ext_form.html")
    snap = await browser.session.snapshot()
    assert (await browser.session.type(find(snap, id="notes")[0], "two\nlines")).ok
    assert (await browser.session.type(find(snap, id="editor")[0], "rich text")).ok
    assert _el(browser, "notes").get_attribute("value") == "two\nlines"
    assert _el(browser, "editor").text == "rich text"


async def test_clear_empties_a_field(browser, open_page, find):
    open_page("ext_form.html")
    _el(browser, "q").send_keys("something")
    ref = await _ref(browser, find, id="q")
    assert (await browser.session.clear(ref)).ok
    assert _el(browser, "q").get_attribute("value") == ""


async def test_select_by_label_and_by_value(browser, open_page, find):
    open_page("ext_form.html")
    ref = await _ref(browser, find, id="color")
    assert (await browser.session.select(ref, label="Blue")).ok
    assert _el(browser, "color").get_attribute("value") == "b"
    assert (await browser.session.select(ref, value="g")).ok
    assert _el(browser, "color").get_attribute("value") == "g"
    assert int(_el(browser, "color").get_attribute("data-changes")) == 2


async def test_select_of_a_missing_option_is_a_clear_error(browser, open_page, find):
    open_page("ext_form.html")
    ref = await _ref(browser, find, id="color")
    result = await browser.session.select(ref, label="Purple")
    assert not result.ok
    assert result.error == 'no option with label "Purple" in this <select>'
    assert _el(browser, "color").get_attribute("value") == "r"


async def test_check_and_uncheck(browser, open_page, find):
    open_page("ext_form.html")
    ref = await _ref(browser, find, id="agree")
    assert (await browser.session.check(ref, True)).ok
    assert _el(browser, "agree").is_selected()
    # Already checked: nothing toggles it back.
    assert (await browser.session.check(ref, True)).ok
    assert _el(browser, "agree").is_selected()
    assert (await browser.session.check(ref, False)).ok
    assert not _el(browser, "agree").is_selected()


async def test_enter_in_a_form_field_submits_the_form(browser, open_page, find):
    open_page("ext_form.html")
    ref = await _ref(browser, find, id="q")
    assert (await browser.session.type(ref, "needle")).ok
    result = await browser.session.press("Enter", ref)
    assert result.ok and result.url_changed
    assert "q=needle" in result.url_after
    assert _el(browser, "result").text == "Result page"


async def test_key_press_reaches_the_pages_key_handlers(browser, open_page, find):
    open_page("ext_form.html")
    ref = await _ref(browser, find, id="q")
    assert (await browser.session.press("Escape", ref)).ok
    assert _el(browser, "log").get_attribute("data-last-key") == "Escape"


async def test_tab_moves_focus_to_the_next_field(browser, open_page, find):
    open_page("ext_form.html")
    ref = await _ref(browser, find, id="q")
    assert (await browser.session.press("Tab", ref)).ok
    assert browser.driver.execute_script("return document.activeElement.id") == "pw"


async def test_navigate_back_and_forward(browser, open_page, pages):
    first = open_page("ext_form.html")
    second = pages.url("ext_result.html")
    result = await browser.session.navigate(second)
    assert result.ok and result.url_changed and result.url_after == second
    assert _el(browser, "result").text == "Result page"
    back = await browser.session.back()
    assert back.ok and back.url_after == first
    forward = await browser.session.forward()
    assert forward.ok and forward.url_after == second


async def test_stale_element_gives_a_clear_error(browser, open_page, find):
    open_page("ext_stale.html")
    snap = await browser.session.snapshot()
    doomed, _ = find(snap, id="doomed")
    remover, _ = find(snap, id="remover")
    assert (await browser.session.click(remover)).ok
    result = await browser.session.click(doomed)
    assert not result.ok
    assert result.error == f"element {doomed.id} is no longer on the page"


async def test_element_of_a_previous_document_gives_a_clear_error(browser, open_page, find):
    open_page("ext_stale.html")
    remover, _ = find(await browser.session.snapshot(), id="remover")
    assert (await browser.session.reload()).ok
    result = await browser.session.click(remover)
    assert not result.ok
    assert result.error == f"element {remover.id} is no longer on the page"


async def test_hover_fires_mouse_events(browser, open_page, find):
    open_page("ext_form.html")
    browser.driver.execute_script(
        "document.getElementById('counter').addEventListener('mouseover', e => e.target.dataset.hovered = 'yes')"
    )
    ref = await _ref(browser, find, id="counter")
    assert (await browser.session.hover(ref)).ok
    assert _el(browser, "counter").get_attribute("data-hovered") == "yes"


async def test_scroll_the_page(browser, open_page):
    open_page("ext_big.html", query="rows=300")
    assert (await browser.session.scroll(dy=500)).ok
    assert browser.driver.execute_script("return window.scrollY") == pytest.approx(500, abs=1)


async def test_upload_puts_a_file_into_a_file_input(browser, open_page, find, tmp_path):
    open_page("ext_form.html")
    browser.driver.execute_script(
        "const i = document.createElement('input'); i.type = 'file'; i.id = 'file';"
        "i.addEventListener('change', () => i.dataset.name = i.files[0].name + ':' + i.files[0].size);"
        "document.body.append(i)"
    )
    path = tmp_path / "notes.txt"
    path.write_text("twelve bytes")
    ref = await _ref(browser, find, id="file")
    assert (await browser.session.upload(ref, path)).ok
    assert _el(browser, "file").get_attribute("data-name") == "notes.txt:12"


async def test_focus_moves_focus_to_the_element(browser, open_page, find):
    open_page("ext_form.html")
    ref = await _ref(browser, find, id="notes")
    assert (await browser.session.focus(ref)).ok
    assert browser.driver.execute_script("return document.activeElement.id") == "notes"


async def test_space_toggles_a_focused_checkbox(browser, open_page, find):
    open_page("ext_form.html")
    ref = await _ref(browser, find, id="agree")
    assert (await browser.session.press("Space", ref)).ok
    assert _el(browser, "agree").is_selected()


async def test_backspace_deletes_the_last_character(browser, open_page, find):
    open_page("ext_form.html")
    ref = await _ref(browser, find, id="q")
    assert (await browser.session.type(ref, "abc")).ok
    assert (await browser.session.press("Backspace", ref)).ok
    assert _el(browser, "q").get_attribute("value") == "ab"


async def test_clicking_an_option_selects_it(browser, open_page, find):
    open_page("ext_form.html")
    snap = await browser.session.snapshot()
    ref, _ = find(snap, tag="option", text="Green")
    assert (await browser.session.click(ref)).ok
    assert _el(browser, "color").get_attribute("value") == "g"
    assert _el(browser, "color").get_attribute("data-changes") == "1"
