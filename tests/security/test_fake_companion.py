"""A fake companion on the paired port: whatever listens there is a stranger until it proves it holds the
pairing token (extension/bg/pairing.js, companion/bridge/auth.py). In real headless Chromium with the real
extension, pointed at a plain `websockets` server that does not hold the token: it never gets the token,
it gets nothing but the challenge, no command it sends is obeyed, and the options page and the side panel
say what happened. A companion with another token is told apart the same way."""

from __future__ import annotations

import json
import time

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from companion.bridge.auth import load_or_create_token
from companion.bridge.hub import BridgeHub
from companion.bridge.runner import CompanionServer
from companion.bridge.server import BridgeSettings

from tests.support.fake_companion import SIDEPANEL_URL, extension_pointed_at, wait_for_status

pytestmark = pytest.mark.browser

MODES = ["commands_first", "forged_proof", "silent"]


@pytest.mark.parametrize("fake_companion", MODES, indirect=True)
def test_a_fake_companion_gets_nothing_but_the_challenge(browser, open_page, fake_companion):
    url = open_page("basic.html")
    tabs_before = len(browser.driver.window_handles) + 1  # the options tab opens next
    with extension_pointed_at(browser, fake_companion.port, browser.token):
        dropped = fake_companion.wait_for_dropped_connection()
        received = [json.loads(raw) for raw in dropped.messages]
        assert [m["type"] for m in received] == ["auth_challenge"]
        assert set(received[0]) == {"type", "id", "client_nonce"}
        # Nothing secret travelled: not in the handshake (headers, subprotocols, path), not in a message.
        assert browser.token not in dropped.request and browser.token not in "".join(dropped.messages)
        assert "Sec-WebSocket-Protocol: webchallenger.v2" in dropped.request
        # No command was obeyed: the page tab did not move, no tab opened, nothing is on file:.
        driver = browser.driver
        assert driver.current_url == url
        assert len(driver.window_handles) == tabs_before
        assert all(not c.messages or json.loads(c.messages[0])["type"] == "auth_challenge" for c in fake_companion.connections)


@pytest.mark.parametrize("fake_companion, why", [
    ("commands_first", 'it sent "list_tabs" before proving it knows the token'),
    ("forged_proof", "it failed the pairing check"),
    ("silent", "it did not answer the pairing check in time"),
], indirect=["fake_companion"])
def test_the_options_page_names_a_fake_companion(browser, open_page, fake_companion, why):
    open_page("basic.html")
    with extension_pointed_at(browser, fake_companion.port, browser.token) as options_tab:
        status = wait_for_status(browser, options_tab, lambda s: "not your companion" in s)
        assert status.startswith(f"something on port {fake_companion.port} is not your companion ({why}")


def test_the_extension_keeps_retrying_a_fake_companion(browser, open_page):
    from tests.support.fake_companion import FakeCompanion

    open_page("basic.html")
    with FakeCompanion("commands_first") as fake, extension_pointed_at(browser, fake.port, browser.token):
        deadline = time.monotonic() + 60
        while len([c for c in fake.connections if c.closed]) < 2 and time.monotonic() < deadline:
            time.sleep(0.2)
        # Dialled again after the first refusal (with backoff), and refused again: nothing but challenges.
        assert len([c for c in fake.connections if c.closed]) >= 2
        assert {json.loads(c.messages[0])["type"] for c in fake.connections if c.messages} == {"auth_challenge"}


@pytest.fixture
def companion_with_another_token(tmp_path):
    token = load_or_create_token(tmp_path / "other-config")
    with CompanionServer(BridgeSettings(token=token, port=0), BridgeHub()) as other:
        yield other


def test_a_companion_with_another_token_is_told_apart_and_gets_no_session(browser, open_page, companion_with_another_token):
    other = companion_with_another_token
    open_page("basic.html")
    with extension_pointed_at(browser, other.port, browser.token) as options_tab:
        status = wait_for_status(browser, options_tab, lambda s: "pairing check" in s)
        assert status == (f"something on port {other.port} is not your companion (it failed the pairing check; "
                          "if it is your companion, the token entered here is not its token)")
        # The side panel shows the same reason under its status.
        browser.driver.get(SIDEPANEL_URL)
        detail = WebDriverWait(browser.driver, 20).until(lambda d: d.find_element(By.ID, "conn-detail").text.strip())
        assert detail == status and browser.driver.find_element(By.ID, "conn").text == "not connected"
    assert other.hub.history == []
    assert any("rejected our pairing proof" in r.reason for r in other.hub.refused)
