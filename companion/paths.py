"""Where WebChallenger keeps its files: config, data and caches; and how every one of them is created.

Each directory honours an explicit WEBCHALLENGER_*_DIR override first (tests point them at temporary dirs),
then the XDG base-directory variables, then the XDG defaults under the home directory.

Everything the product writes (memory, recordings, the pairing token, the model cache, created files) can
hold what the user browsed or typed, so it is private to the user: files are created 0600 in directories
that are 0700. `private_dir()` and `private_file()` are the one way to make them.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import IO

APP = "webchallenger"
DIR_MODE = 0o700
FILE_MODE = 0o600


def private_dir(path: str | os.PathLike, *, narrow: bool = False) -> Path:
    """Create `path` and any missing parents as 0700 and return it. `narrow`: an existing directory is
    made 0700 as well (only for WebChallenger's own directories: a user's --record directory or a shared
    /tmp is never changed; the files in it are 0600 all the same)."""
    path = Path(path)
    missing = []
    p = path
    while not p.exists() and p != p.parent:
        missing.append(p)
        p = p.parent
    for d in reversed(missing):
        try:
            d.mkdir(mode=DIR_MODE)
        except FileExistsError:
            continue
        os.chmod(d, DIR_MODE)  # mkdir's mode is filtered by the umask
    if narrow and not missing:
        _narrow(path, DIR_MODE)
    if not path.is_dir():
        raise NotADirectoryError(f"{path} is not a directory")
    return path


def _narrow(path: Path, mode: int) -> None:
    try:
        st = path.stat()
        if st.st_mode & 0o777 != mode:
            os.chmod(path, mode)
    except OSError:
        pass


def private_file(path: str | os.PathLike, mode: str = "a", *, encoding: str | None = "utf-8", **kwargs) -> IO:
    """open() for a product file: its directory is made private, the file is created 0600 (never widened
    by the umask) and an existing one is narrowed to 0600. `mode` is an open() mode ("w", "a", "wb", ...)."""
    path = Path(path)
    private_dir(path.parent)
    flags = os.O_CREAT | getattr(os, "O_CLOEXEC", 0)
    flags |= os.O_RDWR if "+" in mode else os.O_WRONLY
    if "a" in mode:
        flags |= os.O_APPEND
    elif "w" in mode:
        flags |= os.O_TRUNC
    elif "x" in mode:
        flags |= os.O_EXCL
    fd = os.open(path, flags, FILE_MODE)
    try:
        os.fchmod(fd, FILE_MODE)
        if "b" in mode:
            return os.fdopen(fd, mode, **kwargs)
        return os.fdopen(fd, mode, encoding=encoding, **kwargs)
    except BaseException:
        os.close(fd)
        raise


def write_private_text(path: str | os.PathLike, text: str, encoding: str = "utf-8") -> None:
    """Path.write_text for a product file (0600 in a 0700 directory)."""
    with private_file(path, "w", encoding=encoding) as f:
        f.write(text)


def _dir(override_env: str, xdg_env: str, xdg_default: str) -> Path:
    override = os.environ.get(override_env)
    if override:
        path = Path(override).expanduser()
    else:
        base = os.environ.get(xdg_env) or str(Path.home() / xdg_default)
        path = Path(base).expanduser() / APP
    return private_dir(path, narrow=True)


def config_dir() -> Path:
    return _dir("WEBCHALLENGER_CONFIG_DIR", "XDG_CONFIG_HOME", ".config")


def data_dir() -> Path:
    return _dir("WEBCHALLENGER_DATA_DIR", "XDG_DATA_HOME", ".local/share")


def cache_dir() -> Path:
    return _dir("WEBCHALLENGER_CACHE_DIR", "XDG_CACHE_HOME", ".cache")
