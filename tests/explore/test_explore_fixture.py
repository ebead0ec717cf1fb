"""Exploration of a tiny shop (tests/fixtures/pages/explore/) in real Chromium with the real extension.

The site: a home page with a navigation bar (log-in, mailto and off-site links among it), an "Account menu"
button that reveals three entries, a "Delete account" button that sets a cookie when clicked, a newsletter
form; a product list of five items whose pages share one layout and each reveal reviews behind a button;
an about page linking to product 2 (so one product page is reached outside the list).
"""

from __future__ import annotations

import pytest

from tests.support.memory_dump import differences, memory_digest
from tests.support.explore_admin import FIXTURE_SITE, Memory, explore

pytestmark = pytest.mark.browser

EVERY_PAGE = ["index.html", "products.html", "product_1.html", "reviewer.html", "about.html", "product_2.html",
              "products.html?page=2", "orders.html", "settings.html"]
# The list's next page only changes its query and shows the list's view: a control of the list, not a page.
CONTROLS = ["products.html?page=2"]


@pytest.fixture(scope="module")
def explored(browser, pages, tmp_path_factory):
    """One uninterrupted exploration of the fixture shop, shared by the tests that only read what it learned."""
    from companion.explore.tabs import ExploreTab, first_tab

    memory_dir = tmp_path_factory.mktemp("explored")
    url = pages.url(FIXTURE_SITE)
    session = browser.session
    tab = ExploreTab(session, browser.run(first_tab(session), 30), driver=browser.driver)
    report = explore([tab], url, memory_dir)
    browser.driver.delete_all_cookies()
    return report, Memory(memory_dir, url), memory_dir


def test_every_reachable_page_is_registered_in_depth_first_order(explored):
    report, memory, _ = explored
    assert report.stopped_by == "finished"
    assert memory.explored_pages == EVERY_PAGE


def test_pages_of_one_template_are_registered_but_only_one_is_iterated(explored):
    _, memory, _ = explored
    assert memory.template_of("product_1.html") == memory.template_of("product_2.html")
    assert memory.template_of("product_1.html") in {t["id"] for t in memory.rows("templates")}
    assert memory.clicked_from("product_1.html")  # iterated: its links were clicked
    assert memory.clicked_from("product_2.html") == []  # matched the template: registered, not iterated
    assert memory.state["counts"]["template_pages"] == 1  # product_2 (the list's second page is one of its controls)


def test_only_one_list_item_is_explored(explored):
    _, memory, _ = explored
    assert not {"product_3.html", "product_4.html", "product_5.html"} & memory.pages
    assert [memory.rel(r["to_url"]) for r in memory.clicked_from("products.html") if r["in_list_item"]] == ["product_1.html"]
    assert memory.state["counts"]["skipped_by_list_item"] == 8  # title link and Compare button of items 2-5


def test_a_revealed_menu_is_recorded_as_the_triggers_dropdown_elements(explored):
    _, memory, _ = explored
    assert memory.dropdowns()["Account menu"] == ["Your orders", "Settings", "Sign out"]


def test_pages_behind_a_dropdown_are_explored(explored):
    _, memory, _ = explored
    opened = {memory.rel(r["to_url"]) for r in memory.clicked_from("index.html")}
    assert {"orders.html", "settings.html"} <= opened


def test_an_element_is_explored_once_per_site(explored):
    _, memory, _ = explored
    # "Show reviews" is on every product page; only the iterated one's click is recorded.
    assert [r["url"].rsplit("/", 1)[1] for r in memory.rows("dropdowns") if r["name"] == "Show reviews"] == ["product_1.html"]


def test_destructive_auth_and_submit_controls_are_never_clicked(explored, browser):
    _, memory, _ = explored
    assert "login.html" not in memory.pages  # the "Log in" link
    assert "subscribed.html" not in memory.pages  # the newsletter form's submit button
    assert all("example" not in r["to_url"] for r in memory.rows("links"))  # the off-site and mailto links
    skipped = memory.state["counts"]["skipped_unsafe"]
    assert skipped > 0


def test_delete_button_is_never_clicked(browser, pages, explore_tab, tmp_path):
    browser.driver.delete_all_cookies()
    explore([explore_tab], pages.url(FIXTURE_SITE), tmp_path, max_pages=1)
    assert "account_deleted" not in {c["name"] for c in browser.driver.get_cookies()}


# --------------------------------------------------------------------------- limits


def test_max_pages_is_respected(pages, explore_tab, tmp_path):
    report = explore([explore_tab], pages.url(FIXTURE_SITE), tmp_path, max_pages=2)
    assert report.stopped_by == "max-pages"
    assert Memory(tmp_path, pages.url(FIXTURE_SITE)).explored_pages == EVERY_PAGE[:2]


def test_max_depth_is_respected(pages, explore_tab, tmp_path):
    report = explore([explore_tab], pages.url(FIXTURE_SITE), tmp_path, max_depth=1)
    memory = Memory(tmp_path, pages.url(FIXTURE_SITE))
    assert report.stopped_by == "finished"
    # One click from home: products, about, orders, settings; product_1 and reviewer are two and three away.
    assert set(memory.explored_pages) == {"index.html", "products.html", "about.html", "orders.html", "settings.html"}
    assert memory.state["counts"]["beyond_depth"] > 0


