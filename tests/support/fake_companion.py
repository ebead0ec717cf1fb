"""A fake companion the extension can be pointed at (a hostile or wrong server on loopback), and driving the options
page to pair with it."""

from __future__ import annotations

import json
import secrets
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass, field

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait
from websockets.exceptions import ConnectionClosed
from websockets.sync.server import serve

from companion.bridge.locations import OPTIONS_URL

SIDEPANEL_URL = OPTIONS_URL.replace("options.html", "sidepanel.html")


# What a fake companion asks for: every command that reads the user's pages or moves their browser.
HOSTILE_COMMANDS = [
    {"type": "list_tabs", "id": "evil-1"},
    {"type": "snapshot", "id": "evil-2"},
    {"type": "open_tab", "id": "evil-3", "url": "file:///etc/hostname"},
    {"type": "action", "id": "evil-4", "action": {"kind": "navigate", "url": "file:///etc/hostname"}},
    {"type": "read_clipboard", "id": "evil-5"},
]


@dataclass
class FakeConnection:
    request: str  # the handshake request, headers included
    messages: list[str] = field(default_factory=list)
    closed: bool = False
    close_code: int | None = None


class FakeCompanion:
    """Listens on a free loopback port and speaks just enough WebSocket to be dialled.

    mode "commands_first": sends HOSTILE_COMMANDS as soon as the socket opens;
    "forged_proof": answers the challenge with a made-up nonce and proof, then sends HOSTILE_COMMANDS;
    "silent": says nothing. Every connection's handshake and every message received are recorded.
    """

    def __init__(self, mode: str):
        self.mode = mode
        self.connections: list[FakeConnection] = []
        self._server = serve(self._handle, "127.0.0.1", 0, select_subprotocol=lambda conn, offered: offered[0] if offered else None,
                             compression=None)
        self.port = self._server.socket.getsockname()[1]
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    def __enter__(self) -> "FakeCompanion":
        self._thread.start()
        return self

    def __exit__(self, *exc_info) -> None:
        self._server.shutdown()
        self._thread.join(10)

    def _handle(self, ws) -> None:
        record = FakeConnection(request=f"{ws.request.path}\n{ws.request.headers}")
        self.connections.append(record)
        try:
            if self.mode == "commands_first":
                for command in HOSTILE_COMMANDS:
                    ws.send(json.dumps(command))
            first = ws.recv(timeout=30)
            record.messages.append(first)
            if self.mode == "forged_proof":
                challenge = json.loads(first)
                ws.send(json.dumps({"type": "auth_response", "id": challenge.get("id", ""),
                                    "server_nonce": secrets.token_urlsafe(32), "proof": secrets.token_urlsafe(32)}))
                for command in HOSTILE_COMMANDS:
                    ws.send(json.dumps(command))
            while True:
                record.messages.append(ws.recv(timeout=30))
        except (ConnectionClosed, TimeoutError):
            pass
        record.closed = True
        record.close_code = ws.close_code

    def wait_for_dropped_connection(self, timeout: float = 60.0) -> FakeConnection:
        """The first connection the extension opened and then closed; or, sooner, one that received more
        than one message (an extension that obeys a fake never closes: the test then shows what it got)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            done = [c for c in self.connections if c.closed or len(c.messages) > 1]
            if done:
                time.sleep(0.5 if not done[0].closed else 0)  # let the rest of what it got arrive
                return done[0]
            time.sleep(0.1)
        raise AssertionError(f"the extension did not dial and drop the fake companion within {timeout:g} s "
                             f"({len(self.connections)} connection(s) so far)")


def status_text(driver) -> str:
    return driver.find_element(By.ID, "status").text.strip()


def enter_pairing(driver, port: int, token: str) -> None:
    for field_id, value in (("port", str(port)), ("token", token)):
        element = driver.find_element(By.ID, field_id)
        element.clear()
        element.send_keys(value)
    driver.find_element(By.ID, "save").click()


@contextmanager
def extension_pointed_at(browser, port: int, token: str):
    """The extension paired with `port` and `token` through its options page, opened in a second tab; the
    driver is switched back to the page tab before yielding (it stays the active, controlled tab). Yields the
    options tab's window handle. Afterwards the real port and token are entered again and the session is back."""
    driver = browser.driver
    page_tab = driver.current_window_handle
    before = browser.hub.latest
    driver.switch_to.new_window("tab")
    options_tab = driver.current_window_handle
    try:
        driver.get(OPTIONS_URL)
        WebDriverWait(driver, 20).until(lambda d: status_text(d))
        enter_pairing(driver, port, token)
        driver.switch_to.window(page_tab)
        yield options_tab
    finally:
        driver.switch_to.window(options_tab)
        if driver.current_url != OPTIONS_URL:
            driver.get(OPTIONS_URL)
        enter_pairing(driver, browser.companion.port, browser.token)
        WebDriverWait(driver, 30).until(lambda d: status_text(d) == "connected")
        driver.close()
        driver.switch_to.window(page_tab)
        if before is not None:
            browser.wait_for_session(30, newer_than=before)


def wait_for_status(browser, options_tab: str, predicate, timeout: float = 30.0) -> str:
    """The options page's status once `predicate` holds; the driver is left on the options tab."""
    driver = browser.driver
    driver.switch_to.window(options_tab)
    # The text that met the predicate is returned, not a second read: the extension dials the port again with
    # backoff and the status turns back to "connecting…" between the two reads.
    def met(d):
        text = status_text(d)
        return text if predicate(text) else False

    return WebDriverWait(driver, timeout).until(met)
