"""The extension's side of the wire protocol: bad commands get an error reply (never silence), tabs and
tab events, in real headless Chromium through the paired companion."""

from __future__ import annotations

import time
from typing import Literal

import pytest

from companion.bridge.errors import RemoteError
from companion.protocol import ErrorMessage, SnapshotRequest, SnapshotResult, WireModel

pytestmark = pytest.mark.browser


class UnknownCommand(WireModel):
    type: Literal["teleport"] = "teleport"
    id: str


class BadSnapshotRequest(WireModel):
    """A snapshot request whose tab_id has the wrong type: the schema says integer."""

    type: Literal["snapshot"] = "snapshot"
    id: str
    tab_id: str


class SnapshotWithExtraField(WireModel):
    type: Literal["snapshot"] = "snapshot"
    id: str
    frobnicate: bool


async def test_unknown_command_gets_an_unknown_type_error_with_its_id(browser):
    with pytest.raises(RemoteError) as err:
        await browser.session.request(UnknownCommand(id="req-unknown-1"), ErrorMessage, timeout=10)
    assert err.value.code == "unknown_type"
    assert "teleport" in str(err.value)


async def test_wrongly_typed_field_gets_a_malformed_error_naming_it(browser):
    with pytest.raises(RemoteError) as err:
        await browser.session.request(BadSnapshotRequest(id="req-bad-1", tab_id="seven"), SnapshotResult, timeout=10)
    assert err.value.code == "malformed"
    assert "tab_id" in str(err.value)


async def test_unexpected_field_gets_a_malformed_error(browser):
    with pytest.raises(RemoteError) as err:
        await browser.session.request(SnapshotWithExtraField(id="req-extra-1", frobnicate=True), SnapshotResult, timeout=10)
    assert err.value.code == "malformed"
    assert "frobnicate" in str(err.value)


async def test_snapshot_of_a_missing_tab_is_a_no_tab_error(browser):
    with pytest.raises(RemoteError) as err:
        await browser.session.request(SnapshotRequest(id="req-notab-1", tab_id=987654321), SnapshotResult, timeout=10)
    assert err.value.code == "no_tab"


async def test_the_session_still_works_after_bad_commands(browser, open_page, find):
    with pytest.raises(RemoteError):
        await browser.session.request(UnknownCommand(id="req-unknown-2"), ErrorMessage, timeout=10)
    open_page("ext_form.html")
    find(await browser.session.snapshot(), id="counter")


async def test_list_tabs_reports_the_active_tab(browser, open_page):
    url = open_page("ext_form.html")
    tabs = await browser.session.list_tabs()
    active = [t for t in tabs if t.active]
    assert [t.url for t in active] == [url]
    assert active[0].title == "ext form"


async def test_navigation_emits_navigated_and_loaded_tab_events(browser, open_page, pages):
    open_page("ext_form.html")
    since = time.monotonic()
    target = pages.url("ext_result.html")
    result = await browser.session.navigate(target)
    loaded = await browser.session.wait_for_event(lambda e: e.event == "loaded" and e.url == target, since=since)
    assert loaded.tab_id == result.tab_id
    kinds = [e.event for e in browser.session.events(since) if e.url == target]
    assert kinds.index("navigated") < kinds.index("loaded")


async def test_open_tab_then_snapshot_it_and_close_it(browser, pages, find):
    driver = browser.driver
    handles = set(driver.window_handles)
    since = time.monotonic()
    tab = await browser.session.open_tab(pages.url("ext_stale.html"))
    try:
        assert tab.url == pages.url("ext_stale.html")
        await browser.session.wait_for_event(lambda e: e.event == "created" and e.tab_id == tab.tab_id, since=since)
        snap = await browser.session.snapshot(tab.tab_id)
        find(snap, id="doomed")
        # A fresh tab has no history to go back to: a clear error, not a hang.
        back = await browser.session.back(tab=tab.tab_id)
        assert not back.ok and "back" in back.error
    finally:
        original = driver.current_window_handle
        for handle in set(driver.window_handles) - handles:
            driver.switch_to.window(handle)
            driver.close()
        driver.switch_to.window(original)
    await browser.session.wait_for_event(lambda e: e.event == "closed" and e.tab_id == tab.tab_id, since=since)


async def test_a_page_the_extension_may_not_script_is_a_clear_error(browser, open_page):
    browser.open("chrome://version/")
    try:
        with pytest.raises(RemoteError) as err:
            await browser.session.snapshot()
        assert err.value.code == "no_tab"
        assert "cannot access" in str(err.value)
    finally:
        open_page("ext_form.html")
