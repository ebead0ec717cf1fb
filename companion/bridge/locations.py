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
