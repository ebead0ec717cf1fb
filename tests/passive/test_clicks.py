"""The user's own clicks: one that opens a menu gives its trigger those dropdown elements (found again on the next
visit by stable key), one that navigates links the two pages, and a click a page script makes is not the user's."""

from __future__ import annotations

import time

from selenium.webdriver.common.by import By

from companion.memory.learn import known_dropdowns
from companion.memory.store import normalize_url
from companion.pagemem.divide import divide_page
from companion.pagemem.identity import element_keys
from companion.pagemem.update import update_page_mem
from tests.support.passive import allow, read_memory, stored_urls, tab_id_of, wait_for

MENU = ["Profile", "Orders", "Settings"]


def _learned(passive, reason: str) -> list:
    return [r for r in passive.learner.history if r.outcome == "learned" and r.reason == reason]


def _open_page(driver, memory_dir, url: str, passive) -> None:
    before = len(_learned(passive, "page"))
    driver.get(url)
    wait_for(lambda: len(_learned(passive, "page")) > before and normalize_url(url) in stored_urls(memory_dir, url),
             f"{url} to be learned")


def test_a_click_that_opens_a_menu_is_remembered_and_found_again_on_the_next_visit(browser, pages, passive, user_tab,
                                                                                     memory_dir, policy_dir):
    allow(pages.base, policy_dir)
    url = pages.url("passive/menu.html")
    _open_page(user_tab, memory_dir, url, passive)
    user_tab.find_element(By.ID, "account").click()  # a real, trusted click
    wait_for(lambda: _learned(passive, "revealing click"), "the click to be learned")
    records = read_memory(memory_dir, url, lambda s: s.dropdowns(), [])
    assert [(r.name, r.source, r.labels()) for r in records] == [("Account", "passive", MENU)]

    # The next visit: a new document (new element ids); the trigger is known by its stable key before any click.
    _open_page(user_tab, memory_dir, url, passive)
    tab = tab_id_of(browser, url)
    page = divide_page(browser.run(browser.session.snapshot(tab)))
    known = read_memory(memory_dir, url, lambda s: known_dropdowns(s, page), {})
    trigger = next(e for e in page.all_elements() if e.name == "Account")
    assert list(known) == [trigger.key] and known[trigger.key].labels() == MENU
    # Opened again, its entries are the remembered ones, by stable key (the page updated as the agent updates it).
    user_tab.find_element(By.ID, "account").click()
    wait_for(lambda: user_tab.find_element(By.LINK_TEXT, "Profile").is_displayed(), "the menu to open")
    opened = page.model_copy(deep=True)
    update_page_mem(opened, browser.run(browser.session.snapshot(tab)))
    keys = element_keys(opened)
    by_key = {keys[e.key]: e.name for e in opened.all_elements()}
    assert [by_key.get(e.key) for e in known[trigger.key].elements] == MENU


def test_a_click_that_navigates_links_the_two_pages(browser, pages, passive, user_tab, memory_dir, policy_dir):
    allow(pages.base, policy_dir)
    home, about = pages.url("passive/home.html"), pages.url("passive/about.html")
    _open_page(user_tab, memory_dir, home, passive)
    user_tab.find_element(By.LINK_TEXT, "About us").click()
    wait_for(lambda: normalize_url(about) in stored_urls(memory_dir, about), "the page the click led to")
    links = read_memory(memory_dir, home, lambda s: s.links(), [])
    assert [(link.from_url, link.to_url, link.name) for link in links] == [(normalize_url(home), normalize_url(about), "About us")]
    stats = read_memory(memory_dir, home, lambda s: s.page_stats(), {})
    assert stats[normalize_url(about)].clicks_in == 1


def test_a_click_the_page_script_makes_is_not_reported(browser, pages, passive, user_tab, memory_dir, policy_dir):
    allow(pages.base, policy_dir)
    url = pages.url("passive/menu.html")
    _open_page(user_tab, memory_dir, url, passive)
    user_tab.execute_script("document.getElementById('account').click()")  # untrusted: the menu opens all the same
    assert user_tab.find_element(By.LINK_TEXT, "Profile").is_displayed()
    time.sleep(3.0)
    assert not [r for r in passive.learner.history if "click" in r.reason]
    user_tab.find_element(By.ID, "account").click()  # the user's own click (it closes the menu) is reported
    wait_for(lambda: [r for r in passive.learner.history if "click" in r.reason], "the trusted click")
    assert [r.reason for r in passive.learner.history if "click" in r.reason] == ["click"]
    assert read_memory(memory_dir, url, lambda s: s.dropdowns(), []) == []
