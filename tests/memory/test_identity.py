"""Stable element keys (pagemem/identity.py) on real snapshots of fixture pages: the same element gets the same
key on another load and on another page of its template; different elements get different keys."""

from __future__ import annotations

import pytest

from companion.pagemem.divide import divide_page
from companion.pagemem.identity import element_keys, list_item_keys
from tests.support.learning import load, named, open_menu
from tests.support.htmlsnap import snapshot_from_html
from tests.support.pagemem_served import section_with


def keys_by_name(pm) -> dict[str, list[str]]:
    keys = element_keys(pm)
    out: dict[str, list[str]] = {}
    for el in pm.all_elements():
        out.setdefault(f"{el.role} {el.name}", []).append(keys[el.key])
    return out


@pytest.mark.browser
def test_two_loads_of_one_page_give_every_element_the_same_key(browser, pages):
    first = load(browser, pages.url("pm_shop.html"))
    second = load(browser, pages.url("pm_shop.html"))
    assert keys_by_name(first) == keys_by_name(second)


@pytest.mark.browser
def test_a_key_does_not_depend_on_the_element_ids_of_the_document(browser, pages):
    pm = load(browser, pages.url("mem_orders.html"))
    before = keys_by_name(pm)
    open_menu(browser, pm, named(pm, "Actions"))  # the open menu takes element ids, and the page is re-read
    after = keys_by_name(pm)
    assert {name: after[name] for name in before} == before


@pytest.mark.browser
def test_pages_of_one_template_give_their_common_elements_the_same_keys(browser, pages):
    one = keys_by_name(load(browser, pages.url("pm_product_1.html")))
    two = keys_by_name(load(browser, pages.url("pm_product_2.html")))
    common = ["link Outfitters", "link Cart", "link Help", "combobox Size", "spinbutton Quantity", "button Add to cart",
              "link About us", "link Contact"]
    assert all(name in one for name in common), sorted(one)
    assert {n: one[n] for n in common} == {n: two[n] for n in common}


@pytest.mark.browser
def test_different_elements_of_a_page_have_different_keys(browser, pages):
    pm = load(browser, pages.url("pm_shop.html"))
    keys = element_keys(pm)
    assert len(set(keys.values())) == len(keys) == len(list(pm.all_elements()))
    carts = keys_by_name(pm)["button Add to cart"]  # six equal buttons, one per card: told apart by rank
    assert len(carts) == 6 and len(set(carts)) == 6


@pytest.mark.browser
def test_the_items_of_a_list_share_their_list_item_keys(browser, pages):
    pm = load(browser, pages.url("pm_shop.html"))
    grid = section_with(pm, "Trail Blazer")
    item_keys = list_item_keys(pm)
    per_item = [[item_keys[e.key] for e in item.all_elements()] for item in grid.items]
    assert all(keys == per_item[0] for keys in per_item)  # "the title link", "the cart button" of every card
    assert len(set(per_item[0])) == 2


@pytest.mark.browser
def test_menu_items_leading_to_different_pages_keep_their_own_list_item_keys(browser, pages):
    pm = load(browser, pages.url("pm_shop.html"))
    item_keys = list_item_keys(pm)
    menu = [item_keys[named(pm, name).key] for name in ("Home", "Shoes", "Bags", "Sale", "Help")]
    assert len(set(menu)) == 5  # /home, /shoes, ... are five destinations; /p/1 and /p/2 are one kind of page


def test_a_link_key_keeps_its_path_and_query_names_but_not_query_values():
    def key(href: str) -> str:
        pm = divide_page(snapshot_from_html(f"<html><body><p><a href='{href}'>Orders</a></p></body></html>",
                                            url="http://s.example/x"))
        return element_keys(pm)[next(pm.all_elements()).key]

    assert key("/orders?session=abc123") == key("/orders?session=zz9")  # a per-visit token is no identity
    assert key("/orders?session=abc123") != key("/orders")
    assert key("/orders") != key("/invoices")


def test_a_glyph_control_keeps_the_key_its_glyph_alone_gave():
    """Its name gained the glyph's meaning ("× (close)"); its stable key is still the one "×" gave, so what
    memory holds of it is found again."""
    pm = divide_page(snapshot_from_html('<div><p>Newsletter</p><button id="x">×</button></div>'))
    close = next(e for e in pm.all_elements() if e.attrs.get("id") == "x")
    assert close.name == "× (close)"
    before = element_keys(pm)[close.key]
    close.name = "×"
    assert element_keys(pm)[close.key] == before
