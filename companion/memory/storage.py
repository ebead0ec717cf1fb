"""A TinyDB storage that neither a crash nor a second process can corrupt, and that refuses damaged files.

Crashes: TinyDB's JSONStorage truncates and rewrites the file in place, so a kill mid-write leaves half a
file. Here every write goes to a temporary file in the same directory, is fsynced, atomically renamed over
the database (os.replace), and the directory is fsynced so the rename itself survives a power cut. A reader
therefore sees either the old file or the new one, never a mix, and needs no lock.

Concurrency: `serve` and `run` may write one site's file at once. Each TinyDB write is a read-modify-write
of the whole file, and a Table keeps per-process state (the next document id, a query cache), so two
processes overwrite each other's updates and reuse ids ("Document with ID 9 already exists"). LockedTable
runs every modifying operation under a cross-process lock on `.<file>.lock` (filelock: flock on Unix,
released by the kernel when a holder dies, so no stale locks) and drops that state first, so it works on
the file as it is now. The lock is reentrant: a store method made of several table operations holds it
around all of them (WebsiteMemStore.locked()).

Damage: a file that is not a WebChallenger memory database (integrity.py lists the shapes) is never
overwritten: it is copied to `<name>.corrupt-<timestamp>` where it can be, and MemoryFileError says where
the file and its copy are.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

from filelock import FileLock, Timeout
from tinydb import TinyDB
from tinydb.storages import Storage
from tinydb.table import Table

from companion.memory.integrity import model_problem, shape_problem

# Generous: a holder is another process's single file write (milliseconds), but a loaded 2-core machine
# with an fsync queue can stall it for seconds. A holder that dies releases the lock at once.
LOCK_TIMEOUT_S = 120.0
FILE_MODE = 0o600


class MemoryFileError(Exception):
    """The file exists but cannot be read as what it should be. It is left exactly as it was."""

    def __init__(self, path: Path, reason: str, backup: Path | None, remedy: str | None = None) -> None:
        self.path = path
        self.reason = reason
        self.backup = backup
        kept = f"; a copy was kept at {backup}" if backup else f"; it was left as it was at {path}"
        if remedy is None:
            remedy = ("Move it away to start this site afresh (it is not a file this program wrote)." if path.is_dir()
                      else f"Remove it with `webchallenger memory rm {path.stem}` to start this site afresh.")
        super().__init__(f"memory file {path} is unreadable ({reason}){kept}. {remedy}")

    @property
    def kept(self) -> Path:
        """Where the damaged content can be inspected: the copy, or the untouched original when no copy
        could be made (a directory, a file this user may not read)."""
        return self.backup or self.path


class MemoryBusyError(Exception):
    """Another process held a memory file's lock for longer than LOCK_TIMEOUT_S."""


def lock_path(path: Path) -> Path:
    return path.with_name(f".{path.name}.lock")


def file_lock(path: Path) -> FileLock:
    """The cross-process lock guarding read-modify-writes of `path` (its lock file is created 0600)."""
    return FileLock(lock_path(path), mode=FILE_MODE, timeout=LOCK_TIMEOUT_S)


@contextmanager
def holding(lock: FileLock, path: Path) -> Iterator[None]:
    try:
        lock.acquire()
    except Timeout:
        raise MemoryBusyError(f"{path} stayed locked by another webchallenger process for {LOCK_TIMEOUT_S:.0f}s "
                              f"(lock file {lock.lock_file})") from None
    try:
        yield
    finally:
        lock.release()


