"""The default run's exploration of the shop's Django admin (tests/djangosite): a few minutes where the full
ones (test_explore_django.py, test_explore_django_whole.py, app_explore marker) take many.

It starts at the change page of a category that has a parent and goes one click deep: the admin's sidebar
reaches every model's list (with its actions menu and filter menus), and the parent link reaches a second
change page of the same template. As in test_explore_django.py, the first leg stops at SAMPLE_PAGES pages and
the memory it leaves must be reproduced exactly by a run stopped halfway and resumed, and by two workers
through Selenium Grid. Every model's change pages (two clicks) are checked by the full explorations.
"""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from companion.bridge.launcher import LaunchOptions
from tests.support.memory_dump import differences, memory_digest
from companion.explore.tabs import ExploreBrowser, RemoteExploreBrowser
from tests.djangosite.server import MODELS
from tests.support.explore_admin import change_pages, click_depths, explore, iterated, logged_in_tabs, Memory

pytestmark = [pytest.mark.browser, pytest.mark.slow]
LIMITS = dict(max_depth=1)
SAMPLE_PAGES = 8
CHILD_CATEGORY = 2  # shop/seed.py: its parent is category 1


@pytest.fixture(scope="module")
def start_url(django_site):
    return django_site.change_url("category", CHILD_CATEGORY)


@pytest.fixture(scope="module")
def admin_tab(django_site):
    browser = ExploreBrowser(LaunchOptions(offline=True))
    try:
        (tab,) = logged_in_tabs(django_site, [browser])
        yield tab
    finally:
        browser.close()


@pytest.fixture(scope="module")
def admin(django_site, admin_tab, start_url, tmp_path_factory):
    memory_dir = tmp_path_factory.mktemp("admin")
    before, seen = django_site.db_digest(), len(django_site.requests())
    first = explore([admin_tab], start_url, memory_dir, max_pages=SAMPLE_PAGES, **LIMITS)
    sample = memory_digest(Memory(memory_dir, django_site.admin_url).path)
    report = explore([admin_tab], start_url, memory_dir, **LIMITS)
    return SimpleNamespace(first=first, sample=sample, report=report, memory=Memory(memory_dir, django_site.admin_url),
                           db_before=before, db_after=django_site.db_digest(), requests=django_site.requests()[seen:])


def test_the_exploration_finishes(admin):
    assert admin.report.stopped_by == "finished"


@pytest.mark.parametrize("model", MODELS)
def test_every_models_list_is_registered_and_iterated(admin, model):
    assert iterated(admin.memory, [f"admin/shop/{model}"])


def test_a_models_change_pages_are_one_template_and_only_one_is_iterated(admin):
    # A category's parent is shown as a link to the parent's change page: a second page of the template.
    memory = admin.memory
    pages = change_pages(memory, "category")
    assert len(pages) >= 2
    templates = {memory.template_of(p) for p in pages}
    assert len(templates) == 1 and templates <= {t["id"] for t in memory.rows("templates")}
    assert iterated(memory, pages) == [f"admin/shop/category/{CHILD_CATEGORY}/change"]


@pytest.mark.parametrize("model, actions", [
    ("order", ["Delete selected orders", "Mark selected orders as shipped"]),
    ("product", ["Delete selected products", "Mark selected products as discontinued"]),
])
def test_the_actions_menu_is_recorded_as_dropdown_elements(admin, model, actions):
    memory = admin.memory
    menus = [r for r in memory.rows("dropdowns") if memory.rel(r["url"]) == f"admin/shop/{model}" and r["name"].startswith("Action")]
    assert len(menus) == 1
    assert set(actions) <= {e["name"] for e in menus[0]["elements"]}


def test_the_filter_menus_are_recorded_as_dropdown_elements(admin):
    memory = admin.memory
    filters = {r["name"]: [e["name"] for e in r["elements"]] for r in memory.rows("dropdowns")
               if memory.rel(r["url"]) == "admin/shop/order" and r["name"].startswith("By ")}
    assert {"By status", "By shipping method", "By placed at", "By tags"} <= set(filters)
    assert {"Pending", "Paid", "Shipped", "Delivered", "Cancelled"} <= set(filters["By status"])


def test_no_delete_or_save_control_is_clicked_and_the_database_is_unchanged(admin):
    assert admin.db_after == admin.db_before
    assert [r for r in admin.requests if r.method != "GET"] == []
    assert not [r for r in admin.requests if "/delete/" in r.path or "/logout/" in r.path]


# --------------------------------------------------------------------------- limits


def test_max_pages_is_respected(admin):
    assert admin.first.stopped_by == "max-pages"
    assert len(admin.sample["pages"]) == SAMPLE_PAGES
    (state,) = admin.sample["exploration"]
    assert state["counts"]["pages"] == SAMPLE_PAGES and not state["finished"]


def test_max_depth_is_respected(admin):
    memory = admin.memory
    depth = click_depths(memory)
    registered = {r["url"] for r in memory.rows("pages")}
    assert registered <= set(depth)
    assert max(depth[u] for u in registered) <= LIMITS["max_depth"]
    assert memory.state["counts"]["beyond_depth"] > 0


def test_max_elements_is_respected(django_site, admin_tab, start_url, tmp_path):
    explore([admin_tab], start_url, tmp_path, max_pages=1, max_elements=3, **LIMITS)
    counts = Memory(tmp_path, django_site.admin_url).state["counts"]
    assert counts["pages"] == 1
    assert 0 < counts["clicks"] <= 3
    assert counts["skipped_by_limit"] > 0


def test_max_time_is_respected(admin, admin_tab, start_url, tmp_path):
    report = explore([admin_tab], start_url, tmp_path, max_time=5, **LIMITS)
    assert report.stopped_by == "max-time"
    assert report.run_pages < admin.memory.state["counts"]["pages"]


# --------------------------------------------------------------------------- the same memory, however it is run


def test_an_exploration_stopped_halfway_resumes_to_the_same_memory(admin, django_site, start_url, tmp_path):
    browser = ExploreBrowser(LaunchOptions(offline=True))
    try:
        tabs = logged_in_tabs(django_site, [browser])
        halfway = explore(tabs, start_url, tmp_path, max_pages=SAMPLE_PAGES // 2, **LIMITS)
        assert halfway.stopped_by == "max-pages"
        resumed = explore(tabs, start_url, tmp_path, max_pages=SAMPLE_PAGES, **LIMITS)
    finally:
        browser.close()
    assert resumed.stopped_by == "max-pages" and resumed.run_pages == SAMPLE_PAGES - SAMPLE_PAGES // 2
    assert differences(memory_digest(Memory(tmp_path, django_site.admin_url).path), admin.sample) == []


def test_two_workers_through_selenium_grid_write_the_same_memory(admin, django_site, start_url, selenium_grid, tmp_path):
    browsers = [RemoteExploreBrowser(selenium_grid.url, LaunchOptions(offline=True)) for _ in range(2)]
    try:
        tabs = logged_in_tabs(django_site, browsers)
        report = explore(tabs, start_url, tmp_path, max_pages=SAMPLE_PAGES, **LIMITS)
    finally:
        for b in browsers:
            b.close()
    assert report.stopped_by == "max-pages"
    assert all(t.clicks > 0 for t in tabs)  # both workers explored
    assert differences(memory_digest(Memory(tmp_path, django_site.admin_url).path), admin.sample) == []
