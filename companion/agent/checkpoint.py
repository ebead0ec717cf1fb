"""A task's checkpoint: what it takes to go on from its last step instead of starting over.

The loop saves it after every step and when the task ends, to <data dir>/tasks/<task id>.json (0600 in a
0700 directory: the history holds what the pages showed), with secret-looking URL query values scrubbed
(urls.py), as every file the product writes. A task that failed (a dead LLM server, a browser
gone) says where its checkpoint is; `webchallenger run --resume [FILE]` reloads it, opens the page the
task was on and continues with the history and the step count, so no earlier step is asked of the LLM again.

    checkpoint = TaskCheckpoint.begin("What is the price ...", start_url, TaskOptions(max_steps=30))
    checkpoint.save()                      # atomic: a crash mid-write never leaves half a file
    later = load_checkpoint(path)          # CheckpointError with the reason when it cannot be used
"""

from __future__ import annotations

import json
import os
import re
import time
import uuid
from pathlib import Path
from typing import Literal

import pydantic
from pydantic import BaseModel, ConfigDict, Field

from companion.agent.history import History, StepRecord
from companion.paths import data_dir
from companion.typed_secrets import map_strings

CHECKPOINT_VERSION = 1
TASK_ID = r"^[A-Za-z0-9_-]{1,64}$"  # a task id is part of its checkpoint's file name: nothing else fits
Status = Literal["running", "done", "stopped", "failed", "out_of_steps", "looping"]


class CheckpointError(ValueError):
    """A checkpoint file that is missing, unreadable or not a checkpoint; the message says which."""


class TaskOptions(BaseModel):
    """How the task was started, so a resume runs it the same way."""

    model_config = ConfigDict(extra="forbid")

    max_steps: int = Field(30, ge=1)
    allowed_domains: list[str] = Field(default_factory=list)
    start_target: str = ""  # the start as the user gave it (a URL or a local file), for `run --resume`
    local_port: int | None = None  # a local start file was served on this port: serve it there again
    confirm: bool = True  # informational: a resume asks before irreversible actions unless told not to anew


class TaskCheckpoint(BaseModel):
    model_config = ConfigDict(extra="forbid")

    version: Literal[1] = CHECKPOINT_VERSION
    task_id: str = Field(pattern=TASK_ID)  # part of the file name
    task: str = Field(min_length=1)
    start_url: str | None = None
    url: str = ""  # the page the task was on after its last step: where a resume starts
    step: int = Field(0, ge=0)  # steps done; a resume goes on with step + 1
    history: list[StepRecord] = Field(default_factory=list)
    verified: bool = False  # the task's one end-task verification was spent
    options: TaskOptions = Field(default_factory=TaskOptions)
    status: Status = "running"
    explanation: str = ""  # why it ended, for anything but done
    answer: str = ""
    created_at: float = Field(default_factory=time.time)
    updated_at: float = Field(default_factory=time.time)
    path: Path | None = Field(None, exclude=True)  # where it is saved (not part of the file)

    @classmethod
    def begin(cls, task: str, start_url: str | None, options: TaskOptions | None = None,
              task_id: str | None = None, directory: Path | None = None) -> "TaskCheckpoint":
        checkpoint = cls(task_id=task_id or uuid.uuid4().hex, task=task, start_url=start_url, url=start_url or "",
                         options=options or TaskOptions())
        checkpoint.path = (directory or tasks_dir()) / f"{checkpoint.task_id}.json"
        return checkpoint

    @property
    def resumable(self) -> bool:
        return self.status != "done"

    def restore_history(self) -> History:
        history = History()
        for record in self.history:
            history.add(record)
        return history

    def save(self) -> Path:
        """Write the checkpoint atomically, 0600 in a 0700 directory; returns its path."""
        if self.path is None:
            self.path = tasks_dir() / f"{self.task_id}.json"
        self.updated_at = time.time()
        _write_private(self.path, json.dumps(self._scrubbed(), indent=1, ensure_ascii=False))
        return self.path

    def _scrubbed(self) -> dict:
        """What the file holds: every string of the task's state through typed_secrets.redact (a secret the
        task typed is masked in any spelling, the task's own text included; secret-looking URL query values
        are replaced, so a resume on a page whose URL carried a token opens it without the token)."""
        return map_strings(self.model_dump(mode="json"))


def tasks_dir() -> Path:
    path = data_dir() / "tasks"
    path.mkdir(mode=0o700, exist_ok=True)
    if path.stat().st_mode & 0o777 != 0o700:
        os.chmod(path, 0o700)
    return path


def _write_private(path: Path, text: str) -> None:
    """A new 0600 file beside the old one, then renamed over it: readers see the old or the new, never half."""
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_CLOEXEC", 0), 0o600)
    try:
        os.fchmod(fd, 0o600)  # O_CREAT's mode is filtered by the umask, and an old tmp file keeps its mode
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            fd = -1
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        if fd >= 0:
            os.close(fd)
        tmp.unlink(missing_ok=True)
        raise


def load_checkpoint(path: Path) -> TaskCheckpoint:
    """Read a checkpoint file; CheckpointError naming the file and the problem when it cannot be used."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise CheckpointError(f"{path}: no such checkpoint") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise CheckpointError(f"{path}: cannot read it: {exc}") from None
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise CheckpointError(f"{path}: not a checkpoint (not JSON: {exc})") from None
    if isinstance(data, dict) and data.get("version") not in (None, CHECKPOINT_VERSION):
        raise CheckpointError(f"{path}: checkpoint version {data.get('version')!r}, this companion reads {CHECKPOINT_VERSION}")
    try:
        checkpoint = TaskCheckpoint.model_validate(data)
    except pydantic.ValidationError as exc:
        problems = "; ".join(f"{'.'.join(str(p) for p in e['loc']) or '(file)'}: {e['msg']}"
                             for e in exc.errors(include_input=False, include_url=False)[:5])
        raise CheckpointError(f"{path}: not a usable checkpoint ({problems})") from None
    checkpoint.path = path
    return checkpoint


def task_checkpoint(task_id: str, directory: Path | None = None) -> TaskCheckpoint:
    """The checkpoint of the task `task_id` (the side panel's Resume names its task by id), if it can go on;
    CheckpointError saying why not."""
    if not re.fullmatch(TASK_ID, task_id):
        raise CheckpointError(f"{task_id!r} is not a task id")
    checkpoint = load_checkpoint((directory or tasks_dir()) / f"{task_id}.json")
    if not checkpoint.resumable:
        raise CheckpointError(f"that task is done (answer: {checkpoint.answer or '-'}); nothing to resume")
    return checkpoint


def latest_checkpoint(directory: Path | None = None) -> TaskCheckpoint:
    """The most recently saved checkpoint of a task that did not finish (for `run --resume` without FILE)."""
    directory = directory or tasks_dir()
    candidates = sorted(directory.glob("*.json"), key=lambda p: p.stat().st_mtime, reverse=True)
    for path in candidates:
        try:
            checkpoint = load_checkpoint(path)
        except CheckpointError:
            continue  # damaged ones are named when given explicitly; here the next one is as good
        if checkpoint.resumable:
            return checkpoint
    raise CheckpointError(f"no unfinished task to resume in {directory}")
