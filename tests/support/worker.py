"""Stopping and restarting the extension's service worker, as Chromium does to an idle MV3 worker."""

from __future__ import annotations

import threading
import time
from contextlib import contextmanager

from companion.bridge.auth import EXTENSION_ID


def restart_worker(browser, session, start_after: float = 0.0) -> threading.Timer | None:
    """Stop the extension's service worker as Chromium does to an idle MV3 worker, then start it again (the
    keep-alive alarm would, within 30 s). Done from a second tab: the controlled one may be busy.
    start_after: seconds the worker stays stopped (the call returns at once; a timer starts it: join the
    returned timer before the test ends, so no one else is using the driver when it fires)."""
    with other_tab(browser.driver):
        stop_worker(browser, session, start_again=not start_after)
    if start_after:
        driver = browser.driver

        # Selenium's driver is not thread-safe: the timer only runs while the test's own thread waits on the task.
        def start() -> None:  # on the controlled tab's CDP session, where the domain is not enabled yet
            driver.execute_cdp_cmd("ServiceWorker.enable", {})
            driver.execute_cdp_cmd("ServiceWorker.startWorker", {"scopeURL": f"chrome-extension://{EXTENSION_ID}/"})

        timer = threading.Timer(start_after, start)
        timer.start()
        return timer
    return None


@contextmanager
def other_tab(driver):
    """The driver works from a second tab meanwhile. ChromeDriver waits for a tab's running script before any
    command sent to that tab, so a page held busy would hold the test's own commands too."""
    home = driver.current_window_handle
    driver.switch_to.new_window("tab")
    try:
        yield
    finally:
        driver.close()
        driver.switch_to.window(home)


def stop_worker(browser, session, start_again: bool = True) -> None:
    """Stop the extension's service worker from the driver's current tab (which must not be busy), wait until
    its socket to the companion closed, and start it again unless told not to."""
    driver = browser.driver
    driver.execute_cdp_cmd("ServiceWorker.enable", {})
    driver.execute_cdp_cmd("ServiceWorker.stopAllWorkers", {})
    deadline = time.monotonic() + 10
    while not session.closed and time.monotonic() < deadline:
        time.sleep(0.05)
    assert session.closed, "stopping the worker did not close its socket"
    if start_again:
        driver.execute_cdp_cmd("ServiceWorker.startWorker", {"scopeURL": f"chrome-extension://{EXTENSION_ID}/"})
