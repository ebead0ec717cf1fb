"""memory/bookmarks.py, the learned bookmarks: ranked navigation first, then the pages people use; named by what the
page holds; never a page no task starts from."""

from __future__ import annotations

from companion.memory.learn import learned_bookmarks
from companion.memory.records import PageStats

SITE = "http://depot.example"


def linked(n: int) -> list[str]:
    return [f"{SITE}/from/{i}" for i in range(n)]


def urls(stats: list[PageStats]) -> list[str]:
    return [b.url.removeprefix(SITE) for b in learned_bookmarks(stats)]


def test_the_sites_navigation_ranks_before_a_page_people_visited_more():
    stats = [PageStats(url=SITE + "/reports/weekly", title="Weekly report", visits=6),
             PageStats(url=SITE + "/orders", title="Orders", linked_from=linked(3)),
             PageStats(url=SITE + "/customers", title="Customers", linked_from=linked(4))]
    assert urls(stats) == ["/customers", "/orders", "/reports/weekly"]


def test_among_navigation_pages_the_ones_people_click_to_come_first():
    stats = [PageStats(url=SITE + "/customers", title="Customers", linked_from=linked(5)),
             PageStats(url=SITE + "/orders", title="Orders", linked_from=linked(5), clicks_in=2)]
    assert urls(stats) == ["/orders", "/customers"]


def test_among_equally_linked_menu_entries_a_list_comes_before_a_form():
    from companion.memory.records import ControlRecord

    stats = [PageStats(url=SITE + "/new-order", title="Add order", linked_from=linked(5)),
             PageStats(url=SITE + "/orders", title="Orders", linked_from=linked(5))]
    sort = ControlRecord(url=SITE + "/orders", kind="sort", param="o", choices=["Date"])
    assert [b.url.removeprefix(SITE) for b in learned_bookmarks(stats, [sort])] == ["/orders", "/new-order"]


def test_a_bookmark_is_named_by_its_title_and_what_the_page_holds():
    from companion.memory.records import ControlRecord

    orders = PageStats(url=SITE + "/orders", title="Orders | Depot back office", name="Orders", linked_from=linked(3))
    controls = [ControlRecord(url=orders.url, kind="search", param="q", label="number or customer"),
                ControlRecord(url=orders.url, kind="sort", param="o", label="o", choices=["Number", "Date"]),
                ControlRecord(url=orders.url, kind="filter", param="status__exact", label="status", choices=["Paid"]),
                ControlRecord(url=orders.url, kind="pagination", param="p", label="p", choices=["2", "3"])]
    [bookmark] = learned_bookmarks([orders], controls)
    assert bookmark.title == "Orders"
    assert bookmark.note == "list of orders; search (number or customer); sort by Number, Date; filter by status; pages"


def test_account_history_destructive_and_exit_pages_are_not_bookmarks():
    nav = linked(6)
    stats = [PageStats(url=SITE + "/admin", title="Site administration | Back office", linked_from=nav),
             PageStats(url=SITE + "/admin/shop/order", title="Select order | Back office", linked_from=nav),
             PageStats(url=SITE + "/admin/shop/order/3/change", title="Order 3 | Back office", visits=3),
             PageStats(url=SITE + "/admin/password_change", title="Password change | Back office", linked_from=nav),
             PageStats(url=SITE + "/admin/konto", title="Passwort ändern", linked_from=nav),
             PageStats(url=SITE + "/admin/shop/order/3/history", title="History | Back office", linked_from=nav),
             PageStats(url=SITE + "/admin/shop/order/3/delete", title="Are you sure?", linked_from=nav),
             PageStats(url=SITE + "/", title="Depot", name="Front", linked_from=nav)]  # outside the app's /admin
    assert urls(stats) == ["/admin", "/admin/shop/order", "/admin/shop/order/3/change"]


def test_the_site_memory_lists_learned_bookmarks_best_first(tmp_path):
    from companion.memory.store import WebsiteMemStore

    stats = [PageStats(url=SITE + "/help", title="Help", linked_from=linked(3)),
             PageStats(url=SITE + "/reports/weekly", title="Weekly report", visits=6)]
    with WebsiteMemStore("depot.example", tmp_path) as store:
        store.set_learned_bookmarks(learned_bookmarks(stats[1:]))  # stored first
        store.set_learned_bookmarks(learned_bookmarks(stats))
        assert [b.url.removeprefix(SITE) for b in store.bookmarks()] == ["/help", "/reports/weekly"]


def test_a_known_pages_list_under_a_filter_or_date_is_no_bookmark_of_its_own():
    nav = linked(4)
    stats = [PageStats(url=SITE + "/products/", title="Products", linked_from=nav),
             PageStats(url=SITE + "/products/?released__year=2023", title="2023", linked_from=nav),
             PageStats(url=SITE + "/products/search?q=lamp", title="Results", linked_from=nav)]  # its page: unknown
    assert urls(stats) == ["/products/", "/products/search?q=lamp"]
