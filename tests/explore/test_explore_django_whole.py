"""The whole Django admin explored from its index, three clicks deep (about 140 pages): the acceptance of
test_explore_django.py at full size, uninterrupted and with every run of the same length. Several minutes
per exploration on 2 cores, so left out of the default run (app_explore marker: `-m app_explore` runs it).
"""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from companion.bridge.launcher import LaunchOptions
from tests.support.memory_dump import differences, memory_digest
from companion.explore.tabs import ExploreBrowser, RemoteExploreBrowser
from tests.djangosite.server import MODELS
from tests.support.explore_admin import change_pages, explore, iterated, logged_in_tabs, Memory

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.app_explore]
# Three clicks from the admin index reach every model's list (1), its change pages (2) and pages linked from
# those (3); the date drill-downs below that add time, not coverage. Every run here uses the same limits.
LIMITS = dict(max_depth=3)


@pytest.fixture(scope="module")
def whole(django_site, tmp_path_factory):
    memory_dir = tmp_path_factory.mktemp("whole")
    browser = ExploreBrowser(LaunchOptions(offline=True))
    try:
        tabs = logged_in_tabs(django_site, [browser])
        before, seen = django_site.db_digest(), len(django_site.requests())
        report = explore(tabs, django_site.admin_url, memory_dir, **LIMITS)
        return SimpleNamespace(report=report, memory=Memory(memory_dir, django_site.admin_url), db_before=before,
                               db_after=django_site.db_digest(), requests=django_site.requests()[seen:])
    finally:
        browser.close()


def test_the_whole_admin_is_explored(whole):
    assert whole.report.stopped_by == "finished"
    assert whole.db_after == whole.db_before
    assert [r for r in whole.requests if r.method != "GET"] == []


@pytest.mark.parametrize("model", MODELS)
def test_every_models_change_pages_are_one_template_and_only_one_is_iterated(whole, model):
    memory = whole.memory
    assert f"admin/shop/{model}" in memory.pages
    pages = change_pages(memory, model)
    assert pages
    assert len({memory.template_of(p) for p in pages}) == 1
    assert len(iterated(memory, pages)) == 1


def test_an_exploration_stopped_halfway_resumes_to_the_same_memory(whole, django_site, tmp_path):
    browser = ExploreBrowser(LaunchOptions(offline=True))
    try:
        tabs = logged_in_tabs(django_site, [browser])
        halfway = explore(tabs, django_site.admin_url, tmp_path, max_pages=whole.memory.state["counts"]["pages"] // 2, **LIMITS)
        assert halfway.stopped_by == "max-pages"
        resumed = explore(tabs, django_site.admin_url, tmp_path, **LIMITS)
    finally:
        browser.close()
    assert resumed.stopped_by == "finished"
    assert differences(memory_digest(Memory(tmp_path, django_site.admin_url).path), memory_digest(whole.memory.path)) == []


def test_two_workers_through_selenium_grid_write_the_same_memory(whole, django_site, selenium_grid, tmp_path):
    browsers = [RemoteExploreBrowser(selenium_grid.url, LaunchOptions(offline=True)) for _ in range(2)]
    try:
        tabs = logged_in_tabs(django_site, browsers)
        report = explore(tabs, django_site.admin_url, tmp_path, **LIMITS)
    finally:
        for b in browsers:
            b.close()
    assert report.stopped_by == "finished"
    assert all(t.clicks > 0 for t in tabs)
    assert differences(memory_digest(Memory(tmp_path, django_site.admin_url).path), memory_digest(whole.memory.path)) == []
