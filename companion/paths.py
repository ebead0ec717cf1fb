"""Where WebChallenger keeps its files: config, data and caches.

Each honours an explicit WEBCHALLENGER_*_DIR override first (tests point them at temporary dirs), then the
XDG base-directory variables, then the XDG defaults under the home directory.
"""

from __future__ import annotations

import os
from pathlib import Path

APP = "webchallenger"


def _dir(override_env: str, xdg_env: str, xdg_default: str) -> Path:
    override = os.environ.get(override_env)
    if override:
        path = Path(override).expanduser()
    else:
        base = os.environ.get(xdg_env) or str(Path.home() / xdg_default)
        path = Path(base).expanduser() / APP
    path.mkdir(parents=True, exist_ok=True)
    return path


def config_dir() -> Path:
    return _dir("WEBCHALLENGER_CONFIG_DIR", "XDG_CONFIG_HOME", ".config")


def data_dir() -> Path:
    return _dir("WEBCHALLENGER_DATA_DIR", "XDG_DATA_HOME", ".local/share")


def cache_dir() -> Path:
    return _dir("WEBCHALLENGER_CACHE_DIR", "XDG_CACHE_HOME", ".cache")
