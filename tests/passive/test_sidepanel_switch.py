"""The side panel's learning switch for the current tab's site: ask is one question, allow and block a choice,
set through the companion (the policy file is the companion's), and it reads well at 360 px."""

from __future__ import annotations

import contextlib
import re

from selenium.webdriver.common.by import By

from companion.memory.learning_consent import learning_consent
from tests.support.passive import PANEL_URL, allow, wait_panel


@contextlib.contextmanager
def panel_for(driver, url: str):
    """`url` in the current tab, the side panel page in a new tab next to it (the page is the current site)."""
    driver.get(url)
    page = driver.current_window_handle
    driver.switch_to.new_window("tab")
    try:
        driver.get(PANEL_URL)
        yield wait_panel(driver)
    finally:
        driver.close()
        driver.switch_to.window(page)


def _pressed(driver) -> list[str]:
    return [b.get_attribute("data-policy") for b in driver.find_elements(By.CSS_SELECTOR, ".learn-choices button")
            if b.get_attribute("aria-pressed") == "true"]


def test_ask_is_one_question_and_block_is_recorded_by_the_companion(browser, pages, passive, user_tab, policy_dir):
    with panel_for(user_tab, pages.url("passive/home.html")) as wait:
        question = user_tab.find_element(By.ID, "learn-question")
        assert question.is_displayed() and "Learn this site while you browse?" in question.text
        assert not user_tab.find_element(By.ID, "learn-state").is_displayed()
        user_tab.find_element(By.ID, "learn-block").click()
        wait.until(lambda d: d.find_element(By.ID, "learn-state").is_displayed())
        assert not question.is_displayed()
        assert user_tab.find_element(By.ID, "learn-status").text.startswith("Not learning 127.0.0.1")
        assert _pressed(user_tab) == ["block"]
    assert learning_consent(pages.base, policy_dir) == "block"


def test_the_switch_shows_the_sites_policy_and_changes_it(browser, pages, passive, user_tab, policy_dir):
    allow(pages.base, policy_dir)
    with panel_for(user_tab, pages.url("passive/about.html")) as wait:
        wait.until(lambda d: _pressed(d) == ["allow"])
        assert user_tab.find_element(By.ID, "learn-status").text.startswith("Learning 127.0.0.1")
        assert not user_tab.find_element(By.ID, "learn-paused").is_displayed()  # nobody but the user drove this tab
        user_tab.find_element(By.CSS_SELECTOR, '.learn-choices button[data-policy="ask"]').click()
        wait.until(lambda d: d.find_element(By.ID, "learn-question").is_displayed())
    assert learning_consent(pages.base, policy_dir) == "ask"


def test_the_switch_reads_well_at_360_px(browser, pages, passive, user_tab, policy_dir):
    size = user_tab.get_window_size()
    user_tab.set_window_size(360, 800)
    try:
        with panel_for(user_tab, pages.url("passive/about.html")) as wait:
            assert user_tab.execute_script("return innerWidth") <= 360
            # The panel also shows the last task: long enough to scroll (a scrollbar narrows the panel), and its
            # steps carry long unbroken URLs and actions.
            long_url = pages.url("passive/" + "a" * 120 + ".html?q=" + "b" * 80)
            user_tab.execute_script(
                "return chrome.storage.session.set({task: {task_id: 't', running: false, events: ["
                "{kind: 'step', page: 'Page', url: arguments[0]},"
                "{kind: 'action', reason: 'r', actions: ['click(' + arguments[0] + ')']}]"
                ".concat(Array.from({length: 30}, (_, i) => ({kind: 'note', text: 'note ' + i})))}})", long_url)
            wait.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#steps li")) >= 1)
            assert user_tab.execute_script("return document.documentElement.scrollHeight > innerHeight")
            # Ask: one line, the question and its two answers.
            question = user_tab.find_element(By.ID, "learn-question")
            answer = user_tab.find_element(By.ID, "learn-allow").rect
            assert question.rect["height"] < 2 * answer["height"]
            user_tab.find_element(By.ID, "learn-allow").click()
            wait.until(lambda d: _pressed(d) == ["allow"])
            overflow = user_tab.execute_script("return document.documentElement.scrollWidth - document.documentElement.clientWidth")
            assert overflow <= 0
            row = user_tab.find_element(By.ID, "learn-state").rect
            buttons = [b.rect for b in user_tab.find_elements(By.CSS_SELECTOR, ".learn-choices button")]
            assert all(b["x"] >= row["x"] and b["x"] + b["width"] <= row["x"] + row["width"] + 1 for b in buttons)
            assert len({round(b["y"]) for b in buttons}) == 1  # the three choices stay on one line
    finally:
        user_tab.set_window_size(size["width"], size["height"])


def test_the_panel_says_why_learning_waits_in_a_tab_the_agent_just_drove(browser, pages, passive, user_tab, policy_dir):
    """After a task, learning in its tab waits a minute (the agent's pages are not the user's browsing); the panel
    says so, with the time left, instead of seeming to have stopped learning."""
    allow(pages.base, policy_dir)
    user_tab.get(pages.url("passive/about.html"))
    browser.run(browser.session.snapshot_result())  # the companion reads the tab, as every step of a task does
    with panel_for(user_tab, pages.url("passive/about.html")) as wait:
        wait.until(lambda d: d.find_element(By.ID, "learn-paused").is_displayed())
        text = user_tab.find_element(By.ID, "learn-paused").text
        assert re.fullmatch(r"Resumes in this tab in (\d+) s: the agent drove it a moment ago, and its pages are "
                            r"not learnt as your browsing\.", text), text
        assert 0 < int(re.search(r"\d+", text).group()) <= 60
        assert user_tab.find_element(By.ID, "learn-status").text.startswith("Learning 127.0.0.1")