def test_max_elements_is_respected(pages, explore_tab, tmp_path):
    explore([explore_tab], pages.url(FIXTURE_SITE), tmp_path, max_elements=2)
    memory = Memory(tmp_path, pages.url(FIXTURE_SITE))
    counts = memory.state["counts"]
    iterated = counts["pages"] - counts["template_pages"]
    assert counts["clicks"] <= 2 * iterated
    assert counts["skipped_by_limit"] > 0
    # The first two elements of the home page: "Home" (the page itself: no navigation) and "Products".
    assert [memory.rel(r["to_url"]) for r in memory.clicked_from("index.html")] == ["products.html"]


def test_max_time_is_respected(pages, explore_tab, tmp_path):
    # Far less than one page takes: the run stops before its first commit, and says why.
    report = explore([explore_tab], pages.url(FIXTURE_SITE), tmp_path, max_time=0.01)
    assert report.stopped_by == "max-time"
    assert report.run_pages == 0
    assert Memory(tmp_path, pages.url(FIXTURE_SITE)).rows("pages") == []


# --------------------------------------------------------------------------- resume and workers


def test_a_stopped_exploration_resumes_to_the_same_memory(explored, pages, explore_tab, tmp_path):
    url = pages.url(FIXTURE_SITE)
    first = explore([explore_tab], url, tmp_path, max_pages=3)
    assert first.stopped_by == "max-pages"
    second = explore([explore_tab], url, tmp_path)
    assert second.stopped_by == "finished" and second.run_pages == len(EVERY_PAGE) - len(CONTROLS) - 3
    _, _, uninterrupted = explored
    assert differences(memory_digest(Memory(tmp_path, url).path), memory_digest(Memory(uninterrupted, url).path)) == []


def test_two_workers_write_the_same_memory_as_one(explored, browser, pages, explore_tab, tmp_path):
    from companion.explore.tabs import ExploreTab

    url = pages.url(FIXTURE_SITE)
    session = browser.session
    second = browser.run(session.open_tab(url, active=False), 30)
    try:
        helper = ExploreTab(session, second.tab_id)
        report = explore([explore_tab, helper], url, tmp_path)
    finally:
        browser.driver.switch_to.window(browser.driver.window_handles[0])
        for handle in browser.driver.window_handles[1:]:
            browser.driver.switch_to.window(handle)
            browser.driver.close()
        browser.driver.switch_to.window(browser.driver.window_handles[0])
    assert report.stopped_by == "finished"
    assert helper.clicks > 0  # the second worker did explore pages ahead of the order
    _, _, one_worker = explored
    assert differences(memory_digest(Memory(tmp_path, url).path), memory_digest(Memory(one_worker, url).path)) == []


# --------------------------------------------------------------------------- summaries


def test_summaries_fill_every_page_and_section_through_the_llm(pages, explore_tab, tmp_path):
    from companion.explore.summaries import Summarizer
    from companion.llm import LLMClient
    from tests.support.agent_llm import AgentLLM

    overrides = {
        "section_summary": lambda text: {"purpose": "a region of the shop", "summary": "Links and text of the shop.",
                                         "state": "As first shown."},
        "page_summary": lambda text: {"summary": "A page of Tiny Shop."},
    }
    with AgentLLM(choose=lambda text, labels: 0, overrides=overrides) as server:
        summarize = Summarizer(LLMClient(spec=server.spec))
        explore([explore_tab], pages.url(FIXTURE_SITE), tmp_path, summarize=summarize, max_pages=3)
        asked = {r.prompt for r in server.requests}
    memory = Memory(tmp_path, pages.url(FIXTURE_SITE))
    stored = [r["pagemem"] for r in memory.rows("pages")]
    assert len(stored) == 3 and all(p["summary"] == "A page of Tiny Shop." for p in stored)
    assert all(s["summary"] for p in stored for s in p["sections"])
    # The fixture shop's sections are links, forms and short text: described by rule, so only pages cost calls.
    assert "page_summary" in asked and "section_summary" not in asked and summarize.calls > 0


def test_two_sites_are_explored_at_once_each_into_its_own_memory(pages, explore_tab, tmp_path):
    import asyncio

    from companion.explore.explorer import explore_sites
    from companion.explore.model import Limits
    from companion.memory.store import WebsiteMemStore, site_key

    urls = [pages.url(FIXTURE_SITE), pages.other_url(FIXTURE_SITE)]
    stores = {site_key(u): WebsiteMemStore(site_key(u), tmp_path) for u in urls}
    try:
        reports = asyncio.run(explore_sites(urls, stores, [explore_tab], Limits(max_pages=3)))
    finally:
        for store in stores.values():
            store.close()
    assert [r.stopped_by for r in reports] == ["max-pages", "max-pages"]
    assert [Memory(tmp_path, u).explored_pages for u in urls] == [EVERY_PAGE[:3], EVERY_PAGE[:3]]
