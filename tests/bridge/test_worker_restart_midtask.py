"""The extension's service worker restarts (MV3 stops idle workers) while a task holds a
BrowserSession: the same object goes on after the extension reconnects, and a click that was in flight
is reported as interrupted, not clicked a second time. Real headless Chromium, real extension."""

import asyncio
import threading
import time

import pytest

from companion.bridge.errors import BridgeActionInterrupted
from companion.bridge.auth import EXTENSION_ID

pytestmark = pytest.mark.browser


def restart_worker(browser, session, start_after: float = 0.0) -> threading.Timer | None:
    """Stop the extension's service worker as Chromium does to an idle MV3 worker, then start it again (the
    keep-alive alarm would, within 30 s). Done from a second tab: the controlled one may be busy.
    start_after: seconds the worker stays stopped (the call returns at once; a timer starts it: join the
    returned timer before the test ends, so no one else is using the driver when it fires)."""
    driver = browser.driver
    home = driver.current_window_handle
    driver.switch_to.new_window("tab")
    try:
        driver.execute_cdp_cmd("ServiceWorker.enable", {})
        driver.execute_cdp_cmd("ServiceWorker.stopAllWorkers", {})
        deadline = time.monotonic() + 10
        while not session.closed and time.monotonic() < deadline:
            time.sleep(0.05)
        assert session.closed, "stopping the worker did not close its socket"
        if not start_after:
            driver.execute_cdp_cmd("ServiceWorker.startWorker", {"scopeURL": f"chrome-extension://{EXTENSION_ID}/"})
    finally:
        driver.close()
        driver.switch_to.window(home)
    if start_after:
        # Selenium's driver is not thread-safe: the timer only runs while the test's own thread waits on the task.
        def start() -> None:  # on the controlled tab's CDP session, where the domain is not enabled yet
            driver.execute_cdp_cmd("ServiceWorker.enable", {})
            driver.execute_cdp_cmd("ServiceWorker.startWorker", {"scopeURL": f"chrome-extension://{EXTENSION_ID}/"})

        timer = threading.Timer(start_after, start)
        timer.start()
        return timer
    return None


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
    click = asyncio.run_coroutine_threadsafe(session.click(button, tab=result.tab_id), browser.companion.loop)
    time.sleep(1.0)  # the click handler holds the page for 4 s
    restart_worker(browser, session)
    with pytest.raises(BridgeActionInterrupted, match="may or may not have happened"):
        click.result(60)
    after = browser.run(session.snapshot(result.tab_id), 90)
    _, count = find(after, id="count")
    assert count.text == "1"  # the click happened once and was not sent again
