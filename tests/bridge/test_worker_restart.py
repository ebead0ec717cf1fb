"""Chromium stops MV3 workers (after 30 s idle, or under memory pressure). A restarted worker must come
back with its pairing, and the companion must see it as a restart (new boot id), not a mere reconnect."""

import time

import pytest

from companion.bridge.locations import OPTIONS_URL

pytestmark = pytest.mark.browser


def test_a_stopped_worker_comes_back_and_is_flagged_as_restarted(browser, open_page):
    before = browser.session
    browser.driver.get("about:blank")
    browser.driver.execute_cdp_cmd("ServiceWorker.enable", {})
    browser.driver.execute_cdp_cmd("ServiceWorker.stopAllWorkers", {})  # what Chromium does to an idle worker
    deadline = time.monotonic() + 10
    while not before.closed and time.monotonic() < deadline:
        time.sleep(0.1)
    assert before.closed, "stopping the worker did not close its socket"
    # Any extension event starts the worker again; a user opening the options page is one (the
    # keep-alive alarm is another, but it may take up to 30 s).
    browser.driver.get(OPTIONS_URL)
    after = browser.wait_for_session(45, newer_than=before)
    assert after.boot_id != before.boot_id and after.worker_restarted is True
    open_page("basic.html")
    assert browser.run(after.snapshot()).title == "Basic page"  # pairing survived the restart
