"""One commit, one write: the table operations of a committed page go to the site's file as one atomic write.

A TinyDB table operation reads and rewrites the whole file (fsynced, storage.py); a page's commit is dozens
of them (the page, each click's records, the explored keys, the frontier), and a site file of a few MB made
that the larger part of the exploration's time. Inside `one_write(store)` the file's cross-process lock is
held, the file is read once, every operation works on that copy, and the copy is written once at the end;
nothing is written when the block fails, so a commit is all or nothing (a crash leaves the previous commit).
"""

from __future__ import annotations

from contextlib import contextmanager
from typing import Iterator

from companion.memory.storage import AtomicJSONStorage
from companion.memory.store import WebsiteMemStore


@contextmanager
def one_write(store: WebsiteMemStore) -> Iterator[None]:
    storage = store.db.storage
    if not isinstance(storage, AtomicJSONStorage):  # a scratch store in memory: nothing to save
        yield
        return
    with store.locked():
        state = {"data": storage.read(), "dirty": False}

        def read():
            return state["data"]

        def write(data) -> None:
            state["data"], state["dirty"] = data, True

        storage.read, storage.write = read, write  # instance attributes shadow the methods for the block
        try:
            yield
        except BaseException:
            del storage.read, storage.write
            raise
        del storage.read, storage.write
        if state["dirty"]:
            storage.write(state["data"])


__all__ = ["one_write"]
