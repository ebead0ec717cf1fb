"""Where the built extension lives and how to reach its pages. Import-light: the CLI reads it at start-up."""

from __future__ import annotations

import os
from pathlib import Path

from companion.bridge.auth import EXTENSION_ID

REPO_ROOT = Path(__file__).resolve().parents[2]
OPTIONS_URL = f"chrome-extension://{EXTENSION_ID}/options.html"


def extension_dir() -> Path:
    """The built unpacked extension: $WEBCHALLENGER_EXTENSION_DIR, else dist/extension in the source tree."""
    override = os.environ.get("WEBCHALLENGER_EXTENSION_DIR")
    return Path(override) if override else REPO_ROOT / "dist" / "extension"


def stale_build(dist: Path, root: Path = REPO_ROOT) -> bool:
    """`dist` is the source tree's own build (`root`/dist/extension) and a file of extension/ or the wire protocol it
    was built from is newer: loading it would run yesterday's extension against today's companion."""
    sources = root / "extension"
    marker = dist / "manifest.json"
    if dist.resolve() != (root / "dist" / "extension").resolve() or not sources.is_dir() or not marker.exists():
        return False
    built = marker.stat().st_mtime
    files = [p for p in sources.rglob("*") if p.is_file()] + [root / "companion" / "protocol.py"]
    return any(p.stat().st_mtime > built for p in files if p.exists())
