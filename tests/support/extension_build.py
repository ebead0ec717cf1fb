"""The built extension the suite loads (dist/extension), rebuilt by build.py when a source is newer.

Parallel test workers (pytest-xdist) each ask for it: an exclusive file lock makes one of them build while the
others wait, so no worker loads a half-written dist/."""

from __future__ import annotations

import fcntl
import subprocess
import sys
from pathlib import Path

from companion.bridge.locations import stale_build

ROOT = Path(__file__).resolve().parents[2]
DIST_EXTENSION = ROOT / "dist" / "extension"
_BUILD_LOCK = ROOT / "dist" / ".build.lock"


def _extension_is_stale() -> bool:
    """dist/extension is missing or older than a source file or the protocol it validates against."""
    return not (DIST_EXTENSION / "manifest.json").exists() or stale_build(DIST_EXTENSION)


def ensure_extension_built() -> None:
    _BUILD_LOCK.parent.mkdir(exist_ok=True)
    with open(_BUILD_LOCK, "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if _extension_is_stale():
            subprocess.run([sys.executable, str(ROOT / "build.py")], cwd=ROOT, check=True)
