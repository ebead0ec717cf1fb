"""Pytest fixtures for the shop test site and Selenium Grid, registered for the whole suite by
`pytest_plugins` in tests/conftest.py.

``django_site`` (session)
    A started ``DjangoSite`` (tests/djangosite/server.py): ``base_url``, ``admin_url``, ``credentials``,
    ``changelist_url(model)``, ``change_url(model, pk)``, ``db_path``, ``db_digest()``, ``reset()``,
    ``query(sql)``, ``requests()``, ``login(driver)``, ``login_cookies()``. Shared by the session:
    a test that changes data calls ``reset()`` (or uses ``fresh_django_site``).

``fresh_django_site`` (function)
    The same site, reset to the seeded data before the test and again after it.

``admin_browser`` (function)
    The suite's ``browser`` (real Chromium with the extension), logged in to ``django_site`` as the
    superuser and showing the admin index; logged out again after the test.

``selenium_grid`` (session)
    A started ``SeleniumGrid`` (tests/djangosite/grid.py) on 127.0.0.1, two sessions at a time;
    ``selenium_grid.url`` is the WebDriver URL. Skips when java/npm are missing, except in CI (CI=true),
    where a missing tool is a failure.
"""

from __future__ import annotations

import os

import pytest

from .grid import SeleniumGrid, missing_tools
from .server import DjangoSite


@pytest.fixture(scope="session")
def django_site():
    with DjangoSite() as site:
        yield site


@pytest.fixture
def fresh_django_site(django_site):
    django_site.reset()
    yield django_site
    django_site.reset()


@pytest.fixture
def admin_browser(browser, django_site):
    django_site.login(browser.driver)
    yield browser
    django_site.logout(browser.driver)


@pytest.fixture(scope="session")
def selenium_grid():
    missing = missing_tools()
    if missing:
        message = f"Selenium Grid needs {', '.join(missing)}: run `python3 build.py test` to install them"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    with SeleniumGrid(max_sessions=2) as grid:
        yield grid
