"""The site card: what the companion knows of the current tab's site (counts from its memory, as `webchallenger
memory ls` reads them), and "Forget this site", which empties that memory (the `memory rm` code path) and leaves
the learning choice as it was."""

from __future__ import annotations

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from companion.memory import list_sites
from companion.memory.learn import learn_page
from companion.memory.learning_consent import learning_consent, set_learning_consent
from companion.memory.records import DropdownRecord, RevealedElement
from companion.memory.store import WebsiteMemStore, site_key
from companion.pagemem.divide import divide_page
from tests.support.sidepanel import WAIT_S


def _learn(browser, pages, memory_dir) -> dict:
    """Two pages of the fixture site learned as the agent would, one template and one dropdown; the counts read back."""
    site = site_key(pages.base)
    with WebsiteMemStore(site, memory_dir) as store:
        for name in ("agent_shop.html", "agent_kettles.html"):
            pagemem = divide_page(browser.snapshot(pages.url(name)))
            learn_page(store, pagemem, source="agent")
        store.add_template(pagemem)
        store.save_dropdown(DropdownRecord(trigger_key="k", url=pages.url("agent_shop.html"), role="button", name="Menu",
                                           elements=[RevealedElement(key="e", role="link", name="Tea")]))
        stats = store.stats()
        return {"pages": stats["pages"], "templates": stats["templates"], "dropdowns": len(store.dropdowns()),
                "bookmarks": stats["bookmarks"]}


def _counts(driver) -> dict:
    el = driver.find_element(By.ID, "site-counts")
    return {k: int(el.get_attribute(f"data-{k}") or -1) for k in ("pages", "templates", "dropdowns", "bookmarks")}


def test_the_site_card_shows_the_counts_from_memory(browser, pages, services, memory_dir, panel):
    known = _learn(browser, pages, memory_dir)
    assert (known["pages"], known["templates"], known["dropdowns"]) == (2, 1, 1)
    bookmarks = known["bookmarks"]  # learned from the pages' links (learn.py's rule)
    with panel(pages.url("agent_shop.html")) as driver:
        wait = WebDriverWait(driver, WAIT_S)
        wait.until(lambda d: d.find_element(By.ID, "site").is_displayed())
        assert _counts(driver) == known
        assert driver.find_element(By.ID, "site-host").text == pages.base.split("://", 1)[1]
        assert driver.find_element(By.ID, "site-counts").text == (
            "Knows 2 pages, 1 template, 1 dropdown" + (f", {bookmarks} bookmarks." if bookmarks else "."))


def test_forget_this_site_empties_its_memory_and_keeps_the_learning_choice(browser, pages, services, memory_dir, panel):
    _learn(browser, pages, memory_dir)
    set_learning_consent(pages.base, "block")  # the companion's own policy file (the site card reads no other)
    try:
        _forget(browser, pages, memory_dir, panel)
        assert learning_consent(pages.base) == "block"
    finally:
        set_learning_consent(pages.base, "ask")  # the default again, for the tests after this one


def _forget(browser, pages, memory_dir, panel) -> None:
    with panel(pages.url("agent_shop.html")) as driver:
        wait = WebDriverWait(driver, WAIT_S)
        wait.until(lambda d: d.find_element(By.ID, "site").is_displayed() and _counts(d)["pages"] == 2)
        driver.find_element(By.ID, "site-forget").click()
        assert "Forget everything the companion learned of" in driver.find_element(By.ID, "site-confirm-text").text
        assert site_key(pages.base) in dict(list_sites(memory_dir))  # nothing is gone before the confirmation
        driver.find_element(By.ID, "site-confirm-yes").click()
        wait.until(lambda d: _counts(d) == {"pages": 0, "templates": 0, "dropdowns": 0, "bookmarks": 0})
        assert driver.find_element(By.ID, "site-counts").text == "The companion knows nothing of this site yet."
        assert driver.find_element(By.ID, "site-forget").get_attribute("disabled") is not None
    assert site_key(pages.base) not in dict(list_sites(memory_dir))
