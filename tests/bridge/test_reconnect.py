"""The extension finds the companion again by itself: after a clean restart and after a hard kill
(SIGKILL of a real `webchallenger serve` process) on the same port."""

import os
import signal
import subprocess
import sys
import threading
import time

import pytest

pytestmark = pytest.mark.browser

RECONNECT_TIMEOUT = 45  # the extension's backoff tops out at 10 s; the alarm fires every 30 s


@pytest.fixture
def companion_back_up(browser):
    """Whatever a test does to the companion, the next test finds it running again."""
    yield
    if not browser.companion.running:
        browser.companion.start()
    browser.wait_for_session(RECONNECT_TIMEOUT)


def test_extension_reconnects_after_the_companion_restarts(browser, open_page, companion_back_up):
    before = browser.session
    browser.companion.stop()
    assert before.closed
    time.sleep(2)  # the extension sees the companion gone and starts backing off
    browser.companion.start()
    after = browser.wait_for_session(RECONNECT_TIMEOUT, newer_than=before)
    assert after is not before and not after.closed
    assert after.boot_id == before.boot_id and after.worker_restarted is False  # same worker, new socket
    open_page("second.html")
    assert browser.run(after.snapshot()).title == "Second page"


def _wait_for_line(stream, needle: str, timeout: float) -> list[str]:
    """Read lines from `stream` until one contains `needle`; returns every line read."""
    lines: list[str] = []
    found = threading.Event()

    def reader():
        for line in stream:
            lines.append(line)
            if needle in line:
                found.set()
                return

    threading.Thread(target=reader, daemon=True).start()
    found.wait(timeout)
    return lines


def test_extension_reconnects_after_serve_is_killed(browser, open_page, companion_back_up):
    port = browser.companion.port
    before = browser.session
    browser.companion.stop()
    env = dict(os.environ, WEBCHALLENGER_CONFIG_DIR=str(browser.config_dir))  # same token the extension holds
    serve = subprocess.Popen([sys.executable, "-m", "companion", "serve", "--port", str(port)], env=env,
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        lines = _wait_for_line(serve.stdout, "browser connected", RECONNECT_TIMEOUT)
        assert any("browser connected" in line for line in lines), "".join(lines)
        assert any(f"ws://127.0.0.1:{port}/ws" in line for line in lines)
        assert not any(browser.token in line for line in lines)  # serve names the token file, not the token
    finally:
        serve.send_signal(signal.SIGKILL)  # no goodbye: the socket just dies
        serve.wait(10)
        serve.stdout.close()
    browser.companion.start()
    after = browser.wait_for_session(RECONNECT_TIMEOUT, newer_than=before)
    assert after.boot_id == before.boot_id
    open_page("basic.html")
    assert browser.run(after.snapshot()).title == "Basic page"
