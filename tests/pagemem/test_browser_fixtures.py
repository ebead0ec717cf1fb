"""DividePage and UpdateSection on real snapshots: fixture pages served on 127.0.0.1, real headless
Chromium with the real extension (tests/conftest.py `browser`, `open_page`)."""

from __future__ import annotations

import pytest

from benchmarks.divide_check import division_problems
from companion.pagemem.divide import divide_page
from companion.pagemem.template import matches_template
from companion.pagemem.update import update_page_mem
from tests.support.pagemem_served import divided, section_with

pytestmark = pytest.mark.browser


def snap(browser, open_page, name):
    open_page(name)
    return browser.run(browser.session.snapshot())


@pytest.fixture(scope="module")
def shop(browser, pages):
    return divided(browser, pages, "pm_shop.html")


def test_shop_division_satisfies_the_invariants(shop):
    snapshot, pm = shop
    assert division_problems(snapshot, pm) == []


def test_product_grid_is_a_list_with_one_item_per_card(shop):
    _, pm = shop
    grid = section_with(pm, "Trail Blazer")
    assert grid.kind == "list" and len(grid.items) == 6
    assert [e.name for e in grid.items[1].elements] == ["Trail Blazer", "Add to cart"]


def test_results_table_is_a_list_with_one_item_per_row(shop):
    _, pm = shop
    table = section_with(pm, "#103")
    assert table.kind == "list" and table.tag == "table" and len(table.items) == 5
    assert [e.name for e in table.items[2].elements] == ["#103"]


def test_form_is_a_form_section_without_password_value(shop):
    _, pm = shop
    form = section_with(pm, "Subscribe")
    assert form.kind == "form"
    names = [e.name for e in form.elements]
    assert names[:2] == ["Email", "Weekly digest"] and "Password" in names
    assert "[checked]" in form.details and 'value="Trail"' in form.details


def test_modal_is_a_modal_section(shop):
    _, pm = shop
    modal = pm.modal()
    assert modal is not None and [e.name for e in modal.elements] == ["Accept", "Decline"]


def test_navigation_bar_is_one_section_of_its_own(shop):
    _, pm = shop
    nav = section_with(pm, "Home")
    assert {e.name for e in nav.all_elements()} == {"Home", "Shoes", "Bags", "Sale", "Help"}


def test_clicking_the_menu_button_adds_exactly_the_revealed_items(browser, open_page):
    before = snap(browser, open_page, "pm_menu.html")
    pm = divide_page(before)
    button = next(e for e in pm.all_elements() if e.name == "Account")
    assert browser.run(browser.session.click(button.ref)).ok
    update = update_page_mem(pm, browser.run(browser.session.snapshot()))
    assert sorted(e.name for e in update.added_elements) == ["Addresses", "Payment methods", "Sign out", "Your orders"]
    assert not any(d.removed for d in update.diffs.values())
    (change,) = [c for d in update.diffs.values() for c in d.modified]
    assert change.after.name == "Account" and change.after.expanded is True


def test_same_template_products_match_and_a_different_page_does_not(browser, open_page):
    one = divide_page(snap(browser, open_page, "pm_product_1.html"))
    two = divide_page(snap(browser, open_page, "pm_product_2.html"))
    about = divide_page(snap(browser, open_page, "pm_about.html"))
    assert [s.content_hash for s in one.sections] != [s.content_hash for s in two.sections]  # content differs
    assert matches_template(one, two)
    assert not matches_template(one, about)
