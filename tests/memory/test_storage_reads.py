"""The site file is parsed again only when it changed, batches write once, and a failure writes nothing."""

from __future__ import annotations

import json

import pytest

from companion.explore.batch import CommitWindow
from companion.memory import WebsiteMemStore
from companion.memory.storage import MemoryBusyError, file_lock, holding

SITE = "reads.example"


def on_disk(store: WebsiteMemStore) -> set[str]:
    """The explored keys the file holds, read as another program would."""
    return {d["key"] for d in json.loads(store.path.read_text()).get("explored", {}).values()}


def test_reading_an_unchanged_file_does_not_parse_it_again(tmp_path):
    with WebsiteMemStore(SITE, tmp_path) as store:
        store.mark_explored(["a", "b"])
        parsed = store.db.storage.reads
        for _ in range(5):
            assert store.explored() == {"a", "b"}
        assert store.db.storage.reads == parsed


def test_a_file_another_process_wrote_is_read_again(tmp_path):
    with WebsiteMemStore(SITE, tmp_path) as mine, WebsiteMemStore(SITE, tmp_path) as theirs:
        mine.mark_explored(["a"])
        assert theirs.explored() == {"a"}
        theirs.mark_explored(["b"])  # another storage: as another process writes the file
        assert mine.explored() == {"a", "b"}


def test_a_batch_is_one_write_of_all_its_operations(tmp_path):
    with WebsiteMemStore(SITE, tmp_path) as store:
        storage = store.db.storage
        written = storage.writes
        with storage.batched():
            store.mark_explored(["a"])
            store.store_summary("h1", "one")
            store.mark_explored(["b"])
            assert on_disk(store) == set()  # not written yet
        assert storage.writes == written + 1
        assert on_disk(store) == {"a", "b"}


def test_a_batch_that_fails_writes_nothing_and_forgets_its_changes(tmp_path):
    with WebsiteMemStore(SITE, tmp_path) as store:
        store.mark_explored(["a"])
        on_disk = store.path.read_bytes()
        with pytest.raises(RuntimeError):
            with store.db.storage.batched():
                store.mark_explored(["b"])
                raise RuntimeError("halfway")
        assert store.path.read_bytes() == on_disk
        assert store.explored() == {"a"}


def test_a_table_operation_that_fails_halfway_leaves_no_change_behind(tmp_path):
    with WebsiteMemStore(SITE, tmp_path) as store:
        store.db.table("t").insert_multiple([{"n": 1}, {"n": 2}])

        def change(doc):
            doc["n"] += 10
            if doc["n"] > 11:
                raise ValueError("the second document")

        with pytest.raises(ValueError):
            store.db.table("t").update(change)
        assert sorted(d["n"] for d in store.db.table("t").all()) == [1, 2]


def test_a_commit_window_holds_the_lock_and_writes_its_commits_once_when_closed(tmp_path):
    with WebsiteMemStore(SITE, tmp_path) as store:
        window = CommitWindow(store, flush_s=3600, flush_commits=100)
        written = store.db.storage.writes
        for key in ("a", "b", "c"):
            with window.commit():
                store.mark_explored([key])
        assert store.db.storage.writes == written
        assert on_disk(store) == set()
        other = file_lock(store.path)  # another process's lock on the file
        other.timeout = 0.2
        with pytest.raises(MemoryBusyError):
            with holding(other, store.path):
                pass
        window.close()
        assert store.db.storage.writes == written + 1
        with WebsiteMemStore(SITE, tmp_path) as reread:
            assert reread.explored() == {"a", "b", "c"}


def test_a_commit_window_is_written_after_its_last_allowed_commit(tmp_path):
    """A fast site's pages reach the file a few at a time, not all at the end."""
    with WebsiteMemStore(SITE, tmp_path) as store:
        window = CommitWindow(store, flush_s=3600, flush_commits=2)
        written = store.db.storage.writes
        for key in ("a", "b", "c"):
            with window.commit():
                store.mark_explored([key])
        assert store.db.storage.writes == written + 1
        assert on_disk(store) == {"a", "b"}
        window.close()
        assert on_disk(store) == {"a", "b", "c"}


def test_a_commit_that_fails_spoils_its_window_and_the_file_keeps_the_last_written_one(tmp_path):
    with WebsiteMemStore(SITE, tmp_path) as store:
        window = CommitWindow(store, flush_s=3600)
        with window.commit():
            store.mark_explored(["a"])
        window.close()
        with window.commit():
            store.mark_explored(["b"])
        with pytest.raises(RuntimeError):
            with window.commit():
                store.mark_explored(["c"])
                raise RuntimeError("halfway through a commit")
        window.close()
        with WebsiteMemStore(SITE, tmp_path) as reread:
            assert reread.explored() == {"a"}
        assert store.explored() == {"a"}
