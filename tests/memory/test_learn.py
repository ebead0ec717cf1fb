"""memory/learn.py, the one way memory is written: pages, clicks that reveal or navigate, bookmarks, purposes."""

from __future__ import annotations

import pytest

from companion.act.dropdown import find_by_key
from companion.memory import learn
from companion.memory.store import WebsiteMemStore
from companion.pagemem.divide import divide_page
from tests.support.learning import learn_menu, load, named, open_menu
from tests.support.htmlsnap import snapshot_from_html

SITE = "http://depot.example"
NAV = "<nav><a href='/'>Home</a> <a href='/orders'>Orders</a> <a href='/logout'>Log out</a></nav>"
PROSE = "<p>" + "The warehouse team follows the orders of the week and ships the parcels that are packed. " * 2 + "</p>"


def page(path: str, body: str = PROSE, title: str = "") -> "PageMem":  # noqa: F821
    html = f"<html><body>{NAV}<main>{body}</main></body></html>"
    return divide_page(snapshot_from_html(html, url=SITE + path, title=title or path))


@pytest.fixture
def store(tmp_path):
    with WebsiteMemStore("depot.example", tmp_path) as s:
        yield s


# --------------------------------------------------------------------------- dropdowns


@pytest.mark.browser
def test_a_menu_learned_on_one_visit_is_known_on_the_next_load(browser, pages, store):
    learn_menu(browser, store, pages.url("mem_orders.html"), "Actions")
    again = load(browser, pages.url("mem_orders.html"))  # a new document: new element ids
    record = learn.known_dropdowns(store, again)[named(again, "Actions").key]
    assert [(e.role, e.name) for e in record.elements] == [
        ("button", "Mark shipped"), ("button", "Export as CSV"), ("button", "Archive old orders")]


@pytest.mark.browser
def test_the_elements_of_a_learned_menu_are_found_again_by_key_once_it_opens(browser, pages, store):
    learn_menu(browser, store, pages.url("mem_orders.html"), "Actions")
    again = load(browser, pages.url("mem_orders.html"))
    trigger = named(again, "Actions")
    record = learn.known_dropdowns(store, again)[trigger.key]
    revealed = open_menu(browser, again, trigger)
    found = [find_by_key(again, e.key, revealed) for e in record.elements]
    assert [el.name if el else None for el in found] == ["Mark shipped", "Export as CSV", "Archive old orders"]


MENU_PAGE = "<div class='bar'><button>Actions</button><div class='menu'>{items}</div></div>"
FILL = "".join(f"<p>Paragraph {i} about parcels, couriers and the weather at the depot this week.</p>" for i in range(12))
# Three page structures (sections differ) sharing the header and the Actions bar.
ORDERS = f"<section>{FILL}</section>"
INVOICES = f"<article><h2>Invoices</h2>{FILL}</article><aside>{FILL}</aside>"
RETURNS = f"<form><input name=q><button>Go</button></form><section>{FILL}</section><footer>{FILL}</footer>"


def learn_open_menu(store, path: str, items: list[str], body: str) -> None:
    """Learn `path` as it is with its Actions menu open showing `items`."""
    pm = page(path, MENU_PAGE.format(items="".join(f"<button>{i}</button>" for i in items)) + body)
    trigger = named(pm, "Actions")
    learn.learn_click(store, pm, trigger, revealed=[named(pm, i) for i in items])


def closed_menu_page(path: str, body: str):
    return page(path, MENU_PAGE.format(items="") + body)


def test_a_menu_every_page_agrees_on_is_known_on_a_page_never_clicked(store):
    learn_open_menu(store, "/orders", ["Mark shipped", "Export"], ORDERS)
    learn_open_menu(store, "/invoices", ["Mark shipped", "Export"], INVOICES)
    other = closed_menu_page("/returns", RETURNS)
    assert learn.known_dropdowns(store, other)[named(other, "Actions").key].labels() == ["Mark shipped", "Export"]


def test_a_trigger_that_opens_different_menus_on_different_pages_is_not_guessed_elsewhere(store):
    learn_open_menu(store, "/orders", ["Mark shipped"], ORDERS)
    learn_open_menu(store, "/invoices", ["Send reminder"], INVOICES)
    orders, returns = closed_menu_page("/orders", ORDERS), closed_menu_page("/returns", RETURNS)
    assert learn.known_dropdowns(store, orders)[named(orders, "Actions").key].labels() == ["Mark shipped"]
    assert learn.known_dropdowns(store, returns) == {}


def test_a_menu_seen_on_one_other_page_only_is_not_guessed_elsewhere(store):
    """One page's record is no agreement: a list's "By status" opens that list's statuses, not another's."""
    learn_open_menu(store, "/orders", ["Mark shipped", "Export"], ORDERS)
    returns = closed_menu_page("/returns", RETURNS)
    assert learn.known_dropdowns(store, returns) == {}


