"""Commits go to the site's file together: one atomic, fsynced write per few seconds of exploration.

A TinyDB table operation reads and rewrites the whole file (storage.py); a page's commit is dozens of them
(the page, each click's records, the explored keys, the frontier), and rewriting a site file of several MB
once per page was still a large part of the exploration's time. So the commits of a window of FLUSH_S
seconds (at most FLUSH_COMMITS of them) go to one copy of the file (storage.AtomicJSONStorage.begin_batch: the
file's lock is held for the window), written once when it closes.

What this keeps:
- a commit is all or nothing: its records and the frontier are in the same write, so the file always holds
  whole commits, and a commit that fails halfway spoils the window, which is then not written at all;
- Ctrl-C (a cancellation) and every other way out of the exploration close the window, so nothing committed
  is lost; a crash (kill -9, power cut) loses at most the last window, and the next run explores those pages
  again from the frontier the file holds: the memory it ends with is the same;
- another process waits at most one window for the lock (storage.LOCK_TIMEOUT_S is far longer).
"""

from __future__ import annotations

import time
from contextlib import contextmanager, nullcontext
from typing import Iterator

from companion.memory.storage import AtomicJSONStorage
from companion.memory.store import WebsiteMemStore

# Seconds of commits written together: a page or two on an idle machine, most of a commit's write saved on
# a loaded one, and little to explore again after a crash.
FLUSH_S = 3.0
# And at most this many commits: on a small, fast site a few seconds hold many pages, all of which a crash
# would lose, and the file would show none of them (to `memory show` or another process) until the end.
FLUSH_COMMITS = 3


class CommitWindow:
    """The open window of one site's exploration (see the module docstring)."""

    def __init__(self, store: WebsiteMemStore, flush_s: float = FLUSH_S, flush_commits: int = FLUSH_COMMITS) -> None:
        storage = store.db.storage
        self.storage = storage if isinstance(storage, AtomicJSONStorage) else None  # a scratch store: nothing to write
        self.flush_s = flush_s
        self.flush_commits = flush_commits
        self.opened: float | None = None
        self.commits = 0  # in the open window
        self.writes = 0

    @contextmanager
    def commit(self) -> Iterator[None]:
        """One commit: its table operations join the window (opened if none is); a failure spoils it."""
        if self.storage is None:
            yield
            return
        if not self.storage.in_batch:
            self.storage.begin_batch()
            self.opened = time.monotonic()
            self.commits = 0
        with self.storage.batched():
            yield
        self.commits += 1
        if time.monotonic() - self.opened >= self.flush_s or self.commits >= self.flush_commits:
            self.close()

    def close(self) -> None:
        """Write the window (unless spoiled) and release the lock."""
        if self.storage is not None and self.storage.in_batch:
            self.opened = None
            if self.storage.end_batch():
                self.writes += 1


@contextmanager
def one_write(store: WebsiteMemStore) -> Iterator[None]:
    """A block of table operations written as one (nothing when it fails)."""
    storage = store.db.storage
    with storage.batched() if isinstance(storage, AtomicJSONStorage) else nullcontext():
        yield


__all__ = ["FLUSH_S", "CommitWindow", "one_write"]
