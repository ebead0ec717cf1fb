"""The shop test site works as exploration and task tests need it: every admin page loads logged in,
the lists carry filters, search, pages, date drill-down and the actions menu, browsing writes nothing,
and reset() undoes a change."""

from __future__ import annotations

import shutil

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

from .server import LIST_PER_PAGE, MODELS, SEEDED_COUNTS

pytestmark = pytest.mark.browser

# Models whose admin has list filters, a search box, a date hierarchy and more than one page.
RICH_LISTS = ["customer", "order", "product"]


def css(browser, selector: str):
    return browser.driver.find_elements(By.CSS_SELECTOR, selector)


@pytest.mark.parametrize("model", MODELS)
def test_changelist_loads_logged_in_with_its_first_page_of_rows(admin_browser, django_site, model):
    admin_browser.open(django_site.changelist_url(model))
    assert admin_browser.driver.find_element(By.TAG_NAME, "h1").text == f"Select {model} to change"
    rows = css(admin_browser, "#result_list tbody tr")
    assert len(rows) == min(SEEDED_COUNTS[model], LIST_PER_PAGE[model])


@pytest.mark.parametrize("model", RICH_LISTS)
def test_long_changelist_has_filters_search_and_a_date_hierarchy(admin_browser, django_site, model):
    admin_browser.open(django_site.changelist_url(model))
    assert css(admin_browser, "#changelist-filter details"), "no list filter"
    assert css(admin_browser, "#changelist-search input[name=q]"), "no search box"
    assert css(admin_browser, "nav.toplinks a"), "no date hierarchy links"


@pytest.mark.parametrize("model", RICH_LISTS)
def test_long_changelist_spans_two_or_more_pages(admin_browser, django_site, model):
    admin_browser.open(django_site.changelist_url(model))
    page_links = [a.text for a in css(admin_browser, ".paginator a")]
    assert "2" in page_links
    admin_browser.open(django_site.changelist_url(model) + "?p=2")
    assert len(css(admin_browser, "#result_list tbody tr")) >= 1


def test_search_narrows_the_customer_list(admin_browser, django_site):
    admin_browser.open(django_site.changelist_url("customer"))
    box = admin_browser.driver.find_element(By.CSS_SELECTOR, "#changelist-search input[name=q]")
    box.send_keys("Elena\n")
    WebDriverWait(admin_browser.driver, 30).until(lambda d: "q=Elena" in d.current_url)
    names = [td.text for td in css(admin_browser, "#result_list tbody td.field-first_name")]
    assert names == ["Elena"]


def test_order_actions_menu_offers_delete_and_mark_as_shipped(admin_browser, django_site):
    admin_browser.open(django_site.changelist_url("order"))
    options = [o.get_attribute("value") for o in Select(admin_browser.driver.find_element(By.NAME, "action")).options]
    assert {"delete_selected", "mark_shipped"} <= set(options)


def test_order_change_page_has_autocomplete_fields_and_inline_rows(admin_browser, django_site):
    admin_browser.open(django_site.change_url("order", 1))
    autocompletes = {s.get_attribute("name") for s in css(admin_browser, "select.admin-autocomplete")}
    assert {"customer", "tags"} <= autocompletes
    # Select2 replaced the customer <select> once the admin's scripts (static files) ran.
    WebDriverWait(admin_browser.driver, 30).until(lambda d: d.find_elements(By.CSS_SELECTOR, ".field-customer .select2-selection"))
    assert css(admin_browser, "#lines-group table tbody tr.form-row.has_original"), "no saved order line rows"


def test_product_change_page_has_a_select_and_a_horizontal_filter(admin_browser, django_site):
    admin_browser.open(django_site.change_url("product", 1))
    assert Select(admin_browser.driver.find_element(By.NAME, "category")).first_selected_option.text
    WebDriverWait(admin_browser.driver, 30).until(lambda d: d.find_elements(By.ID, "id_tags_from"))


def test_browsing_every_list_and_change_page_leaves_the_database_unchanged(admin_browser, fresh_django_site):
    site = fresh_django_site
    before = site.db_digest()
    seen_before = len(site.requests())
    for model in MODELS:
        admin_browser.open(site.changelist_url(model))
        for pk in site.pks(model):
            admin_browser.open(site.change_url(model, pk))
        admin_browser.open(site.add_url(model))
    pages = [r for r in site.requests()[seen_before:] if r.path.startswith("/admin/shop/")]
    assert len(pages) == sum(SEEDED_COUNTS.values()) + 2 * len(MODELS)
    assert all(r.method == "GET" and r.status == 200 for r in pages)
    assert site.db_digest() == before


def test_reset_restores_the_database_after_a_bulk_action(admin_browser, fresh_django_site):
    site = fresh_django_site
    seeded = site.db_digest()
    # The newest pending order: the list shows newest first, so it is on the first page.
    pending = site.query("SELECT id FROM shop_order WHERE status = 'pending' ORDER BY placed_at DESC")[0][0]
    admin_browser.open(site.changelist_url("order"))
    driver = admin_browser.driver
    driver.find_element(By.CSS_SELECTOR, f"input.action-select[value='{pending}']").click()
    Select(driver.find_element(By.NAME, "action")).select_by_value("mark_shipped")
    driver.find_element(By.CSS_SELECTOR, "button[name=index]").click()
    WebDriverWait(driver, 30).until(lambda d: d.find_elements(By.CSS_SELECTOR, "ul.messagelist li.success"))
    assert site.query("SELECT status FROM shop_order WHERE id = ?", pending) == [("shipped",)]
    assert site.db_digest() != seeded

    site.reset()

    assert site.query("SELECT status FROM shop_order WHERE id = ?", pending) == [("pending",)]
    assert site.db_digest() == seeded


def test_a_profile_logged_in_once_opens_the_admin_logged_in_from_a_copy(django_site, tmp_path):
    from companion.bridge.launcher import CHROMEDRIVER
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    from .grid import remote_chromium_options

    django_site.login_profile(tmp_path / "profile")
    shutil.copytree(tmp_path / "profile", tmp_path / "copy", symlinks=True, ignore=shutil.ignore_patterns("Singleton*"))
    driver = webdriver.Chrome(options=remote_chromium_options(tmp_path / "copy"), service=Service(CHROMEDRIVER))
    try:
        driver.get(django_site.admin_url)
        assert driver.find_element(By.TAG_NAME, "h1").text == "Shop back office"
    finally:
        driver.quit()
