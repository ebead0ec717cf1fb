"""In real headless Chromium with the real extension: a web page cannot reach the companion, and a
password's value never leaves the page (not in a snapshot, not in a recording)."""

import json

import pytest

from companion.bridge.auth import SUBPROTOCOL
from companion.bridge.recorder import Recorder, read_recording

pytestmark = pytest.mark.browser

PROBE_SCRIPT = "const done = arguments[arguments.length - 1]; window.probe(arguments[0], arguments[1]).then(done);"


@pytest.mark.parametrize("with_token", [True, False], ids=["with-the-real-token", "without-token"])
def test_page_script_websocket_to_the_companion_is_refused(browser, pages, open_page, with_token):
    open_page("ws_probe.html")
    sessions_before = len(browser.hub.history)
    refusals_before = len(browser.hub.refused)
    # Worst case: the page somehow knows the token. Its Origin still gives it away.
    protocols = [SUBPROTOCOL, "auth." + browser.token] if with_token else [SUBPROTOCOL]
    seen = browser.driver.execute_async_script(PROBE_SCRIPT, browser.companion.url, protocols)
    assert seen["opened"] is False and seen["messages"] == []
    assert seen["closeCode"] == 1006  # what a page sees when the handshake is refused
    refusal = browser.hub.refused[-1]
    assert len(browser.hub.refused) == refusals_before + 1
    assert refusal.origin == pages.base and "not allowed" in refusal.reason
    assert len(browser.hub.history) == sessions_before


def test_password_value_appears_nowhere(browser, open_page, find, tmp_path):
    recording = tmp_path / "session.jsonl"
    browser.hub.recorder = Recorder(recording)
    try:
        open_page("basic.html")
        first = browser.run(browser.session.snapshot())
        ref, field = find(first, id="pw")
        assert field.tag == "input" and field.value is None
        result = browser.run(browser.session.type(ref, "typed-secret-4711"))
        assert result.ok, result.error
        # The typing did land: the page holds the new value...
        assert browser.driver.execute_script("return document.getElementById('pw').value") == "typed-secret-4711"
        second = browser.run(browser.session.snapshot())
    finally:
        browser.hub.recorder.close()
        browser.hub.recorder = None
    # ...and neither the page's own value nor the typed one shows up anywhere.
    for snapshot in (first, second):
        wire = snapshot.model_dump_json()
        assert "hunter2-fixture-secret" not in wire and "typed-secret-4711" not in wire
    text = recording.read_text()
    assert "hunter2-fixture-secret" not in text and "typed-secret-4711" not in text
    lines = list(read_recording(recording))
    kinds = {(line.dir, json.loads(line.raw)["type"]) for line in lines}
    assert {("out", "snapshot"), ("in", "snapshot_result"), ("out", "action"), ("in", "action_result")} <= kinds
