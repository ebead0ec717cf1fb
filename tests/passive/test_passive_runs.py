"""Passive snapshots carry a sentence's inline words in place (run_text), but nothing of an editable region, even
when the words the user wrote there are bold (extension/content/snapshot.js)."""

from __future__ import annotations

import json

from companion.bridge.recorder import Recorder
from tests.support.passive import allow, stored_urls, wait_for

WRITTEN = "quokka-saffron-2817"


def test_a_passive_snapshot_has_sentences_but_no_editable_text(browser, pages, passive, user_tab, memory_dir, policy_dir,
                                                               tmp_path):
    allow(pages.base, policy_dir)
    wire = tmp_path / "wire.jsonl"
    browser.hub.recorder = Recorder(wire)
    try:
        letter = pages.url("passive/letter.html")
        user_tab.get(letter)
        wait_for(lambda: stored_urls(memory_dir, letter), "the letter page to be learned")
    finally:
        browser.hub.recorder.close()
        browser.hub.recorder = None
    received = [json.loads(line)["raw"] for line in wire.read_text().splitlines() if json.loads(line)["dir"] == "in"]
    visited = [raw for raw in received if json.loads(raw)["type"] == "page_visited"]
    assert visited and all('"run_text":"Letters reach Margot Finch within a day."' in raw for raw in visited)
    assert not [raw for raw in received if WRITTEN in raw or "Dear" in raw]
    assert WRITTEN.encode() not in b"".join(p.read_bytes() for p in memory_dir.iterdir())
