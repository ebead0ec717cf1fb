"""The panel's layout holds with long content: a long result beside the follow-up leaves the "New task" button on
one line at its natural width. A screenshot is kept for a person to look at (WEBCHALLENGER_PANEL_SHOTS, default
/tmp/team: panel-long-result.png)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from selenium.webdriver.common.by import By

from tests.support.sidepanel import PRICE_TASK, shop_choice, type_task, wait_done

SHOTS = Path(os.environ.get("WEBCHALLENGER_PANEL_SHOTS", "/tmp/team"))
LONG_RESULT = "The Blue kettle costs $24.50; " + " ".join(["it boils a litre in three minutes and keeps it warm"] * 12)

# The button's size with its label laid out on one line, unconstrained: a copy of it, out of the flow.
_NATURAL = """
const button = arguments[0];
const copy = button.cloneNode(true);
copy.style.cssText = 'position: absolute; left: 0; top: 0; width: auto; white-space: nowrap; flex: none; visibility: hidden';
document.body.appendChild(copy);
const r = copy.getBoundingClientRect();
copy.remove();
const b = button.getBoundingClientRect();
return { natural_w: r.width, natural_h: r.height, w: b.width, h: b.height };
"""


@pytest.fixture
def narrow(browser):
    size = browser.driver.get_window_size()
    browser.driver.set_window_size(360, 900)
    yield
    browser.driver.set_window_size(size["width"], size["height"])


def test_a_long_result_leaves_the_new_task_button_on_one_line(browser, pages, services, llm, narrow, panel):
    """With a long result in the follow-up box, the New task button is as wide as its label and one line high."""
    llm(choose=shop_choice, answer=lambda text: LONG_RESULT)
    with panel(pages.url("agent_shop.html")) as driver:
        type_task(driver, PRICE_TASK)
        wait_done(driver)
        button = driver.find_element(By.ID, "followup-clear")
        assert button.is_displayed() and button.text == "New task"
        SHOTS.mkdir(parents=True, exist_ok=True)
        driver.save_screenshot(str(SHOTS / "panel-long-result.png"))
        size = driver.execute_script(_NATURAL, button)
    assert size["w"] >= size["natural_w"] - 0.5, size
    assert size["h"] <= size["natural_h"] + 0.5, size
