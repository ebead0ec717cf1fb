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

Reads: parsing a site file of several MB on every table operation made that parse the larger part of an
exploration's time. The storage keeps what it last read or wrote, with the file's identity (inode, size,
mtime): a read while the file is unchanged returns that, a read after another process replaced it parses
the file again. Every write goes through os.replace, so a changed file always has a new identity. What is
kept is dropped whenever a write fails (or a batch is abandoned: discard()), so it never holds changes the
file does not. Callers treat what they read as read-only (TinyDB hands out shallow copies of documents).

Batches: `batched()` holds the lock and lets many table operations (one committed exploration page, or
several) go to the file as one atomic write at the end; a batch that fails writes nothing.

Secrets: every write masks the secrets the agent typed (typed_secrets.mask, in any spelling) in every string
of the file, whichever table or row holds it.

Damage: a file that is not a WebChallenger memory database (integrity.py lists the shapes) is never
overwritten: it is copied to `<name>.corrupt-<timestamp>` where it can be, and MemoryFileError says where
the file and its copy are. Only a regular file of at most MAX_FILE_BYTES is ever read (read_regular_file):
a symbolic link is not followed (one to /dev/zero never ends), a FIFO is not waited on, and every value
must be one this program could have written (finite numbers, integers within 64 bits).
"""

from __future__ import annotations

import errno
import json
import math
import os
import shutil
import stat
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

from filelock import FileLock, Timeout
from tinydb import TinyDB
from tinydb.storages import Storage
from tinydb.table import Table

from companion import typed_secrets
from companion.memory.integrity import model_problem, shape_problem

# Generous: a holder is another process's single file write (milliseconds), but a loaded 2-core machine
# with an fsync queue can stall it for seconds. A holder that dies releases the lock at once.
LOCK_TIMEOUT_S = 120.0
FILE_MODE = 0o600
# A site file of an explored site is a few MB; one this large was not written by this program, and parsing it
# would take the process several times its size in memory.
MAX_FILE_BYTES = 64 * 1024 * 1024
# Every integer this program stores (counts, indexes, coordinates, times) fits in 64 bits.
_INT_LIMIT = 2**63


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


class NotAFileError(Exception):
    """The name exists but is not something this program reads: `reason` says what it is instead."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def _kind_of(mode: int) -> str:
    for test, kind in ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a FIFO (named pipe)"),
                       (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
                       (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return kind
    return "not a regular file"


def read_regular_file(path: Path, limit: int = MAX_FILE_BYTES) -> bytes | None:
    """The bytes of `path`, None when nothing has that name; NotAFileError unless it is a regular file of at
    most `limit` bytes. The open neither follows a symbolic link nor blocks (a FIFO would wait for a writer
    forever); what was opened is checked on the descriptor, so it cannot be swapped after the check."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except FileNotFoundError:
        return None
    except PermissionError:
        raise NotAFileError("this user may not read it") from None
    except OSError as e:
        if e.errno == errno.ELOOP:
            raise NotAFileError("it is a symbolic link, which is never followed") from None
        if e.errno == errno.ENXIO:
            raise NotAFileError("it is a socket, not a file") from None
        raise NotAFileError(f"it cannot be read: {e.strerror or e}") from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise NotAFileError(f"it is {_kind_of(st.st_mode)}, not a file")
        raw = b"" if st.st_size > limit else _read_at_most(fd, limit + 1)  # bounded even if it grows meanwhile
    except OSError as e:
        raise NotAFileError(f"it cannot be read: {e.strerror or e}") from None
    finally:
        os.close(fd)
    if st.st_size > limit or len(raw) > limit:
        raise NotAFileError(f"it is larger than {limit:,} bytes, the most a memory file may hold")
    return raw


def _read_at_most(fd: int, size: int) -> bytes:
    chunks: list[bytes] = []
    while size > 0:
        chunk = os.read(fd, min(size, 1 << 20))
        if not chunk:
            break
        chunks.append(chunk)
        size -= len(chunk)
    return b"".join(chunks)


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
            raw = read_regular_file(path)
    except (NotAFileError, OSError):
        return None
    if raw is None:
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


Stamp = tuple[int, int, int]


def stamp_of(st: os.stat_result) -> Stamp:
    """A file's identity for the read cache: replaced files get a new inode, rewritten ones a new mtime/size."""
    return (st.st_ino, st.st_size, st.st_mtime_ns)


def file_stamp(path: Path) -> Stamp | None:
    try:
        return stamp_of(os.stat(path))
    except OSError:
        return None


def write_atomic(path: Path, payload: bytes) -> Stamp:
    """Replace `path` by `payload` so that a crash leaves the old file or the new one (created 0600).
    Returns the new file's stamp (taken before the rename, which keeps inode and mtime)."""
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(payload)
            f.flush()
            os.fsync(f.fileno())
            stamp = stamp_of(os.fstat(f.fileno()))
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    _fsync_dir(path.parent)
    return stamp


class _UnheldValue(ValueError):
    """A JSON value this program never writes and cannot hold."""


def _refuse_constant(name: str) -> Any:
    raise _UnheldValue(f"{name} is not a number")


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise _UnheldValue(f"the number {text[:40]} is too large")
    return value


def _int64(text: str) -> int:
    # Checked on the digits before int() converts them: a 5,000-digit number is past Python's limit on
    # int/str conversion (a bare ValueError) and far past anything this program writes.
    digits = len(text.lstrip("-"))
    value = int(text) if digits <= 19 else None
    if value is None or not -_INT_LIMIT <= value < _INT_LIMIT:
        raise _UnheldValue(f"a number of {digits:,} digits ({text[:20]}...) is larger than 64 bits")
    return value


def read_json_object(path: Path, damaged) -> Any | None:
    """The JSON in `path`, None when there is no file; `damaged(reason, raw)` makes the error for every
    other failure (it is raised)."""
    try:
        raw = read_regular_file(path)
    except NotAFileError as e:
        raise damaged(e.reason, None) from None
    if raw is None:
        return None
    if not raw.strip():
        # Our writes never leave an empty file (a crash leaves the old one): something else truncated it.
        raise damaged("the file is empty", raw)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise damaged(f"not UTF-8 text: {e}", raw) from None
    try:
        return json.loads(text, parse_constant=_refuse_constant, parse_float=_finite_float, parse_int=_int64)
    except json.JSONDecodeError as e:
        raise damaged(f"not valid JSON: {e}", raw) from None
    except _UnheldValue as e:
        raise damaged(f"a value no memory file holds: {e}", raw) from None
    except RecursionError:
        raise damaged("not valid JSON: nested too deeply", raw) from None


class AtomicJSONStorage(Storage):
    def __init__(self, path: str | os.PathLike, **_: Any) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.lock = file_lock(self.path)
        self._models_checked = False
        self._kept: tuple[Stamp, dict[str, dict[str, Any]]] | None = None  # what the file holds (module docstring)
        self._batch: dict[str, Any] | None = None  # an open batch: {"data", "dirty", "spoiled"}
        self._holding = None  # the open batch's hold on the lock
        self.reads = self.writes = 0  # files parsed and written (for tests and benchmarks)

    def _damaged(self, reason: str, raw: bytes | None) -> MemoryFileError:
        return MemoryFileError(self.path, reason, backup_copy(self.path, raw))

    def read(self) -> dict[str, dict[str, Any]] | None:
        if self._batch is not None:
            return self._batch["data"]
        stamp = file_stamp(self.path)
        if stamp is not None and self._kept is not None and self._kept[0] == stamp:
            return self._kept[1]
        # Stamp first, content second: a file replaced in between is newer than its stamp says, and is
        # parsed again on the next read (never the other way round).
        data = read_json_object(self.path, self._damaged)
        self._kept = None
        if data is None:
            return None
        self.reads += 1
        problem = shape_problem(data)
        if problem is None and not self._models_checked:
            # Once per open: what this process writes goes through the models anyway.
            problem = model_problem(data)
            self._models_checked = problem is None
        if problem is not None:
            raise self._damaged(problem, None)
        if stamp is not None:
            self._kept = (stamp, data)
        return data

    def write(self, data: dict[str, dict[str, Any]]) -> None:
        if self._batch is not None:
            self._batch["data"], self._batch["dirty"] = data, True
            return
        self._write(data)

    def _write(self, data: dict[str, dict[str, Any]]) -> None:
        self._kept = None
        if typed_secrets.known():  # whatever a row holds (a URL a login form led to, a summary), never a typed secret
            data = typed_secrets.map_strings(data, typed_secrets.mask)
        stamp = write_atomic(self.path, json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode("utf-8"))
        self.writes += 1
        self._kept = (stamp, data)

    def discard(self) -> None:
        """Forget what was read: a table operation that failed halfway may have changed it in place."""
        self._kept = None

    @contextmanager
    def locked(self) -> Iterator[None]:
        with holding(self.lock, self.path):
            yield

    @contextmanager
    def batched(self) -> Iterator[None]:
        """Every table operation inside goes to one copy of the file, written once at the end (if anything
        changed) under the lock held throughout; when the block raises, nothing is written. Inside an open
        batch (begin_batch) it is part of that one, and a failure spoils the whole of it."""
        if self._batch is not None:
            try:
                yield
            except BaseException:
                self._batch["spoiled"] = True  # half a block's changes are in the copy: none of it may be written
                raise
            return
        self.begin_batch()
        try:
            yield
        except BaseException:
            self.end_batch(write=False)
            raise
        self.end_batch()

    def begin_batch(self) -> None:
        """Hold the lock and collect table operations in one copy of the file until end_batch(), possibly
        across awaits (the exploration's commits of a few seconds go to the file at once)."""
        if self._batch is not None:
            raise RuntimeError(f"a batch of {self.path} is open already")
        self._holding = holding(self.lock, self.path)
        self._holding.__enter__()
        try:
            self._batch = {"data": self.read(), "dirty": False, "spoiled": False}
        except BaseException:
            self._release_batch_lock()
            raise

    @property
    def in_batch(self) -> bool:
        return self._batch is not None

    def end_batch(self, write: bool = True) -> bool:
        """Close the open batch: write it (when asked, changed and not spoiled), release the lock. True when
        something was written."""
        batch, self._batch = self._batch, None
        if batch is None:
            return False
        try:
            if write and batch["dirty"] and not batch["spoiled"]:
                try:
                    self._write(batch["data"])
                except BaseException:
                    self.discard()
                    raise
                return True
            if batch["dirty"]:
                self.discard()  # the kept copy was changed in place and is not what the file holds
            return False
        finally:
            self._release_batch_lock()

    def _release_batch_lock(self) -> None:
        held, self._holding = self._holding, None
        if held is not None:
            held.__exit__(None, None, None)

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
            try:
                yield
            except BaseException:
                discard = getattr(self.storage, "discard", None)
                if discard is not None:
                    discard()  # the operation may have changed the kept copy in place before it failed
                raise

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
