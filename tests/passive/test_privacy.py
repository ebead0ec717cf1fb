"""Nothing the user typed leaves the page through passive learning: not in a message to the companion, not in
the memory file (a text field and an editable region, typed into before further clicks and a navigation)."""

from __future__ import annotations

import json

from selenium.webdriver.common.by import By

from companion.bridge.recorder import Recorder
from companion.memory.store import normalize_url, site_key
from tests.support.passive import allow, read_memory, stored_urls, wait_for

TYPED = "zebra-quartz-7316"
DRAFTED = "marmalade-ostrich-4402"
SEARCHED = "velvet-pangolin-5190"


def test_no_typed_value_reaches_the_companion_or_the_memory_file(browser, pages, passive, user_tab, memory_dir, policy_dir,
                                                                  tmp_path):
    allow(pages.base, policy_dir)
    wire = tmp_path / "wire.jsonl"
    browser.hub.recorder = Recorder(wire)
    try:
        notes, home = pages.url("passive/notes.html"), pages.url("passive/home.html")
        user_tab.get(notes)
        wait_for(lambda: stored_urls(memory_dir, notes), "the notes page to be learned")
        field = user_tab.find_element(By.ID, "note")
        field.click()
        field.send_keys(TYPED)
        draft = user_tab.find_element(By.ID, "draft")
        draft.click()
        draft.send_keys(DRAFTED)
        # Reported once settled, with the page as it is then: both fields filled (a click made before the previous
        # one settled supersedes it, so the three clicks may come as one).
        user_tab.find_element(By.ID, "preview").click()
        wait_for(lambda: [r for r in passive.learner.history if "click" in r.reason], "the click to be learned")
        user_tab.find_element(By.LINK_TEXT, "Home").click()
        wait_for(lambda: normalize_url(home) in stored_urls(memory_dir, home), "the next page to be learned")
    finally:
        browser.hub.recorder.close()
        browser.hub.recorder = None
    sent = [json.loads(line)["raw"] for line in wire.read_text().splitlines() if json.loads(line)["dir"] == "in"]
    clicks = [json.loads(raw) for raw in sent if '"type":"user_clicked"' in raw]
    assert any("after" in c for c in clicks)  # the page as it was after the click, fields filled, did go out
    assert not [raw for raw in sent if TYPED in raw or DRAFTED in raw]
    memory = (memory_dir / f"{site_key(notes)}.json").read_bytes()
    assert b"Tasting notes" in memory  # the page itself is there
    assert TYPED.encode() not in memory and DRAFTED.encode() not in memory


def test_a_submitted_forms_query_values_are_not_learned(browser, pages, passive, user_tab, memory_dir, policy_dir, tmp_path):
    allow(pages.base, policy_dir)
    wire = tmp_path / "wire.jsonl"
    browser.hub.recorder = Recorder(wire)
    try:
        notes, results = pages.url("passive/notes.html"), pages.url("passive/catalog.html")
        user_tab.get(notes)
        wait_for(lambda: stored_urls(memory_dir, notes), "the notes page to be learned")
        search = user_tab.find_element(By.NAME, "q")
        search.send_keys(SEARCHED)
        user_tab.find_element(By.XPATH, "//button[text()='Search']").click()
        wait_for(lambda: normalize_url(results + "?q=") in stored_urls(memory_dir, results), "the results page, its query blank")
        wait_for(lambda: read_memory(memory_dir, notes, lambda s: s.links(), []), "the click's link")
    finally:
        browser.hub.recorder.close()
        browser.hub.recorder = None
    assert [link.to_url for link in read_memory(memory_dir, notes, lambda s: s.links(), [])] == [normalize_url(results + "?q=")]
    # Passive learning's messages (tab events, which follow every tab for the agent, are not passive learning's).
    received = [json.loads(line)["raw"] for line in wire.read_text().splitlines()]
    passive_sent = [raw for raw in received if json.loads(raw)["type"] in ("page_visited", "user_clicked")]
    assert passive_sent and not [raw for raw in passive_sent if SEARCHED in raw]
    assert SEARCHED.encode() not in (memory_dir / f"{site_key(notes)}.json").read_bytes()
