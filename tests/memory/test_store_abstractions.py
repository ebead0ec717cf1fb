"""WebsiteMemStore.store_abstractions: a whole page's summaries and purposes recorded in one go."""

from __future__ import annotations

from companion.memory.store import WebsiteMemStore


def test_many_summaries_and_purposes_are_stored_and_served_like_single_ones(tmp_path):
    with WebsiteMemStore("batch.example", directory=tmp_path) as store:
        store.store_summary("h0", "old summary", "old state")
        store.store_abstractions(
            [(f"h{i}", f"summary {i}", f"state {i}") for i in range(30)],
            [(f"purpose {i}", f"h{i}", f"template/sig{i % 3}") for i in range(30)],
        )
        assert store.cached_summary("h0") == ("summary 0", "state 0")  # a known key is updated
        assert store.cached_summary("h29") == ("summary 29", "state 29")
        assert store.cached_purpose("h7") == "purpose 7"
        assert store.cached_purpose(None, "template/sig1") == "purpose 28"  # the last purpose given for a scope wins
        assert store.stats()["summaries"] == 30 and store.stats()["purposes"] == 33
    with WebsiteMemStore("batch.example", directory=tmp_path) as again:  # persisted
        assert again.cached_summary("h12") == ("summary 12", "state 12")