def backup_copy(path: Path, raw: bytes | None = None) -> Path | None:
    """Copy a damaged file beside itself (0600), once per distinct content: a file opened by every task
    and every `memory ls` gets one copy, not one per open. None when it cannot be copied."""
    try:
        if raw is None:
            raw = path.read_bytes()
    except OSError:
        return None
    for existing in sorted(path.parent.glob(f"{path.name}.corrupt-*")):
        try:
            if existing.stat().st_size == len(raw) and existing.read_bytes() == raw:
                return existing
        except OSError:
            continue
    stamp = time.strftime("%Y%m%dT%H%M%S", time.gmtime())
    backup = path.with_name(f"{path.name}.corrupt-{stamp}")
    n = 1
    while backup.exists():
        n += 1
        backup = path.with_name(f"{path.name}.corrupt-{stamp}-{n}")
    try:
        fd = os.open(backup, os.O_WRONLY | os.O_CREAT | os.O_EXCL, FILE_MODE)
        with os.fdopen(fd, "wb") as f:
            f.write(raw)
        shutil.copystat(path, backup)  # keep the damaged file's times, for the user's inspection
        os.chmod(backup, FILE_MODE)
    except OSError:
        return None
    return backup


def write_atomic(path: Path, payload: bytes) -> None:
    """Replace `path` by `payload` so that a crash leaves the old file or the new one (created 0600)."""
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(payload)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    _fsync_dir(path.parent)


def read_json_object(path: Path, damaged) -> Any | None:
    """The JSON in `path`, None when there is no file; `damaged(reason, raw)` makes the error for every
    other failure (it is raised)."""
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return None
    except IsADirectoryError:
        raise damaged("it is a directory, not a file", None) from None
    except PermissionError:
        raise damaged("this user may not read it", None) from None
    except OSError as e:
        raise damaged(f"it cannot be read: {e.strerror or e}", None) from None
    if not raw.strip():
        # Our writes never leave an empty file (a crash leaves the old one): something else truncated it.
        raise damaged("the file is empty", raw)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise damaged(f"not UTF-8 text: {e}", raw) from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise damaged(f"not valid JSON: {e}", raw) from None
    except RecursionError:
        raise damaged("not valid JSON: nested too deeply", raw) from None


class AtomicJSONStorage(Storage):
    def __init__(self, path: str | os.PathLike, **_: Any) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.lock = file_lock(self.path)
        self._models_checked = False

    def _damaged(self, reason: str, raw: bytes | None) -> MemoryFileError:
        return MemoryFileError(self.path, reason, backup_copy(self.path, raw))

    def read(self) -> dict[str, dict[str, Any]] | None:
        data = read_json_object(self.path, self._damaged)
        if data is None:
            return None
        problem = shape_problem(data)
        if problem is None and not self._models_checked:
            # Once per open: what this process writes goes through the models anyway.
            problem = model_problem(data)
            self._models_checked = problem is None
        if problem is not None:
            raise self._damaged(problem, None)
        return data

    def write(self, data: dict[str, dict[str, Any]]) -> None:
        write_atomic(self.path, json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode("utf-8"))

    @contextmanager
    def locked(self) -> Iterator[None]:
        with holding(self.lock, self.path):
            yield

    def close(self) -> None:
        pass


class LockedTable(Table):
    """A Table whose modifying operations hold the file's cross-process lock and start from the file as it
    is now (no next id or query results remembered from before another process wrote)."""

    def __init__(self, storage: Storage, name: str, cache_size: int = 0, persist_empty: bool = False) -> None:
        # No query cache at all: a cached result can be stale as soon as another process writes.
        super().__init__(storage, name, cache_size=0, persist_empty=persist_empty)

    @contextmanager
    def _fresh(self) -> Iterator[None]:
        with self.storage.locked():
            self._next_id = None
            self.clear_cache()
            yield

    def insert(self, *a, **kw):
        with self._fresh():
            return super().insert(*a, **kw)

    def insert_multiple(self, *a, **kw):
        with self._fresh():
            return super().insert_multiple(*a, **kw)

    def update(self, *a, **kw):
        with self._fresh():
            return super().update(*a, **kw)

    def update_multiple(self, *a, **kw):
        with self._fresh():
            return super().update_multiple(*a, **kw)

    def upsert(self, *a, **kw):
        with self._fresh():
            return super().upsert(*a, **kw)

    def remove(self, *a, **kw):
        with self._fresh():
            return super().remove(*a, **kw)

    def truncate(self) -> None:
        with self._fresh():
            super().truncate()


class LockedTinyDB(TinyDB):
    """TinyDB over AtomicJSONStorage with LockedTable tables."""

    table_class = LockedTable


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
