"""A writer SIGKILLed at random instants never leaves an unreadable memory file."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

from companion.memory import WebsiteMemStore

ROOT = Path(__file__).resolve().parents[2]

WRITER = textwrap.dedent("""
    import sys, itertools
    from companion.memory import WebsiteMemStore
    store = WebsiteMemStore("kill.example", sys.argv[1])
    print("ready", flush=True)
    for i in itertools.count():
        store.store_summary(f"hash-{i % 50}", "summary " * (i % 200), None)
        store.mark_explored([f"el-{i}"])
""")

KILLS = 25


def test_database_always_opens_after_sigkill_mid_write(tmp_path):
    rng = random.Random(1234)
    last_explored = 0
    for _ in range(KILLS):
        proc = subprocess.Popen([sys.executable, "-c", WRITER, str(tmp_path)], cwd=ROOT, stdout=subprocess.PIPE,
                                env={**os.environ, "PYTHONPATH": str(ROOT)})
        assert proc.stdout.readline().strip() == b"ready"
        time.sleep(rng.uniform(0.0, 0.15))
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        with WebsiteMemStore("kill.example", tmp_path) as store:
            explored = len(store.explored())
            assert store.stats()["summaries"] <= 50
        assert explored >= last_explored  # writes that completed are never lost
        last_explored = explored
    assert last_explored > 0
    # Evidence that kills landed mid-write: temporary files of interrupted writes were left behind
    # (and ignored by every reader).
    assert list(tmp_path.glob(".*.tmp"))
