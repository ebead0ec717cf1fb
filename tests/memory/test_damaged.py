"""Every damaged shape of a site's memory file is reported (where the file and its copy are) and kept, never a
crash and never overwritten: the task goes on with a scratch store, and `webchallenger memory` says so.

Before: a document that is not an object, a non-integer document id, a directory in place of the file and
an unreadable file crashed SiteMemory.store_for() (ValueError, IsADirectoryError, PermissionError), and a
document the models refuse was opened as if valid."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from companion.agent.site_memory import SiteMemory
from companion.pagemem.divide import divide_page
from tests.support.memcli import ROOT, cli, honouring_file_modes
from tests.support.htmlsnap import snapshot_from_html
from tests.support.memory_task import TASK_SCRIPT

SITE = "damaged.example"
URL = f"https://{SITE}/page"
META = {"1": {"schema_version": 1, "site": SITE}}


def _page_doc() -> dict:
    pm = divide_page(snapshot_from_html('<html><body><a href="/x">X</a></body></html>', url=URL))
    return {"url": URL, "pagemem": pm.model_dump(mode="json")}


def _js(obj) -> bytes:
    return json.dumps(obj).encode()


@dataclass
class Shape:
    """How to damage the file; `raw` is its bytes (None: a directory)."""

    raw: bytes | None
    unreadable: bool = False

    def make(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        if self.raw is None:
            path.mkdir()
            (path / "something.txt").write_text("not ours")
            return
        path.write_bytes(self.raw)
        if self.unreadable:
            path.chmod(0)

    def assert_kept(self, path: Path) -> None:
        if self.raw is None:
            assert path.is_dir() and (path / "something.txt").read_text() == "not ours"
            return
        if self.unreadable:
            assert path.stat().st_mode & 0o777 == 0
            path.chmod(0o600)
        assert path.read_bytes() == self.raw
        if not self.unreadable:  # what could be read was also copied, byte for byte
            copies = list(path.parent.glob(f"{path.name}.corrupt-*"))
            assert len(copies) == 1 and copies[0].read_bytes() == self.raw

    def kept_at(self, path: Path) -> Path:
        """Where the error must say the damaged content is."""
        if self.raw is None or self.unreadable:
            return path
        return next(path.parent.glob(f"{path.name}.corrupt-*"))


def _foreign_page() -> dict:
    doc = _page_doc()
    doc["pagemem"]["colour"] = "red"  # a field the PageMem model does not have (hand-edited, or another program's)
    return doc


SHAPES = {
    "empty file": Shape(b""),
    "invalid JSON": Shape(b'{"meta": {"1": {"schema_version": 1, '),
    "not UTF-8": Shape(b'{"meta": {"1": {"schema_version": 1, "site": "\xff\xfe"}}}'),
    "top level not an object": Shape(b'[{"schema_version": 1}]'),
    "a table that is not an object": Shape(_js({"meta": META, "pages": [_page_doc()]})),
    "a document that is not an object": Shape(_js({"meta": META, "explored": {"1": "key-1"}})),
    "a non-integer doc id": Shape(_js({"meta": META, "explored": {"first": {"key": "k"}}})),
    "a directory in place of the file": Shape(None),
    "unreadable permissions": Shape(_js({"meta": META}), unreadable=True),
    "a document the model refuses": Shape(_js({"meta": META, "pages": {"1": _foreign_page()}})),
}
PARAMS = [pytest.param(shape, id=name) for name, shape in SHAPES.items()]

def _task_on(directory: Path, honour_file_modes: bool) -> dict:
    """What a task sees; in a subprocess when a file's mode must make it unreadable (see memcli)."""
    prefix = honouring_file_modes() if honour_file_modes else []
    if not prefix:
        warnings: list[str] = []
        memory = SiteMemory(directory, warn=warnings.append)
        store = memory.store_for(URL)
        store.store_summary("h", "a summary learned during the task")
        seen = {"warnings": warnings, "scratch": not hasattr(store.db.storage, "path"),
                "summary": list(store.cached_summary("h"))}
        memory.close()
        return seen
    out = subprocess.run([*prefix, sys.executable, "-c", TASK_SCRIPT, str(directory), URL], cwd=ROOT, capture_output=True,
                         text=True, env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=300)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


@pytest.mark.parametrize("shape", PARAMS)
def test_store_for_reports_the_damage_and_the_task_goes_on_with_a_scratch_store(shape, tmp_path):
    path = tmp_path / f"{SITE}.json"
    shape.make(path)
    seen = _task_on(tmp_path, honour_file_modes=shape.unreadable)
    assert seen["scratch"] and seen["summary"] == ["a summary learned during the task", None]
    [warning] = seen["warnings"]
    assert f"Working without memory for {SITE}" in warning and "unreadable" in warning
    assert str(shape.kept_at(path)) in warning
    shape.assert_kept(path)  # nothing written to it, not even the summary learned meanwhile


@pytest.mark.parametrize("shape", PARAMS)
def test_memory_show_reports_the_damage_and_keeps_the_file(shape, tmp_path):
    data = tmp_path / "data"
    path = data / "memory" / f"{SITE}.json"
    shape.make(path)
    out = cli(data, "memory", "show", SITE, honour_file_modes=shape.unreadable)
    assert out.returncode == 1 and "Traceback" not in out.stderr
    assert "unreadable" in out.stderr and str(shape.kept_at(path)) in out.stderr
    shape.assert_kept(path)


@pytest.mark.parametrize("shape", PARAMS)
def test_memory_ls_lists_the_damaged_site_as_unreadable(shape, tmp_path):
    data = tmp_path / "data"
    path = data / "memory" / f"{SITE}.json"
    shape.make(path)
    out = cli(data, "memory", "ls", honour_file_modes=shape.unreadable)
    assert out.returncode == 0 and "Traceback" not in out.stderr
    lines = out.stdout.splitlines()
    [at] = [i for i, line in enumerate(lines) if line.startswith(SITE)]
    assert lines[at].split()[1:5] == ["?"] * 4
    assert lines[at + 1].startswith("  unreadable: ") and str(shape.kept_at(path)) in lines[at + 1]
    shape.assert_kept(path)


def test_a_damaged_file_opened_again_gets_no_second_copy(tmp_path):
    path = tmp_path / f"{SITE}.json"
    SHAPES["invalid JSON"].make(path)
    for _ in range(3):
        SiteMemory(tmp_path).store_for(URL)
    assert len(list(tmp_path.glob(f"{path.name}.corrupt-*"))) == 1
