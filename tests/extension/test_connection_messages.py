"""What the options page says when pairing cannot happen, in words a person acts on (the shared browser's settings
are put back afterwards by test_options.options_tab)."""

from __future__ import annotations

import http.server
import threading
from functools import partial

import pytest

from tests.support.options_page import enter as _enter, options_tab, wait_status as _wait_status

pytestmark = pytest.mark.browser


def test_a_plain_web_server_on_the_port_is_named_as_another_program(browser, tmp_path):
    """A port held by a web server that is not the companion reads as another program, not an older companion."""
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), partial(http.server.SimpleHTTPRequestHandler,
                                                                       directory=str(tmp_path)))
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    port = httpd.server_address[1]
    try:
        with options_tab(browser) as driver:
            _enter(driver, port, browser.token)
            status = _wait_status(driver, lambda s: f"port {port}" in s and "connecting" not in s)
    finally:
        httpd.shutdown()
        httpd.server_close()
    assert status == (f"port {port} is used by another program, not the WebChallenger companion: stop it, or start "
                      "the companion on another port (webchallenger serve --port N) and enter that port here")


def test_no_token_and_no_native_host_says_how_to_pair(browser):
    """With no token and no native host installed, the status says to enter the token or run install-browser, not
    Chrome's "Specified native messaging host not found."."""
    with options_tab(browser) as driver:
        _enter(driver, browser.companion.port, "")
        status = _wait_status(driver, lambda s: s.startswith("not paired"))
    assert "install-browser` is run once and the browser restarted" in status
    assert "Specified native messaging host" not in status
