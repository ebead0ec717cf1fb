"""A cross-origin frame cannot speak for another frame: in real headless Chromium with the real extension, an
ad frame that forges copies all the time does not change what the top page's copy button copied, and an ad
frame that forges the extension's frame-id announcement is still in every snapshot under its own id
(extension/bg/clipboard.js reads only the frame the extension acted in; content/frames.js accepts an
announcement only with the one-time key the worker gave)."""

from __future__ import annotations

import time

import pytest

pytestmark = pytest.mark.browser


def _read_copy(browser, tab: int, since: float, expected: str):
    copied = None
    for _ in range(30):  # a page may copy after an await
        copied = browser.run(browser.session.read_clipboard(tab, since=since))
        if copied.text == expected:
            break
        time.sleep(0.1)
    return copied


def _frame_holding(snapshot, iframe_id: str):
    """The iframe element with `iframe_id` in the top frame, and the frame its child_frame names (or None)."""
    top = snapshot.frames[0]
    iframe = next(e for e in top.elements if e.tag == "iframe" and e.attrs.get("id") == iframe_id)
    held = next((f for f in snapshot.frames if f.frame == iframe.child_frame), None)
    return iframe, held


def _wait_for_frames(browser, find, snapshot_needs):
    for _ in range(50):  # the frames load after the top page
        snapshot = browser.run(browser.session.snapshot())
        if snapshot_needs(snapshot):
            return snapshot
        time.sleep(0.1)
    return snapshot


def test_a_forged_copy_in_an_ad_frame_does_not_replace_the_top_pages_copy(browser, open_page, find):
    open_page("sec_clip_host.html", other=True)
    result = browser.run(browser.session.snapshot_result())
    ref, _ = find(result.snapshot, id="copy-code")
    time.sleep(0.5)  # the ad frame forges a copy every 10 ms: let it be recorded in its own frame first
    since = time.time() * 1000
    assert browser.run(browser.session.click(ref, tab=result.tab_id)).ok
    time.sleep(0.5)  # ...and go on forging after the click, so its copies are the newest in the tab
    copied = _read_copy(browser, result.tab_id, since, "REAL-CODE-777")
    assert (copied.text, copied.source) == ("REAL-CODE-777", "write_text")


def test_a_copy_in_the_frame_the_agent_clicked_in_is_read(browser, open_page, find):
    open_page("sec_clip_host.html", other=True)
    snapshot = _wait_for_frames(browser, find, lambda s: any(e.attrs.get("id") == "copy-link" for f in s.frames for e in f.elements))
    ref, _ = find(snapshot, id="copy-link")
    assert ref.frame != 0  # the widget is a cross-origin frame
    since = time.time() * 1000
    assert browser.run(browser.session.click(ref)).ok
    copied = _read_copy(browser, None, since, "https://share.example/w-49")
    assert copied.text == "https://share.example/w-49"


def test_a_frame_that_forges_its_frame_id_is_still_in_every_snapshot_under_its_own_id(browser, open_page, find):
    open_page("sec_frame_host.html", other=True)

    def both_frames_loaded(snapshot) -> bool:
        texts = [e.text for f in snapshot.frames for e in f.elements]
        return "Advertisement frame content" in texts and "Text inside the child frame" in texts

    _wait_for_frames(browser, find, both_frames_loaded)
    for _ in range(5):  # the forger posts every 2 ms: a race it won on any one snapshot would show here
        snapshot = browser.run(browser.session.snapshot())
        ad_iframe, ad_frame = _frame_holding(snapshot, "ad")
        widget_iframe, widget_frame = _frame_holding(snapshot, "widget")
        assert ad_frame is not None, f"the ad frame is missing (its iframe says frame {ad_iframe.child_frame})"
        assert any(e.text == "Advertisement frame content" for e in ad_frame.elements)
        assert widget_frame is not None and any(e.text == "Text inside the child frame" for e in widget_frame.elements)
        assert ad_frame.frame != widget_frame.frame and ad_frame.parent_frame == 0
