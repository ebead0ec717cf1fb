"""Session recording: every message in both directions, appended to a JSONL file.

One line per message: {"ts": unix time, "dir": "in"|"out", "session": id, "raw": exact text}.
"in" is extension -> companion. The raw text is kept verbatim (also for malformed messages)
so a recording can be replayed or inspected byte for byte. Password values never reach it:
snapshots do not carry them, and text typed into a password field is written redacted
(see BrowserSession.act).
"""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path
from typing import Iterator, Literal

from pydantic import BaseModel

Direction = Literal["in", "out"]


class RecordedMessage(BaseModel):
    ts: float
    dir: Direction
    session: str
    raw: str


class Recorder:
    def __init__(self, path: str | Path):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        # Line-buffered append: a crash loses at most the line being written.
        self._file = open(self.path, "a", encoding="utf-8", buffering=1)

    def record(self, direction: Direction, raw: str, session: str) -> None:
        line = json.dumps({"ts": time.time(), "dir": direction, "session": session, "raw": raw}, ensure_ascii=False)
        with self._lock:
            if not self._file.closed:
                self._file.write(line + "\n")

    def close(self) -> None:
        with self._lock:
            self._file.close()


def read_recording(path: str | Path) -> Iterator[RecordedMessage]:
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.strip():
                yield RecordedMessage.model_validate_json(line)
