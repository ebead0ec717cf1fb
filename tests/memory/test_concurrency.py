"""Two processes writing one site's memory at once (`serve` and `run` on the same site) lose no update.

Before the cross-process lock, 300 writes from each of two processes kept 294 of 600 summaries and raised
`ValueError: Document with ID n already exists` 24 times (TinyDB's next id and the whole-file rewrite are
per process)."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

from companion.memory import WebsiteMemStore

ROOT = Path(__file__).resolve().parents[2]
WRITES = 300

WRITER = textwrap.dedent("""
    import sys, time
    from pathlib import Path
    from companion.memory import WebsiteMemStore
    directory, name, go = sys.argv[1], sys.argv[2], Path(sys.argv[3])
    store = WebsiteMemStore("race.example", directory)  # both processes may create the file
    print("ready", flush=True)
    while not go.exists():
        time.sleep(0.001)
    for i in range(int(sys.argv[4])):
        if i % 2:
            # read-modify-write in one store call: its own key and a key the other process writes too
            store.mark_explored([f"{name}-{i}", f"shared-{i}"])
        else:
            store.store_summary(f"{name}-{i}", f"summary {i} by {name}", None)
    store.close()
""")


def start_writer(directory: Path, name: str, go: Path) -> subprocess.Popen:
    proc = subprocess.Popen([sys.executable, "-c", WRITER, str(directory), name, str(go), str(WRITES)], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert proc.stdout.readline().strip() == b"ready"
    return proc


def test_two_writer_processes_lose_no_update_and_raise_nothing(tmp_path):
    go = tmp_path / "go"
    writers = [start_writer(tmp_path, name, go) for name in ("a", "b")]
    go.touch()
    results = [w.communicate(timeout=600) for w in writers]
    assert [w.returncode for w in writers] == [0, 0], [err.decode()[-2000:] for _, err in results]
    assert all(err == b"" for _, err in results)

    with WebsiteMemStore("race.example", tmp_path) as store:
        summaries = {d["hash"] for d in store.db.table("summaries").all()}
        explored_rows = [d["key"] for d in store.db.table("explored").all()]
        meta_rows = store.db.table("meta").all()
    evens, odds = range(0, WRITES, 2), range(1, WRITES, 2)
    assert summaries == {f"{n}-{i}" for n in "ab" for i in evens}
    assert set(explored_rows) == {f"{n}-{i}" for n in "ab" for i in odds} | {f"shared-{i}" for i in odds}
    assert len(explored_rows) == len(set(explored_rows))  # a key both wrote is stored once
    assert len(meta_rows) == 1


def test_lock_and_memory_files_are_private_whatever_the_umask(tmp_path):
    old = os.umask(0)
    try:
        with WebsiteMemStore("private.example", tmp_path) as store:
            store.store_summary("h", "s")
    finally:
        os.umask(old)
    lock = tmp_path / ".private.example.json.lock"
    assert lock.exists()
    assert stat.S_IMODE(lock.stat().st_mode) == 0o600
    assert stat.S_IMODE((tmp_path / "private.example.json").stat().st_mode) == 0o600


def test_a_write_waits_for_another_process_holding_the_lock(tmp_path):
    """The lock is really cross-process: a write started while another process holds the lock lands after
    that process's write, and both are kept."""
    holder = textwrap.dedent("""
        import sys, time
        from companion.memory import WebsiteMemStore
        with WebsiteMemStore("held.example", sys.argv[1]) as store:
            with store.locked():
                print("holding", flush=True)
                sys.stdin.readline()  # hold until told
                store.store_summary("by-holder", "first")
    """)
    WebsiteMemStore("held.example", tmp_path).close()
    proc = subprocess.Popen([sys.executable, "-c", holder, str(tmp_path)], cwd=ROOT, stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, env={**os.environ, "PYTHONPATH": str(ROOT)})
    try:
        assert proc.stdout.readline().strip() == b"holding"
        done = threading.Event()

        def write() -> None:
            with WebsiteMemStore("held.example", tmp_path) as store:
                store.store_summary("by-test", "second")
            done.set()

        t = threading.Thread(target=write)
        t.start()
        time.sleep(0.5)
        assert not done.is_set()  # blocked on the other process's lock
        proc.stdin.write(b"go\n")
        proc.stdin.flush()
        t.join(timeout=120)
        assert done.is_set()
    finally:
        proc.communicate(timeout=120)
    with WebsiteMemStore("held.example", tmp_path) as store:
        assert store.cached_summary("by-holder") == ("first", None)
        assert store.cached_summary("by-test") == ("second", None)
