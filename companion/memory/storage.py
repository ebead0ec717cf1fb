"""A TinyDB storage that a crash at any instant cannot corrupt.

TinyDB's JSONStorage truncates and rewrites the file in place, so a kill mid-write leaves half a file.
Here every write goes to a temporary file in the same directory, is fsynced, atomically renamed over
the database (os.replace), and the directory is fsynced so the rename itself survives a power cut.
A reader therefore sees either the old file or the new one, never a mix.

An unreadable file is never overwritten: it is copied to `<name>.corrupt-<timestamp>` and
MemoryFileError says where the copy is.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
import time
from pathlib import Path
from typing import Any

from tinydb.storages import Storage


class MemoryFileError(Exception):
    """The memory file exists but cannot be read as a WebChallenger memory database."""

    def __init__(self, path: Path, reason: str, backup: Path | None) -> None:
        self.path = path
        self.reason = reason
        self.backup = backup
        kept = f"; a copy was kept at {backup}" if backup else ""
        super().__init__(f"memory file {path} is unreadable ({reason}){kept}. "
                         f"Remove it with `webchallenger memory rm` to start this site afresh.")


def backup_copy(path: Path) -> Path | None:
    stamp = time.strftime("%Y%m%dT%H%M%S", time.gmtime())
    backup = path.with_name(f"{path.name}.corrupt-{stamp}")
    n = 1
    while backup.exists():
        n += 1
        backup = path.with_name(f"{path.name}.corrupt-{stamp}-{n}")
    try:
        shutil.copy2(path, backup)
    except OSError:
        return None
    return backup


class AtomicJSONStorage(Storage):
    def __init__(self, path: str | os.PathLike, **_: Any) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)

    def read(self) -> dict[str, dict[str, Any]] | None:
        try:
            raw = self.path.read_bytes()
        except FileNotFoundError:
            return None
        if not raw.strip():
            # An empty file is what a crash between create and first write of *another* storage leaves;
            # ours never produces one, but treat it as corrupt rather than silently as empty.
            raise MemoryFileError(self.path, "the file is empty", backup_copy(self.path))
        try:
            data = json.loads(raw)
        except (json.JSONDecodeError, UnicodeDecodeError) as e:
            raise MemoryFileError(self.path, f"not valid JSON: {e}", backup_copy(self.path)) from None
        if not isinstance(data, dict) or not all(isinstance(v, dict) for v in data.values()):
            raise MemoryFileError(self.path, "not a TinyDB database (expected an object of tables)", backup_copy(self.path))
        return data

    def write(self, data: dict[str, dict[str, Any]]) -> None:
        payload = json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
        fd, tmp = tempfile.mkstemp(prefix=f".{self.path.name}.", suffix=".tmp", dir=self.path.parent)
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(payload)
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, self.path)
        except BaseException:
            try:
                os.unlink(tmp)
            except OSError:
                pass
            raise
        _fsync_dir(self.path.parent)

    def close(self) -> None:
        pass


def _fsync_dir(directory: Path) -> None:
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def sweep_temp_files(directory: Path, older_than_s: float = 60.0) -> None:
    """Remove temporary files a killed writer left behind (never the database itself)."""
    now = time.time()
    for p in directory.glob(".*.tmp"):
        try:
            if now - p.stat().st_mtime > older_than_s:
                p.unlink()
        except OSError:
            pass
