"""Passive learning of pages: what the user browses in real Chromium becomes PageMems of allowed sites only."""

from __future__ import annotations

import time

from companion.memory.store import normalize_url
from companion.protocol import PageVisited
from tests.support.passive import WAIT_S, allow, stored_urls, tab_id_of, wait_for

QUIET_S = 4.0  # well past settle + interval: what was going to be reported has been


def _browse(driver, urls: list[str]) -> None:
    for url in urls:
        driver.get(url)


def test_browsing_three_pages_of_an_allowed_site_stores_three_pagemems(browser, pages, passive, user_tab, memory_dir, policy_dir):
    allow(pages.base, policy_dir)
    urls = [pages.url(f"passive/{name}.html") for name in ("home", "catalog", "about")]
    for url in urls:
        user_tab.get(url)
        wait_for(lambda: normalize_url(url) in stored_urls(memory_dir, url), f"{url} to be learned")
    assert stored_urls(memory_dir, urls[0]) == sorted(normalize_url(u) for u in urls)
    wait_for(lambda: len(passive.learner.history) == 3, "the third outcome")
    assert [(r.outcome, r.reason) for r in passive.learner.history] == [("learned", "page")] * 3


def test_a_blocked_site_stores_nothing(browser, pages, passive, user_tab, memory_dir, policy_dir):
    allow(pages.base, policy_dir, "block")
    allow(pages.other_base, policy_dir)
    _browse(user_tab, [pages.url("passive/home.html"), pages.url("passive/about.html")])
    # Reports are handled in order: once a later page of an allowed site is learned, the blocked ones had their turn.
    control = pages.other_url("passive/catalog.html")
    user_tab.get(control)
    wait_for(lambda: stored_urls(memory_dir, control), "the allowed site's page to be learned")
    assert stored_urls(memory_dir, pages.base) == []
    # Not even sent: the extension asked the site's policy and kept the pages to itself.
    assert [r.url for r in passive.learner.history] == [control]


def test_ask_stores_nothing_until_allowed_in_the_side_panel(browser, pages, passive, user_tab, memory_dir, policy_dir):
    from tests.support.passive import PANEL_URL, wait_panel

    first, current = pages.url("passive/home.html"), pages.url("passive/catalog.html")
    _browse(user_tab, [first, current])  # the default policy: ask
    time.sleep(QUIET_S)
    assert stored_urls(memory_dir, current) == [] and passive.learner.history == []
    page_tab = user_tab.current_window_handle
    user_tab.switch_to.new_window("tab")
    try:
        user_tab.get(PANEL_URL)
        panel = wait_panel(user_tab)
        panel.until(lambda d: d.find_element("id", "learn-question").is_displayed())
        user_tab.find_element("id", "learn-allow").click()
        # Allowed: the page in front of the user is learned now; the one seen while asking is not.
        wait_for(lambda: stored_urls(memory_dir, current), "the current page to be learned after Allow", WAIT_S)
    finally:
        user_tab.close()
        user_tab.switch_to.window(page_tab)
    assert stored_urls(memory_dir, current) == [normalize_url(current)]


def test_passive_learning_is_off_unless_the_companion_turns_it_on(browser, pages, passive, user_tab, memory_dir, policy_dir):
    allow(pages.base, policy_dir)
    passive.set_enabled(False)
    url = pages.url("passive/about.html")
    user_tab.get(url)
    time.sleep(QUIET_S)
    assert stored_urls(memory_dir, url) == []
    passive.set_enabled(True)  # the open page counts as visited once learning is on
    wait_for(lambda: stored_urls(memory_dir, url), "the open page to be learned once on")


def test_no_report_from_a_tab_the_companion_drives(browser, pages, passive, user_tab, memory_dir, policy_dir):
    allow(pages.base, policy_dir)
    first, driven = pages.url("passive/menu.html"), pages.url("passive/about.html")
    user_tab.get(first)
    wait_for(lambda: stored_urls(memory_dir, first), "the first page to be learned")
    browser.run(browser.session.snapshot(tab_id_of(browser, first)))  # a task's first request: the tab is the task's now
    user_tab.get(driven)
    time.sleep(QUIET_S)
    assert normalize_url(driven) not in stored_urls(memory_dir, driven)


def test_the_companion_drops_a_page_of_a_site_not_allowed_whatever_the_extension_sends(browser, pages, learner, policy_dir,
                                                                                        memory_dir):
    snapshot = browser.snapshot(pages.url("passive/home.html"))
    for policy in ("ask", "block"):
        allow(pages.base, policy_dir, policy)
        result = learner.page_visited(PageVisited(id="forged", tab_id=1, snapshot=snapshot))
        assert (result.outcome, result.reason) == ("dropped", f"policy {policy}")
    assert stored_urls(memory_dir, pages.base) == []
    allow(pages.base, policy_dir)
    assert learner.page_visited(PageVisited(id="v", tab_id=1, snapshot=snapshot)).outcome == "learned"
    assert stored_urls(memory_dir, pages.base) == [normalize_url(snapshot.url)]


def test_learning_goes_on_after_the_companion_restarts(browser, pages, passive, user_tab, memory_dir, policy_dir):
    allow(pages.base, policy_dir)
    old = browser.session
    browser.companion.restart()
    browser.wait_for_session(60, newer_than=old)  # the extension reconnects and is told the mode again
    url = pages.url("passive/catalog.html")
    user_tab.get(url)
    wait_for(lambda: stored_urls(memory_dir, url), "the page to be learned after the restart")
