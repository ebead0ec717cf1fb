"""A stable 127.0.0.1 port per local folder, so a local file served again is the same site.

Site memory is keyed by host and port (memory/store.py site_key), and every URL it stores names the port. A
folder served on a random port each time would become a new, empty site on every `run` and `explore`; serving
it on the same port each time keeps one site per folder with no change to how memory is keyed. The port is
first derived from the folder's path, then remembered in the data dir (local_sites.json, 0600) with the folder
it belongs to, so two folders never share a port (and a site): a folder whose derived port is taken by another
one probes on to the next free number. A port some other program holds right now falls back to a random one
(that run's pages are then a site of their own; the caller says so).
"""

from __future__ import annotations

import fcntl
import hashlib
import json
from pathlib import Path

from companion import paths

# Below Linux's ephemeral range (32768-60999), so a random outgoing connection rarely holds a folder's port.
FIRST_PORT, PORT_COUNT = 24000, 8000
REGISTRY = "local_sites.json"


def _derived(folder: str, attempt: int) -> int:
    digest = hashlib.sha256(f"{folder}\0{attempt}".encode()).digest()
    return FIRST_PORT + int.from_bytes(digest[:4], "big") % PORT_COUNT


def stable_port(folder: Path) -> int:
    """The port `folder` is always served on (assigned on first use, never shared with another folder)."""
    folder_key = str(folder.resolve())
    registry = paths.data_dir() / REGISTRY
    with paths.private_file(registry.with_suffix(".lock"), "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # two commands starting at once must not hand out one port twice
        try:
            ports = json.loads(registry.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            ports = {}  # none yet, or unreadable: ports are derived again (the same ones, barring collisions)
        if not isinstance(ports, dict):
            ports = {}
        if folder_key in ports:
            return int(ports[folder_key])
        taken = {int(p) for p in ports.values()}
        port = next(p for p in (_derived(folder_key, i) for i in range(PORT_COUNT)) if p not in taken)
        ports[folder_key] = port
        paths.write_private_text(registry, json.dumps(ports, indent=1, sort_keys=True) + "\n")
        return port
