"""Session recording: every message in both directions, appended to a JSONL file.

One line per message: {"ts": unix time, "dir": "in"|"out", "session": id, "raw": exact text}.
"in" is extension -> companion. The raw text is kept verbatim (also for malformed messages)
so a recording can be replayed or inspected byte for byte, with two exceptions that keep secrets
out of it (typed_secrets.redact): text the agent typed into a secret field is masked wherever and however
spelled it appears, also in lines written before, and URLs lose their secret-looking query values.
Secret field values never reach it: snapshots do not carry them, and a typed command to a secret field
is written redacted (BrowserSession.act). The file is 0600 (paths.private_file).
"""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path
from typing import Iterator, Literal

from pydantic import BaseModel

from companion import paths, typed_secrets

Direction = Literal["in", "out"]


class RecordedMessage(BaseModel):
    ts: float
    dir: Direction
    session: str
    raw: str


class Recorder:
    def __init__(self, path: str | Path):
        self.path = Path(path)
        self._lock = threading.Lock()
        # Line-buffered append: a crash loses at most the line being written.
        self._file = paths.private_file(self.path, "a", buffering=1)
        typed_secrets.register(self)

    @staticmethod
    def _clean(raw: str) -> str:
        return typed_secrets.redact(raw)

    def record(self, direction: Direction, raw: str, session: str) -> None:
        line = json.dumps({"ts": time.time(), "dir": direction, "session": session, "raw": self._clean(raw)},
                          ensure_ascii=False)
        with self._lock:
            if not self._file.closed:
                self._file.write(line + "\n")

    def mask_existing(self) -> None:
        """A secret was just typed: mask it in the lines already written too."""
        def clean(line: str) -> str:
            if not line.strip():
                return line
            record = json.loads(line)
            record["raw"] = typed_secrets.mask(record.get("raw", ""))
            return json.dumps(record, ensure_ascii=False)

        with self._lock:
            if self._file.closed:
                return
            self._file.close()
            try:
                typed_secrets.rewrite_lines(self.path, clean)
            finally:
                self._file = paths.private_file(self.path, "a", buffering=1)

    def close(self) -> None:
        with self._lock:
            self._file.close()


def read_recording(path: str | Path) -> Iterator[RecordedMessage]:
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.strip():
                yield RecordedMessage.model_validate_json(line)
