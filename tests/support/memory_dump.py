"""A canonical dump of a site's memory file: every table as a sorted list of its documents, without TinyDB's
document ids (which say in what order rows were inserted, not what was learned). Two explorations learned
the same when their dumps are equal; `memory_digest(...)` is what the exploration determinism tests compare
(test code: no command of the product uses it).

Left out: the exploration's `reruns` counter (how often a worker had to explore a page again because it
had worked ahead with an older memory: a cost of parallelism, not something learned).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

VOLATILE_COUNTS = ("reruns",)


def memory_digest(path: Path) -> dict[str, list[dict]]:
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    out: dict[str, list[dict]] = {}
    for table in sorted(data):
        docs = [dict(doc) for doc in data[table].values()]
        if table == "exploration":
            for doc in docs:
                for name in VOLATILE_COUNTS:
                    doc.get("counts", {}).pop(name, None)
        out[table] = sorted(docs, key=lambda d: json.dumps(d, sort_keys=True, ensure_ascii=False))
    return out


def digest_hash(path: Path) -> str:
    return hashlib.sha256(json.dumps(memory_digest(path), sort_keys=True, ensure_ascii=False).encode()).hexdigest()


def differences(a: dict[str, list[dict]], b: dict[str, list[dict]], limit: int = 10) -> list[str]:
    """Human-readable differences between two digests (for test failures)."""
    out: list[str] = []
    for table in sorted(set(a) | set(b)):
        left = {json.dumps(d, sort_keys=True) for d in a.get(table, [])}
        right = {json.dumps(d, sort_keys=True) for d in b.get(table, [])}
        for d in sorted(left - right)[:limit]:
            out.append(f"{table}: only in the first: {d[:400]}")
        for d in sorted(right - left)[:limit]:
            out.append(f"{table}: only in the second: {d[:400]}")
    return out


__all__ = ["differences", "digest_hash", "memory_digest"]
