"""Which companion is running: `webchallenger serve` announces its port and pid in the config directory
(0600) and withdraws it on exit, so the native host can tell the extension where to connect, or start one."""

from __future__ import annotations

import json
import os
import socket
import time
from pathlib import Path

from pydantic import BaseModel, ValidationError

from companion.paths import config_dir, write_private_text

STATE_FILE_NAME = "companion.json"


class RunningCompanion(BaseModel):
    port: int
    pid: int
    started_at: float


def state_path(directory: Path | None = None) -> Path:
    return (directory or config_dir()) / STATE_FILE_NAME


def announce(port: int, directory: Path | None = None) -> RunningCompanion:
    state = RunningCompanion(port=port, pid=os.getpid(), started_at=time.time())
    write_private_text(state_path(directory), state.model_dump_json() + "\n")
    return state


def withdraw(directory: Path | None = None) -> None:
    """Remove the announcement if it is this process's (a newer companion may have replaced it)."""
    path = state_path(directory)
    current = _read(path)
    if current is not None and current.pid == os.getpid():
        path.unlink(missing_ok=True)


def _read(path: Path) -> RunningCompanion | None:
    try:
        return RunningCompanion.model_validate(json.loads(path.read_text()))
    except (OSError, ValueError, ValidationError):
        return None


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # exists, another user's: not ours, but alive
    return True


def listening(port: int, timeout: float = 1.0) -> bool:
    """Something accepts connections on 127.0.0.1:port."""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=timeout):
            return True
    except OSError:
        return False


def find_running(directory: Path | None = None) -> RunningCompanion | None:
    """The announced companion if its process is alive and its port accepts connections; a stale
    announcement (a killed companion) counts as none."""
    state = _read(state_path(directory))
    if state is None or not _alive(state.pid) or not listening(state.port):
        return None
    return state
