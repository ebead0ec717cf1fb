"""A site's memory file that holds a value this program never writes, or a name in the memory folder that is no
regular file, is damage like any other (tests/memory/test_damaged.py): reported with where it is kept, never
followed, never waited on, never a crash. The task goes on with a scratch store, `webchallenger memory show`
exits 1 with the message and `memory ls` lists the site as unreadable and goes on.

Each runs as a process under a memory and time bound: before, a 5,000-digit number was a bare ValueError (the
task failed at once, `memory ls`/`show` ended in a traceback), NaN was accepted, a link to /dev/zero read until
memory ran out and a FIFO waited forever."""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import pytest

from companion.memory.storage import MAX_FILE_BYTES
from tests.support.memcli import ROOT, WEBCHALLENGER
from tests.support.memory_task import TASK_SCRIPT

SITE = "damaged.example"
URL = f"https://{SITE}/page"
ADDRESS_SPACE = 2 * 1024**3  # far above what a memory command needs; reading /dev/zero whole hits it
PROCESS_TIMEOUT = 60  # a FIFO opened for reading waits for a writer forever


def _holding(value: str) -> bytes:
    """A site file whose only odd thing is `value`, in a table no row model checks (so only the reading can)."""
    return ('{"meta": {"1": {"schema_version": 1, "site": "%s"}}, "notes": {"1": {"value": %s}}}'
            % (SITE, value)).encode()


@dataclass
class Damage:
    """One way the memory folder's entry for SITE can be damaged; `raw` is what a copy must hold (None: the
    entry is not a file, so nothing is copied and the entry is left as it was)."""

    make: Callable[[Path], None]
    raw: bytes | None

    def assert_kept(self, path: Path) -> None:
        copies = list(path.parent.glob(f"{path.name}.corrupt-*"))
        if self.raw is None:
            assert copies == []
            return
        assert path.read_bytes() == self.raw
        assert len(copies) == 1 and copies[0].read_bytes() == self.raw

    def kept_at(self, path: Path) -> Path:
        return path if self.raw is None else next(path.parent.glob(f"{path.name}.corrupt-*"))


def _writes(raw: bytes) -> Damage:
    return Damage(lambda path: path.write_bytes(raw), raw)


def _symlink_to_dev_zero(path: Path) -> None:
    path.symlink_to("/dev/zero")


def _fifo(path: Path) -> None:
    os.mkfifo(path, 0o600)


def _sparse_over_the_bound(path: Path) -> None:
    with open(path, "wb") as f:  # sparse: costs no disk
        f.truncate(MAX_FILE_BYTES + 1)


DAMAGES = {
    "a 5,000-digit number": _writes(_holding("9" * 5000)),
    "a number past 64 bits": _writes(_holding("123456789012345678901234")),
    "NaN": _writes(_holding("NaN")),
    "-Infinity": _writes(_holding("-Infinity")),
    "a float that overflows": _writes(_holding("1e999")),
    "a symbolic link to /dev/zero": Damage(_symlink_to_dev_zero, None),
    "a FIFO": Damage(_fifo, None),
    "a file over the size bound": Damage(_sparse_over_the_bound, None),
}
PARAMS = [pytest.param(damage, id=name) for name, damage in DAMAGES.items()]


def _bounded() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (ADDRESS_SPACE, ADDRESS_SPACE))


def _run(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess:
    return subprocess.run(args, cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT), **env}, capture_output=True,
                          text=True, timeout=PROCESS_TIMEOUT, preexec_fn=_bounded)


def _memory_entry(tmp_path: Path, damage: Damage) -> tuple[Path, Path]:
    data = tmp_path / "data"
    path = data / "memory" / f"{SITE}.json"
    path.parent.mkdir(parents=True)
    damage.make(path)
    return data, path


@pytest.mark.parametrize("damage", PARAMS)
def test_the_task_reports_the_damage_and_goes_on_with_a_scratch_store(damage, tmp_path):
    _, path = _memory_entry(tmp_path, damage)
    out = _run([sys.executable, "-c", TASK_SCRIPT, str(path.parent), URL], {})
    assert out.returncode == 0, out.stderr[-2000:]
    seen = json.loads(out.stdout)
    assert seen["scratch"] and seen["summary"] == ["a summary learned during the task", None]
    [warning] = seen["warnings"]
    assert f"Working without memory for {SITE}" in warning and "unreadable" in warning
    assert str(damage.kept_at(path)) in warning
    damage.assert_kept(path)


@pytest.mark.parametrize("damage", PARAMS)
def test_memory_show_reports_the_damage_without_a_traceback(damage, tmp_path):
    data, path = _memory_entry(tmp_path, damage)
    out = _run([str(WEBCHALLENGER), "memory", "show", SITE], {"WEBCHALLENGER_DATA_DIR": str(data)})
    assert out.returncode == 1 and "Traceback" not in out.stderr, out.stderr[-2000:]
    assert "unreadable" in out.stderr and str(damage.kept_at(path)) in out.stderr
    damage.assert_kept(path)


@pytest.mark.parametrize("damage", PARAMS)
def test_memory_ls_lists_the_damaged_site_and_goes_on(damage, tmp_path):
    data, path = _memory_entry(tmp_path, damage)
    (path.parent / "fine.example.json").write_text('{"meta": {"1": {"schema_version": 1, "site": "fine.example"}}}')
    out = _run([str(WEBCHALLENGER), "memory", "ls"], {"WEBCHALLENGER_DATA_DIR": str(data)})
    assert out.returncode == 0 and "Traceback" not in out.stderr, out.stderr[-2000:]
    lines = out.stdout.splitlines()
    [at] = [i for i, line in enumerate(lines) if line.startswith(SITE)]
    assert lines[at].split()[1:5] == ["?"] * 4
    assert lines[at + 1].startswith("  unreadable: ") and str(damage.kept_at(path)) in lines[at + 1]
    [fine] = [line for line in lines if line.startswith("fine.example")]
    assert fine.split()[1:5] == ["0"] * 4  # the site after the damaged one is still listed
    damage.assert_kept(path)
