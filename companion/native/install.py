"""Registering the native messaging host with Chrome, Chromium and Edge (user level, no root).

Each browser looks for `<host name>.json` in its NativeMessagingHosts directory: under the user's config
directory for the default profile root, and under `--user-data-dir` for a browser started with one. The
manifest names a launcher script (0700, in our data directory) that runs companion.native.host with the
Python that ran the install, and with the WEBCHALLENGER_*_DIR overrides of that moment (so the host finds the
same companion and token). allowed_origins holds only this extension's origin (and --allow-origin ones).
"""

from __future__ import annotations

import json
import os
import shlex
import sys
from dataclasses import dataclass
from pathlib import Path

from companion.bridge.auth import EXTENSION_ORIGIN
from companion.native.host import HOST_NAME
from companion.paths import data_dir, private_file, write_private_text

# Default profile roots (the browser's user data directory), per platform.
_LINUX = {"chrome": ".config/google-chrome", "chromium": ".config/chromium", "edge": ".config/microsoft-edge"}
_MACOS = {"chrome": "Library/Application Support/Google/Chrome", "chromium": "Library/Application Support/Chromium",
          "edge": "Library/Application Support/Microsoft Edge"}
BROWSERS = tuple(_LINUX)
ENV_OVERRIDES = ("WEBCHALLENGER_CONFIG_DIR", "WEBCHALLENGER_DATA_DIR", "WEBCHALLENGER_CACHE_DIR")
LAUNCHER_NAME = "native-host"


@dataclass(frozen=True)
class Target:
    """Where one manifest goes: a browser's default profile root, or one --user-data-dir."""

    label: str
    user_data_dir: Path

    @property
    def manifest_path(self) -> Path:
        return self.user_data_dir / "NativeMessagingHosts" / f"{HOST_NAME}.json"


def default_root(browser: str, home: Path | None = None) -> Path:
    table = _MACOS if sys.platform == "darwin" else _LINUX
    return (home or Path.home()) / table[browser]


def targets(browsers: list[str] | None, user_data_dirs: list[Path], home: Path | None = None) -> list[Target]:
    """The named browsers' default roots and the given profile roots; with neither, every browser whose
    profile root exists, or Chromium when none does (Debian's browser)."""
    found = [Target(f"profile {d}", d.expanduser().resolve()) for d in user_data_dirs]
    if browsers:
        found += [Target(b, default_root(b, home)) for b in browsers]
    elif not user_data_dirs:
        existing = [b for b in BROWSERS if default_root(b, home).is_dir()]
        found += [Target(b, default_root(b, home)) for b in (existing or ["chromium"])]
    return found


def write_launcher(origins: list[str]) -> Path:
    """The executable the manifest names: Chrome runs it with the caller's origin as its argument."""
    path = data_dir() / LAUNCHER_NAME
    lines = ["#!/bin/sh", "# Written by `webchallenger install-browser`: Chrome's native messaging host for WebChallenger."]
    for name in ENV_OVERRIDES:
        if os.environ.get(name):
            lines.append(f"export {name}={shlex.quote(os.environ[name])}")
    command = [shlex.quote(sys.executable), "-m", "companion.native.host"]
    for origin in origins:
        if origin != EXTENSION_ORIGIN:
            command += ["--allow-origin", shlex.quote(origin)]
    lines.append("exec " + " ".join(command) + ' "$@"')
    with private_file(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    path.chmod(0o700)  # owner-only, like every file we write, and executable
    return path


def manifest(launcher: Path, origins: list[str]) -> dict:
    return {
        "name": HOST_NAME,
        "description": "WebChallenger companion: pairs the extension and starts the companion",
        "path": str(launcher),
        "type": "stdio",
        "allowed_origins": [o.rstrip("/") + "/" for o in origins],
    }


def install(found: list[Target], extra_origins: list[str] | None = None) -> list[Path]:
    origins = list(dict.fromkeys([EXTENSION_ORIGIN, *(extra_origins or [])]))
    bad = [o for o in origins if not o.startswith("chrome-extension://")]
    if bad:
        raise ValueError(f"allowed origins must be chrome-extension:// origins, not {bad[0]!r}")
    launcher = write_launcher(origins)
    written = []
    for target in found:
        write_private_text(target.manifest_path, json.dumps(manifest(launcher, origins), indent=1) + "\n")
        written.append(target.manifest_path)
    return written


def uninstall(found: list[Target]) -> list[Path]:
    removed = []
    for target in found:
        if target.manifest_path.exists():
            target.manifest_path.unlink()
            removed.append(target.manifest_path)
    return removed
