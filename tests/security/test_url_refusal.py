"""The extension opens web pages only, whatever the companion asks (extension/bg/urlguard.js): open_tab and
a navigate action to a file:, data:, javascript:, chrome:, extension, view-source: or relative URL are
refused by the extension itself, in real headless Chromium, and the tab stays where it was. The commands are
sent raw (BrowserSession.request / act): the companion's own URL checks must not be what stops them here, since a
fake or faulty companion would not run them."""

from __future__ import annotations

import pytest

from companion.bridge.errors import RemoteError
from companion.bridge.locations import OPTIONS_URL
from companion.bridge.session import new_id
from companion.protocol import Navigate, OpenTab, OpenTabResult

pytestmark = pytest.mark.browser

NOT_WEB = [
    "file:///etc/hostname",
    "data:text/html,<p id=x>from a data URL</p>",
    "javascript:document.title='owned'",
    "chrome://version/",
    OPTIONS_URL,
    "options.html",  # chrome.tabs would resolve it against the extension's own origin
    "view-source:http://127.0.0.1/",
    "blob:http://127.0.0.1/0b4f7c3e-0000-4000-8000-000000000000",
]


async def open_tab(browser, url: str, active: bool = True):
    return (await browser.session.request(OpenTab(id=new_id(), url=url, active=active), OpenTabResult, 30)).tab


@pytest.mark.parametrize("url", NOT_WEB)
def test_open_tab_to_a_non_web_url_is_refused(browser, open_page, url):
    open_page("basic.html")
    handles = len(browser.driver.window_handles)
    with pytest.raises(RemoteError) as refused:
        browser.run(open_tab(browser, url))
    assert refused.value.code == "refused" and refused.value.remote_message.startswith("refused to open")
    assert len(browser.driver.window_handles) == handles


@pytest.mark.parametrize("url", NOT_WEB)
def test_navigate_to_a_non_web_url_is_refused(browser, open_page, url):
    page = open_page("basic.html")
    result = browser.run(browser.session.act(Navigate(url=url)))
    assert not result.ok and "refused to open" in result.error
    assert browser.driver.current_url == page and result.url_after == page


def test_open_tab_may_still_open_an_empty_tab(browser, open_page):
    open_page("basic.html")
    driver = browser.driver
    page_tab, before = driver.current_window_handle, set(driver.window_handles)
    tab = browser.run(open_tab(browser, "about:blank", active=False))
    try:
        assert tab.url == "about:blank"
    finally:
        for handle in set(driver.window_handles) - before:
            driver.switch_to.window(handle)
            driver.close()
        driver.switch_to.window(page_tab)
