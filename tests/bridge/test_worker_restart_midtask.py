"""The extension's service worker restarts (MV3 stops idle workers) while a task holds a
BrowserSession: the same object goes on after the extension reconnects, and a click that was in flight
is reported as interrupted, not clicked a second time. Real headless Chromium, real extension."""

import asyncio
import time

import pytest

from companion.bridge.errors import BridgeActionInterrupted
from tests.support.worker import other_tab, restart_worker, stop_worker

pytestmark = pytest.mark.browser


def test_a_snapshot_after_the_reload_succeeds_on_the_same_session(browser, open_page):
    open_page("basic.html")
    session = browser.session
    tab = browser.run(session.snapshot_result()).tab_id
    restart_worker(browser, session)
    snap = browser.run(session.snapshot(tab), 90)  # waits for the new worker's Hello, then asks it
    assert snap.title == "Basic page"
    assert session.closed and browser.session.boot_id != session.boot_id


def test_a_click_in_flight_is_reported_and_not_replayed(browser, open_page, find):
    open_page("slow_click.html")
    session = browser.session
    result = browser.run(session.snapshot_result())
    button, _ = find(result.snapshot, id="slow")
    # The driver waits on a second tab: ChromeDriver holds any command for the busy tab until its script ends,
    # which on a loaded machine let the click finish before the worker was stopped.
    with other_tab(browser.driver):
        click = asyncio.run_coroutine_threadsafe(session.click(button, tab=result.tab_id), browser.companion.loop)
        time.sleep(2.0)  # the click reaches the page; its handler holds the page for 12 s
        assert not click.done(), "the click came back before the worker was stopped"
        stop_worker(browser, session)
        assert not click.done() or click.exception() is not None, "the click finished before the worker was stopped"
    with pytest.raises(BridgeActionInterrupted, match="may or may not have happened"):
        click.result(60)
    after = browser.run(session.snapshot(result.tab_id), 90)
    _, count = find(after, id="count")
    assert count.text == "1"  # the click happened once and was not sent again
