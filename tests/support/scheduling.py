"""How the suite is split across pytest-xdist workers (`python3 build.py test` runs it with `-n`).

Every test file is one unit of work, so a module-scoped fixture starts once (as with `--dist loadfile`). Tests
marked `xdist_group(name)` are one unit across files: the suite marks every test that uses the shop admin site or
Selenium Grid (tests/djangosite/plugin.py), because those tests reset and change the site's database, so two
workers must not share one site, and one worker starting the site and the grid once is cheaper than each doing so.
"""

from __future__ import annotations

import pytest
from xdist.scheduler import LoadGroupScheduling

# The fixtures of tests/djangosite/plugin.py: a test using any of them runs in the SHARED_SITE group.
SHARED_SITE_FIXTURES = frozenset({"django_site", "fresh_django_site", "admin_browser", "selenium_grid"})
SHARED_SITE = "djangosite"


class FileOrGroupScheduling(LoadGroupScheduling):
    """`--dist loadgroup` whose ungrouped tests are grouped by file instead of running one by one."""

    def _split_scope(self, nodeid: str) -> str:
        if nodeid.rfind("@") > nodeid.rfind("]"):
            return nodeid.split("@")[-1]
        return nodeid.split("::", 1)[0]


class XdistScheduling:
    """The suite's xdist hooks (registered by tests/conftest.py only when xdist is loaded)."""

    @pytest.hookimpl(tryfirst=True)  # before xdist's worker tags grouped tests' node ids with their group
    def pytest_collection_modifyitems(self, config: pytest.Config, items: list[pytest.Item]) -> None:
        for item in items:
            if SHARED_SITE_FIXTURES.intersection(item.fixturenames):
                item.add_marker(pytest.mark.xdist_group(SHARED_SITE))

    def pytest_xdist_make_scheduler(self, config: pytest.Config, log):
        if config.getvalue("dist") == "loadgroup":
            return FileOrGroupScheduling(config, log)
        return None
