"""Exploring a real web application: the shop's Django admin (tests/djangosite), logged in, summaries off.

One uninterrupted exploration in a launched Chromium with the real extension is shared by the tests that
read what it learned; the interrupted-and-resumed run and the two-worker run through Selenium Grid must end
with the same memory (memory_digest: every table, every row).
"""

from __future__ import annotations

import re
from types import SimpleNamespace

import pytest

from companion.bridge.launcher import LaunchOptions
from companion.explore.digest import differences, memory_digest
from companion.explore.tabs import ExploreBrowser, RemoteExploreBrowser, start_browser
from tests.djangosite.server import MODELS
from tests.explore.conftest import Memory, explore

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.app_explore]
# Three clicks from the admin index reach every model's list (1), its change pages (2) and pages linked from
# those (3); the date drill-downs below that add time, not coverage. Every run here uses the same limits.
LIMITS = dict(max_depth=3)


def logged_in_tabs(django_site, browsers):
    tabs = [start_browser(b) for b in browsers]
    for b in browsers:
        django_site.login(b.driver)
    return tabs


@pytest.fixture(scope="module")
def admin(django_site, tmp_path_factory):
    memory_dir = tmp_path_factory.mktemp("admin")
    browser = ExploreBrowser(LaunchOptions(offline=True))
    try:
        tabs = logged_in_tabs(django_site, [browser])
        before, seen = django_site.db_digest(), len(django_site.requests())
        report = explore(tabs, django_site.admin_url, memory_dir, **LIMITS)
        return SimpleNamespace(report=report, memory=Memory(memory_dir, django_site.admin_url), db_before=before,
                               db_after=django_site.db_digest(), requests=django_site.requests()[seen:])
    finally:
        browser.close()


def change_pages(memory: Memory, model: str) -> list[str]:
    """The model's change pages (popup windows, which show another layout, left out)."""
    return sorted(p for p in memory.pages if re.fullmatch(rf"admin/shop/{model}/\d+/change(\?.*)?", p) and "_popup" not in p)


def test_the_exploration_finishes(admin):
    assert admin.report.stopped_by == "finished"


@pytest.mark.parametrize("model", MODELS)
def test_every_models_list_and_change_pages_are_registered(admin, model):
    assert f"admin/shop/{model}" in admin.memory.pages
    assert change_pages(admin.memory, model)


@pytest.mark.parametrize("model", MODELS)
def test_a_models_change_pages_are_one_template_and_only_one_is_iterated(admin, model):
    memory = admin.memory
    pages = change_pages(memory, model)
    templates = {memory.template_of(p) for p in pages}
    assert len(templates) == 1 and templates <= {t["id"] for t in memory.rows("templates")}
    assert len([p for p in pages if p in {memory.rel(u) for u in memory.state["iterated"]}]) == 1


def test_a_change_page_reached_from_another_page_is_registered_but_not_iterated(admin):
    # A category's parent is shown as a link to the parent's change page: a second page of the template.
    pages = change_pages(admin.memory, "category")
    assert len(pages) >= 2


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


def test_an_exploration_stopped_halfway_resumes_to_the_same_memory(admin, django_site, tmp_path):
    browser = ExploreBrowser(LaunchOptions(offline=True))
    try:
        tabs = logged_in_tabs(django_site, [browser])
        halfway = explore(tabs, django_site.admin_url, tmp_path, max_pages=admin.memory.state["counts"]["pages"] // 2, **LIMITS)
        assert halfway.stopped_by == "max-pages"
        resumed = explore(tabs, django_site.admin_url, tmp_path, **LIMITS)
    finally:
        browser.close()
    assert resumed.stopped_by == "finished"
    assert differences(memory_digest(Memory(tmp_path, django_site.admin_url).path), memory_digest(admin.memory.path)) == []


def test_two_workers_through_selenium_grid_write_the_same_memory(admin, django_site, selenium_grid, tmp_path):
    browsers = [RemoteExploreBrowser(selenium_grid.url, LaunchOptions(offline=True)) for _ in range(2)]
    try:
        tabs = logged_in_tabs(django_site, browsers)
        report = explore(tabs, django_site.admin_url, tmp_path, **LIMITS)
    finally:
        for b in browsers:
            b.close()
    assert report.stopped_by == "finished"
    assert all(t.clicks > 0 for t in tabs)  # both workers explored
    assert differences(memory_digest(Memory(tmp_path, django_site.admin_url).path), memory_digest(admin.memory.path)) == []
