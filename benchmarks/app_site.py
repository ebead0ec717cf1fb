"""The application the real-app suite runs against: the shop admin test site (tests/djangosite).

The site is test scaffolding, not part of the product, so it lives under tests/ and is not installed; the bench
imports it from the source tree on purpose (a bench is run from a checkout). Django itself runs only in the
site's child process.
"""

from __future__ import annotations

import importlib
import sys

from benchmarks.task_runner import BenchError
from companion.bridge.locations import REPO_ROOT

SITES = {"djangosite": "tests.djangosite.server"}


def site_class(name: str = "djangosite"):
    """The DjangoSite class (tests/djangosite/server.py): start(), reset(), query(), login(driver), ..."""
    if not (REPO_ROOT / "tests" / "djangosite" / "server.py").exists():
        raise BenchError(f"the task suite needs the test site in a source checkout ({REPO_ROOT}/tests/djangosite)")
    if str(REPO_ROOT) not in sys.path:
        sys.path.insert(0, str(REPO_ROOT))
    try:
        return importlib.import_module(SITES[name]).DjangoSite
    except ImportError as exc:
        raise BenchError(f"cannot load the test site: {exc}") from exc


def start_site(name: str = "djangosite", port: int = 0):
    """A started site (use it as a context manager, or call close()), on `port` when it is free (0: any). Needs
    Django: `pip install -e .[test]`."""
    import importlib.util

    if importlib.util.find_spec("django") is None:
        raise BenchError("the test site needs Django: .venv/bin/pip install -e '.[test]'")
    site = site_class(name)()
    try:
        return site.start(port)
    except Exception as exc:  # SiteError: seeding or runserver failed; its message has the log
        site.close()
        raise BenchError(f"the test site did not start: {exc}") from exc
