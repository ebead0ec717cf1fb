"""explore/controls.py on divided pages (DividePage over a snapshot of fixture HTML): which query links are a page's
controls, of which kind, and when a query variant shows the same view as its page."""

from __future__ import annotations

from pathlib import Path

from companion.explore.controls import is_same_view, page_controls, query_params_changed
from companion.pagemem.divide import divide_page
from tests.support.htmlsnap import snapshot_from_html

APP = Path(__file__).parent.parent / "fixtures" / "pages" / "app"
BASE = "http://depot.example/app/"


def divided(html: str, url: str):
    return divide_page(snapshot_from_html(html, url=url, title="Orders"))


def orders(query: str = "", html: str | None = None):
    return divided(html or (APP / "orders.html").read_text(), BASE + "orders.html" + query)


def test_a_list_page_has_a_search_box_a_filter_sortable_columns_and_pages():
    found = {(c.kind, c.param): c.choices for c in page_controls(orders(), {"status", "col", "p"})}
    assert found == {("search", "q"): [], ("filter", "status"): ["Paid", "Pending", "Shipped"],
                     ("sort", "col"): ["Number", "Date", "Total"], ("pagination", "p"): ["2", "3"]}


def test_only_parameters_found_to_be_controls_are_recorded_as_such():
    assert {(c.kind, c.param) for c in page_controls(orders(), {"status"})} == {("search", "q"), ("filter", "status")}


def test_a_query_variant_adds_or_changes_parameters_and_never_drops_one():
    assert query_params_changed(BASE + "orders.html?status=paid", BASE + "orders.html") == ("status",)
    assert query_params_changed(BASE + "orders.html?status=paid&col=date", BASE + "orders.html?status=paid") == ("col",)
    assert query_params_changed(BASE + "orders.html", BASE + "orders.html?status=paid") is None
    assert query_params_changed(BASE + "report.html?kind=sales", BASE + "orders.html") is None


def test_a_sorted_list_and_the_list_without_the_sites_chrome_show_the_lists_view():
    page = orders()
    html = (APP / "orders.html").read_text()
    popup = html[:html.index("<header>")] + html[html.index("</header>") + len("</header>"):]
    assert is_same_view(orders("?col=date"), page)
    assert is_same_view(orders("?popup=1", popup), page)


def test_a_page_with_other_sections_at_the_same_path_is_another_view():
    page = orders()
    html = (APP / "orders.html").read_text()
    other = html[:html.index("<table")] + "<form class='stock'><select name='w'><option>Main</option></select></form>" \
        + "<article class='notes'><p>Teapots: 4 left.</p></article>" + html[html.index("</table>") + len("</table>"):]
    assert not is_same_view(orders("?view=stock", other), page)


CUSTOMERS = ("<main><h1>Customers</h1><p><a href='c.html?_facets=1'>Show counts</a></p>"
             "<form><select name=action><option>---</option><option>Export</option></select><button>Go</button>"
             "<table><thead><tr><th><a href='c.html?o=-1'>Toggle sorting</a><a href='c.html?o=1'>Name</a></th><th><a href='c.html?o=2'>City</a></th><th>Spent</th>"
             "</tr></thead><tbody><tr><td>Ann</td><td>Lyon</td><td>3.00</td></tr><tr><td>Bo</td><td>Oslo</td><td>4.00</td>"
             "</tr></tbody></table></form><h3>By tier</h3><ul><li><a href='c.html?tier=gold'>Gold</a></li>"
             "<li><a href='c.html?tier=silver'>Silver</a></li></ul></main>")


def test_links_named_as_the_tables_columns_sort_and_an_underscore_parameter_is_a_view_flag():
    """A short table inside a form is no list of items, so no list header says where its links sit: they are named
    as its columns. A leading underscore marks the site's own flag ("Show counts"): no sort, no filter."""
    page = divided(CUSTOMERS, "http://depot.example/app/c.html")
    assert not any(s.kind == "list" for s in page.sections)
    found = {(c.kind, c.param): c.choices for c in page_controls(page, {"o", "_facets", "tier"})}
    assert found == {("sort", "o"): ["Name", "City"], ("view", "_facets"): ["Show counts"],
                     ("filter", "tier"): ["Gold", "Silver"]}


def test_a_date_bar_of_years_is_a_filter_and_numbered_pages_are_pagination():
    html = ("<main><h1>Orders</h1><nav><a href='o.html?placed__year=2023'>2023</a> <a href='o.html?placed__year=2024'>"
            "2024</a></nav><table><tr><th>Number</th></tr><tr><td>110</td></tr></table>"
            "<p><a href='o.html?p=2'>2</a> <a href='o.html?p=3'>3</a></p></main>")
    found = {(c.kind, c.param): c.choices for c in page_controls(divided(html, BASE + "o.html"), {"placed__year", "p"})}
    assert found == {("filter", "placed__year"): ["2023", "2024"], ("pagination", "p"): ["2", "3"]}
