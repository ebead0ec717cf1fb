"""How the suite is split across pytest-xdist workers (`python3 build.py test` runs it with `-n`).

With `--dist loadfile`, every test file is one unit of work, so a module-scoped fixture starts once per file,
and a session-scoped one (the browser, the shop admin site, Selenium Grid) at most once per worker. No two workers
share a site: tests reset and change the shop site's database, so each worker that runs such a test starts its own
(tests/djangosite/plugin.py, on a free port, in its own temporary directory).

The files that take longest go first, so no worker starts one near the end while the others sit idle: files with a
test that uses the shop site (its start, and explorations of the whole admin) or is marked `slow` or `model_smoke`.
Only workers collect, and the scheduler sees node ids only: the first worker writes those files' paths to a file the
controller named in its `workerinput` (node ids cannot carry a tag: pytest 9 derives them from the collection tree,
so xdist's `xdist_group`, which appends the group to the node id, does not group anything with it).
"""

from __future__ import annotations

import shutil
import tempfile
from collections import OrderedDict
from pathlib import Path

import pytest
from xdist.scheduler import LoadScopeScheduling

# The fixtures of tests/djangosite/plugin.py, and the marks of tests that take tens of seconds by nature.
SHARED_SITE_FIXTURES = frozenset({"django_site", "fresh_django_site", "admin_browser", "selenium_grid"})
LONG_MARKS = ("slow", "model_smoke")
EARLY_FILES = "webchallenger_early_files"  # the workerinput key: where the first worker lists the long files


def _file_of(nodeid: str) -> str:
    return nodeid.split("::", 1)[0]


def is_long(item: pytest.Item) -> bool:
    return bool(SHARED_SITE_FIXTURES.intersection(item.fixturenames)) or any(item.get_closest_marker(m) for m in LONG_MARKS)


class _EarlyFirst(OrderedDict):
    """The work queue, with the units in `early` ahead of the others whatever order they were added in."""

    early: frozenset[str] = frozenset()

    def __setitem__(self, key, value) -> None:
        super().__setitem__(key, value)
        if key in self.early:
            self.move_to_end(key, last=False)


class FileScheduling(LoadScopeScheduling):
    """One unit of work per test file; the files listed in `early_list` first."""

    def __init__(self, config: pytest.Config, log=None, early_list: Path | None = None) -> None:
        super().__init__(config, log)
        self.workqueue = _EarlyFirst()
        self.early_list = early_list

    def _split_scope(self, nodeid: str) -> str:
        return _file_of(nodeid)

    def schedule(self) -> None:
        if self.collection is None and self.early_list is not None and self.early_list.exists():
            self.workqueue.early = frozenset(self.early_list.read_text().split("\n"))
        super().schedule()


class XdistScheduling:
    """The suite's xdist hooks (registered by tests/conftest.py only when xdist is loaded)."""

    def __init__(self) -> None:
        self._dir: Path | None = None  # made on the controller only

    @property
    def early_list(self) -> Path:
        if self._dir is None:
            self._dir = Path(tempfile.mkdtemp(prefix="webchallenger-xdist-"))
        return self._dir / "early.txt"

    def pytest_configure_node(self, node) -> None:  # on the controller, for each worker
        node.workerinput[EARLY_FILES] = str(self.early_list)

    def pytest_unconfigure(self, config: pytest.Config) -> None:
        if self._dir is not None:
            shutil.rmtree(self._dir, ignore_errors=True)

    def pytest_collection_modifyitems(self, config: pytest.Config, items: list[pytest.Item]) -> None:
        workerinput = getattr(config, "workerinput", {})
        if EARLY_FILES in workerinput and workerinput.get("workerid") == "gw0":
            files = dict.fromkeys(_file_of(item.nodeid) for item in items if is_long(item))
            Path(workerinput[EARLY_FILES]).write_text("\n".join(files))

    def pytest_xdist_make_scheduler(self, config: pytest.Config, log):
        if config.getvalue("dist") == "loadfile":
            return FileScheduling(config, log, self.early_list)
        return None
