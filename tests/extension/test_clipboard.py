"""read_clipboard: the text a copy control copied, learned by the extension from inside the page
(content/clipboard.js, bg/clipboard.js). Each fixture button copies a text that is in no field, so reading it
back proves it was read. The extension's clicks carry no user gesture, so Chromium refuses the page's copy
(reached_clipboard False) and the text is what the page tried to copy; a real gesture reaches the clipboard."""

import time

import pytest

pytestmark = pytest.mark.browser


def _copy(browser, find, button_id: str):
    session = browser.session
    result = browser.run(session.snapshot_result())
    ref, _ = find(result.snapshot, id=button_id)
    since = time.time() * 1000
    assert browser.run(session.click(ref, tab=result.tab_id)).ok
    for _ in range(20):  # a page may copy after an await
        copied = browser.run(session.read_clipboard(result.tab_id, since=since))
        if copied.text is not None:
            return copied
        time.sleep(0.1)
    return copied


def test_a_navigator_clipboard_write_is_read(browser, open_page, find):
    open_page("clipboard.html")
    copied = _copy(browser, find, "write")
    status = browser.driver.find_element("id", "status").text
    assert (copied.text, copied.source) == ("https://invite.example/k7Q2-42", "write_text"), status
    assert copied.reached_clipboard is False and status.startswith("write failed")  # no user gesture


def test_an_exec_command_copy_with_set_data_is_read(browser, open_page, find):
    open_page("clipboard.html")
    copied = _copy(browser, find, "exec")
    assert (copied.text, copied.source, copied.reached_clipboard) == ("ORDER-5528", "copy_event", False)


def test_a_copied_selection_is_read(browser, open_page, find):
    open_page("clipboard.html")
    assert _copy(browser, find, "select").text == "selected note text"


def test_a_copied_password_is_never_handed_out(browser, open_page, find):
    open_page("clipboard.html")
    copied = _copy(browser, find, "copy-pw")
    assert copied.text is None and copied.source == "none"
    assert browser.driver.find_element("id", "status").text.startswith("pw")  # the page did copy it: withheld


def test_nothing_copied_reads_as_none(browser, open_page):
    open_page("clipboard.html")
    session = browser.session
    copied = browser.run(session.read_clipboard(since=time.time() * 1000))
    assert copied.text is None and copied.source == "none"


def test_a_copy_with_a_user_gesture_reaches_the_clipboard(browser, open_page):
    open_page("clipboard.html")
    session = browser.session
    browser.run(session.snapshot())  # the extension's scripts are in the page from the first snapshot on
    since = time.time() * 1000
    browser.driver.find_element("id", "exec").click()  # WebDriver input is trusted: a real gesture
    copied = browser.run(session.read_clipboard(since=since))
    assert (copied.text, copied.reached_clipboard) == ("ORDER-5528", True)


async def test_copy_to_clipboard_logs_the_text_the_page_copied(browser, open_page, tmp_path):
    from companion.act.basic import copy_to_clipboard
    from companion.act.context import AgentContext

    open_page("clipboard.html")
    ctx = AgentContext(session=browser.session, task="Copy the invite link", files_dir=tmp_path)
    await ctx.refresh()
    button = next(e for e in ctx.pagemem.all_elements() if e.tag == "button" and "invite" in e.text)
    text, _ = await copy_to_clipboard(ctx, button)
    assert text == 'Copied "https://invite.example/k7Q2-42" to the clipboard with button "Copy invite link"'
