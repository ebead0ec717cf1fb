"""Exploration maps an application, not its URLs: a small back office (tests/fixtures/pages/app/) explored in real
Chromium with the real extension.

The site: a navigation bar on every page (Dashboard, Orders, a sales and a stock report, Change password, a
"Shop front" link out of the application, Log out); an orders list with a search box, a status filter, sortable
column headers and page numbers, all links that only change the list's query; a report page whose `kind`
parameter selects another view (a table of sales, or a warehouse form and notes), built by its script.
"""

from __future__ import annotations

import pytest

from tests.support.explore_admin import Memory, explore

pytestmark = pytest.mark.browser
APP = "app/index.html"


@pytest.fixture(scope="module")
def app(browser, pages, tmp_path_factory):
    from companion.explore.tabs import ExploreTab, first_tab

    memory_dir = tmp_path_factory.mktemp("app")
    url = pages.url(APP)
    tab = ExploreTab(browser.session, browser.run(first_tab(browser.session), 30), driver=browser.driver)
    report = explore([tab], url, memory_dir)
    return report, Memory(memory_dir, url)


def controls_of(memory: Memory, page: str) -> dict[str, dict]:
    return {f"{r['kind']}:{r['param']}": r for r in memory.rows("controls") if memory.rel(r["url"]) == page}


def test_links_that_only_sort_filter_or_page_a_list_are_its_controls_not_pages(app):
    report, memory = app
    assert report.stopped_by == "finished"
    assert "orders.html" in memory.pages
    assert not [p for p in memory.pages if p.startswith("orders.html?")]
    controls = controls_of(memory, "orders.html")
    assert controls["filter:status"]["choices"] == ["Paid", "Pending", "Shipped"]
    assert controls["sort:col"]["choices"] == ["Number", "Date", "Total"]
    assert controls["pagination:p"]["choices"] == ["2", "3"]
    assert memory.state["counts"]["controls"] >= 3  # one query link of each was loaded, none registered


def test_a_get_form_with_one_text_field_that_searches_is_the_lists_search_box(app):
    _, memory = app
    assert controls_of(memory, "orders.html")["search:q"]["label"] == "orders"


# The application's pages (the stock report is the dashboard's second link to report.html; "Shop front" leaves it).
APP_PAGES = {"index.html", "order_1.html", "orders.html", "password.html", "report.html?kind=sales",
             "report.html?kind=stock"}


def test_query_variants_cost_no_page_budget(pages, explore_tab, tmp_path):
    explore([explore_tab], pages.url(APP), tmp_path, max_pages=len(APP_PAGES) + 1)
    memory = Memory(tmp_path, pages.url(APP))
    assert APP_PAGES <= memory.pages and len(memory.pages) == len(APP_PAGES) + 1  # + the shop front


def test_a_query_that_selects_another_view_is_a_page_and_its_own_sort_is_its_control(app):
    _, memory = app
    assert {"report.html?kind=sales", "report.html?kind=stock"} <= memory.pages
    assert memory.template_of("report.html?kind=sales") != memory.template_of("report.html?kind=stock")
    assert "report.html?kind=sales&sort=region" not in memory.pages
    assert controls_of(memory, "report.html?kind=sales")["sort:sort"]["choices"] == ["Region"]


def test_bookmarks_are_the_navigation_named_by_what_each_page_holds(app):
    _, memory = app
    bookmarks = {memory.rel(b["url"]): b for b in memory.rows("bookmarks")}
    ranked = sorted(bookmarks, key=lambda url: bookmarks[url]["rank"])
    assert ranked[0] == "orders.html"  # navigation, and a list (sort, filter, pages)
    assert set(ranked[:4]) == {"orders.html", "report.html?kind=sales", "index.html", "report.html?kind=stock"}
    assert [bookmarks[url]["title"] for url in ("report.html?kind=sales", "report.html?kind=stock")] == [
        "Sales report", "Stock report"]  # one title ("Report"): told apart by their links' names
    orders = bookmarks["orders.html"]
    assert orders["title"] == "Orders"
    assert orders["note"] == ("list of orders; search (orders); sort by Number, Date, Total; filter by status; "
                              "pages")


def test_account_and_exit_pages_are_explored_but_are_not_bookmarks(app):
    _, memory = app
    assert "password.html" in memory.pages and [p for p in memory.pages if p.endswith("/app_front.html")]
    bookmarks = {memory.rel(b["url"]) for b in memory.rows("bookmarks")}
    assert {"index.html", "orders.html", "report.html?kind=sales", "report.html?kind=stock"} <= bookmarks
    assert not [b for b in bookmarks if b.endswith(("password.html", "app_front.html", "logout.html"))]