# --------------------------------------------------------------------------- links, templates, bookmarks


def test_a_click_that_navigated_is_counted_as_a_link_between_the_pages(store):
    home = page("/")
    for _ in range(2):
        learn.learn_click(store, home, named(home, "Orders"), navigated_to=SITE + "/orders")
    [link] = store.links()
    assert (link.from_url, link.to_url, link.name, link.clicks) == (SITE + "/", SITE + "/orders", "Orders", 2)
    assert store.page_stats()[SITE + "/orders"].clicks_in == 2


def test_a_page_reached_from_a_list_item_becomes_a_template_for_its_siblings(store):
    rows = "".join(f"<li class='row'><a href='/orders/{i}'>Order {i}</a></li>" for i in range(1, 6))
    listing = learn.learn_page(store, page("/orders", f"<ul class='rows'>{rows}</ul>{ORDERS}"), source="explore")
    assert any(s.kind == "list" for s in listing.sections)
    learn.learn_click(store, listing, named(listing, "Order 1"), navigated_to=SITE + "/orders/1")
    assert store.links()[0].in_list_item
    detail = "<h1>Order {n}</h1><p>Shipped to {who}, paid by card, three parcels.</p>" + INVOICES  # no list section
    learn.learn_page(store, page("/orders/1", detail.format(n=1, who="Ann")), source="explore")
    sibling = page("/orders/2", detail.format(n=2, who="Bo"))
    template = store.find_template(sibling)
    assert template is not None and template.example_url == SITE + "/orders/1"


def test_pages_linked_from_many_pages_become_bookmarks_and_log_out_never_does(store):
    for path in ("/", "/orders", "/help"):
        learn.learn_page(store, page(path, title={"/": "Home", "/orders": "Orders", "/help": "Help"}[path]), source="explore")
    bookmarks = store.bookmarks()
    assert [(b.url, b.title) for b in bookmarks] == [(SITE + "/", "Home"), (SITE + "/orders", "Orders")]
    assert all(b.learned and b.score == 2 for b in bookmarks)  # each linked from the two other pages


def test_visits_by_the_agent_or_the_user_make_a_bookmark_and_exploration_visits_do_not(store):
    deep = page("/reports/weekly", title="Weekly report")  # no page links to it
    for _ in range(3):
        learn.learn_page(store, deep, source="explore")
    assert SITE + "/reports/weekly" not in {b.url for b in store.bookmarks()}
    learn.learn_page(store, deep, source="passive")
    learn.learn_page(store, deep, source="agent")
    assert SITE + "/reports/weekly" in {b.url for b in store.bookmarks()}


def test_a_bookmark_the_user_made_stays_when_the_learned_ones_change(store):
    learn.add_bookmark(store, SITE + "/orders", "My orders", "the list to ship from")
    for path in ("/", "/orders", "/help"):
        learn.learn_page(store, page(path), source="explore")
    orders = [b for b in store.bookmarks() if b.url == SITE + "/orders"]
    assert [(b.title, b.learned) for b in orders] == [("My orders", False)]


# --------------------------------------------------------------------------- purposes


def bare(note: str) -> str:
    """A classless div in a div: the bare shape many unrelated regions of many sites share."""
    return "<div><div>" + "".join(f"<p>{note} {i}.</p>" for i in range(8)) + "</div></div>"


def test_sections_of_one_bare_shape_on_unrelated_pages_do_not_share_a_purpose(store):
    shipping = page("/checkout", bare("Parcels leave the warehouse within two days by courier") + ORDERS)
    profile = page("/profile", bare("Your name, e-mail address and language, editable here") + RETURNS)
    first = next(s for s in shipping.sections if "Parcels" in s.details)
    second = next(s for s in profile.sections if "language" in s.details)
    assert first.signature == second.signature and shipping.template_id != profile.template_id  # same bare shape
    first.purpose = "Shipping information"
    learn.learn_page(store, shipping, source="agent")
    learn.learn_page(store, profile, source="agent")
    assert second.purpose is None


def test_the_sections_of_pages_of_one_template_share_their_purposes(store):
    detail = "<h1>Order {n}</h1><p>Shipped to {who}, paid by card, three parcels, two of them already delivered.</p>" + INVOICES
    first = page("/orders/1", detail.format(n=1, who="Ann"))
    assert len(first.sections) > 2
    for s in first.sections:
        s.purpose = f"purpose of {s.tag}"
    learn.learn_page(store, first, source="agent")
    second = learn.learn_page(store, page("/orders/2", detail.format(n=2, who="Bo")), source="agent")
    assert [s.purpose for s in second.sections] == [s.purpose for s in first.sections]
