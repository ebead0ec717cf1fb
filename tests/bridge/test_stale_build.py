"""A build older than the extension's sources is not loaded (bridge/locations.stale_build, bridge/launcher.py): a
MiniWoB run loaded a day-old dist/extension whose snapshot never sent an attribute the companion's new rule read.
On a scratch source tree with set file times; the real tree's build is the suite's own (tests/support)."""

from __future__ import annotations

import os
from pathlib import Path

from companion.bridge.locations import stale_build


def tree(root: Path, built: float, source: float) -> Path:
    dist = root / "dist" / "extension"
    dist.mkdir(parents=True)
    (root / "extension").mkdir()
    (root / "companion").mkdir()
    for path, when in ((dist / "manifest.json", built), (root / "extension" / "snapshot.js", source),
                       (root / "companion" / "protocol.py", source)):
        path.write_text("x")
        os.utime(path, (when, when))
    return dist


def test_a_build_older_than_a_source_is_stale(tmp_path):
    assert stale_build(tree(tmp_path, built=1_000, source=2_000), root=tmp_path)


def test_a_build_newer_than_every_source_is_not(tmp_path):
    assert not stale_build(tree(tmp_path, built=3_000, source=2_000), root=tmp_path)


def test_another_extension_directory_is_never_judged(tmp_path):
    tree(tmp_path, built=1_000, source=2_000)
    elsewhere = tmp_path / "copy"
    elsewhere.mkdir()
    (elsewhere / "manifest.json").write_text("x")
    assert not stale_build(elsewhere, root=tmp_path)  # a packaged or pinned copy has no sources beside it
