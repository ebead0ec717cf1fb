"""The panel at 360 px, in light and dark mode (prefers-color-scheme, emulated over CDP): nothing overflows sideways,
the dark scheme really applies, and screenshots of both are kept for a person to look at
(WEBCHALLENGER_PANEL_SHOTS, default /tmp/team: panel-light.png, panel-dark.png)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from companion.panel.passive import install_passive_learning
from companion.memory.passive import PassiveLearner
from tests.support.sidepanel import PRICE_TASK, WAIT_S, blue_price, shop_choice, type_task, wait_done

SHOTS = Path(os.environ.get("WEBCHALLENGER_PANEL_SHOTS", "/tmp/team"))
WIDTH, HEIGHT = 360, 1500


@pytest.fixture
def learning_switch(browser, memory_dir, tmp_path):
    """The learning switch answers (the site's policy: ask); nothing is learned while it does."""
    learning = install_passive_learning(browser.hub, PassiveLearner(memory_dir=memory_dir, policy_dir=tmp_path),
                                        enabled=True)
    yield learning
    learning.uninstall()


@pytest.fixture
def narrow(browser):
    size = browser.driver.get_window_size()
    browser.driver.set_window_size(WIDTH, HEIGHT)
    yield
    browser.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})
    browser.driver.set_window_size(size["width"], size["height"])


def _scheme(driver, scheme: str) -> None:
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": scheme}]})
    WebDriverWait(driver, 10).until(
        lambda d: d.execute_script(f"return matchMedia('(prefers-color-scheme: {scheme})').matches"))


def _background_luminance(driver) -> float:
    rgb = driver.execute_script("return getComputedStyle(document.body).backgroundColor")
    r, g, b = (int(v) for v in rgb[rgb.index("(") + 1:rgb.index(")")].split(",")[:3])
    return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255


def _overflow(driver) -> int:
    return driver.execute_script("return document.documentElement.scrollWidth - document.documentElement.clientWidth")


def test_the_panel_reads_at_360_px_in_light_and_dark(browser, pages, services, llm, learning_switch, narrow, panel):
    def choose(text, labels):
        if "How much do two" in text:
            from tests.support.agent_llm import index_of
            return index_of(labels, r"^end the task")
        return shop_choice(text, labels)

    llm(choose=choose, answer=lambda text: "Two cost $49.00." if "Its result: $24.50" in text else blue_price(text))
    with panel(pages.url("agent_shop.html")) as driver:
        assert driver.execute_script("return innerWidth") <= WIDTH
        type_task(driver, PRICE_TASK)
        wait_done(driver)
        type_task(driver, "How much do two of them cost?")  # a follow-up: the first task moves to the history
        wait_done(driver)
        wait = WebDriverWait(driver, WAIT_S)
        wait.until(lambda d: d.find_element(By.ID, "history").is_displayed())
        wait.until(lambda d: d.find_element(By.ID, "site").is_displayed() and d.find_element(By.ID, "learning").is_displayed())
        wait.until(lambda d: d.find_element(By.ID, "model").text not in ("", "…"))
        SHOTS.mkdir(parents=True, exist_ok=True)
        luminance = {}
        for scheme in ("light", "dark"):
            _scheme(driver, scheme)
            driver.execute_script("window.scrollTo(0, 0)")
            assert _overflow(driver) <= 0, f"{scheme}: the panel overflows sideways"
            luminance[scheme] = _background_luminance(driver)
            driver.save_screenshot(str(SHOTS / f"panel-{scheme}.png"))
        assert luminance["light"] > 0.9 and luminance["dark"] < 0.2
