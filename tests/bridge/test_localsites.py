"""A local folder is served on a port of its own, the same every time, never another folder's."""

from __future__ import annotations

import stat

from companion.bridge import localsites
from companion.bridge.localsites import stable_port


def test_a_folder_gets_the_same_port_every_time(tmp_path, monkeypatch):
    """The port is remembered: a second command serving the folder uses the first one's port."""
    monkeypatch.setenv("WEBCHALLENGER_DATA_DIR", str(tmp_path / "data"))
    (tmp_path / "site").mkdir()
    first = stable_port(tmp_path / "site")
    assert stable_port(tmp_path / "site" / ".." / "site") == first
    assert localsites.FIRST_PORT <= first < localsites.FIRST_PORT + localsites.PORT_COUNT
    assert stat.S_IMODE((tmp_path / "data" / localsites.REGISTRY).stat().st_mode) == 0o600


def test_two_folders_whose_ports_collide_still_get_two_ports(tmp_path, monkeypatch):
    """When two folders derive the same port, the second probes on: two folders never become one site."""
    monkeypatch.setenv("WEBCHALLENGER_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setattr(localsites, "_derived", lambda folder, attempt: 25000 + attempt)  # every folder collides
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    assert (stable_port(tmp_path / "a"), stable_port(tmp_path / "b")) == (25000, 25001)
    assert stable_port(tmp_path / "a") == 25000


def test_a_busy_folder_port_falls_back_to_another_and_says_so(tmp_path, monkeypatch, caplog):
    """When another program holds the folder's port, the file is still served (on another port), with a warning
    that this run's pages are not the folder's site memory."""
    import socket
    import urllib.request
    from contextlib import ExitStack
    from urllib.parse import urlsplit

    from companion.bridge.pageserver import serve_if_local_file

    monkeypatch.setenv("WEBCHALLENGER_DATA_DIR", str(tmp_path / "data"))
    (tmp_path / "site").mkdir()
    (tmp_path / "site" / "index.html").write_text("<title>x</title>hello", encoding="utf-8")
    port = stable_port(tmp_path / "site")
    with socket.socket() as holder, ExitStack() as stack:
        holder.bind(("127.0.0.1", port))
        holder.listen(1)
        url = serve_if_local_file(stack, str(tmp_path / "site" / "index.html"), stable=True)
        assert urlsplit(url).port != port
        assert b"hello" in urllib.request.urlopen(url, timeout=10).read()
    assert any(f"127.0.0.1:{port}" in r.getMessage() and "is busy" in r.getMessage() for r in caplog.records)
