"""A click that could not land as a person's would (the element covered by another) says so in the history."""

from __future__ import annotations

import pytest
from selenium.webdriver.common.by import By

from companion.act import execute
from tests.support.act_context import candidate_for

pytestmark = pytest.mark.browser


async def test_a_covered_elements_click_is_reported_as_covered(browser, open_page, make_ctx):
    open_page("ext_click.html")
    ctx = await make_ctx("Press the button under the overlay")
    outcome = await execute(ctx, candidate_for(ctx, "Under the overlay"), "press it")
    assert len(outcome.actions) == 1
    assert outcome.actions[0].startswith('Clicked button "Under the overlay" (<button id="under"> was covered by <div id="overlay">')
    assert browser.driver.find_element(By.ID, "under").get_attribute("data-n") == "1"
