"""An idle extension stays connected: Chromium stops an MV3 worker 30 s after its last event, so only
the extension's own application heartbeats keep the socket (which lives in the worker) open."""

import time

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.slow]

IDLE_SECONDS = 65  # past two 30 s worker-idle windows (a third proved nothing more and cost the suite 30 s)


def test_idle_worker_stays_connected_past_two_idle_windows(browser):
    session = browser.session
    sessions_before = len(browser.hub.history)
    heartbeats_before = session.heartbeats_received
    start = time.monotonic()
    # No commands at all: just watch. Heartbeats come every 20 s from the extension.
    while (remaining := IDLE_SECONDS - (time.monotonic() - start)) > 0:
        time.sleep(min(5.0, remaining))
        assert not session.closed, f"the connection dropped after {time.monotonic() - start:.0f} s idle: {session.close_reason}"
    assert len(browser.hub.history) == sessions_before  # no reconnect happened in between
    assert session.heartbeats_received - heartbeats_before >= 3  # every 20 s
    assert browser.hub.latest is session
    tabs = browser.run(session.list_tabs())  # and it still answers
    assert tabs
