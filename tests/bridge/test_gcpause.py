"""The garbage-collector pause around big parses always restores the collector's previous state."""

import gc
import json

from companion.gcpause import gc_paused
from companion.bridge.server import classify


def test_pause_nests_and_restores():
    assert gc.isenabled()
    with gc_paused():
        assert not gc.isenabled()
        with gc_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()  # the outer pause is still on
    assert gc.isenabled()


def test_pause_leaves_a_disabled_collector_disabled():
    gc.disable()
    try:
        with gc_paused():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_big_message_parse_restores_the_collector_even_when_invalid():
    elements = [{"id": i, "tag": "p", "text": "x" * 20} for i in range(5000)]
    good = json.dumps({"type": "snapshot_result", "id": "r", "tab_id": 1, "snapshot": {
        "url": "u", "title": "t", "viewport": {"width": 1, "height": 1}, "scroll": {},
        "frames": [{"frame": 0, "url": "u", "elements": elements}]}})
    assert len(classify(good).snapshot.frames[0].elements) == 5000
    assert gc.isenabled()
    try:
        classify(good.replace('"tag": "p"', '"tag": 5', 1))
    except Exception:
        pass
    assert gc.isenabled()
