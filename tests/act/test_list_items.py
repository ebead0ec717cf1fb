"""The items of a menu list inside a control clickable by its cursor alone are controls of their own (extension
snapshot.js listItems). Real Chromium, the real extension, execute() on a fixture page."""

from __future__ import annotations

import pytest
from selenium.webdriver.common.by import By

from companion.act import execute
from companion.act.candidates import element_candidate
from tests.support.act_context import candidate_for, text_of

pytestmark = pytest.mark.browser


async def test_an_open_menus_items_are_each_a_control(browser, open_page, make_ctx, scripted_llm, llm_client_for):
    # The default model saw one element named "Share via DM ... Report" and could not choose "Report".
    server = scripted_llm()  # no call: the task quotes the entry the menu shows
    llm_client_for(server)
    open_page("post_menu.html")
    ctx = await make_ctx('For the user @truman, click on the "Report" button.')
    more = next(e for e in ctx.pagemem.all_elements() if e.name == "more")  # its icon, not the closed menu, names it
    await execute(ctx, element_candidate(more, ctx.pagemem.section_of(more.ref).id), "scripted")
    names = [e.name for e in ctx.pagemem.all_elements()]
    assert {"Share via DM", "Mute", "Report"} <= set(names), names
    assert not any("Share via DM" in n and "Report" in n for n in names)
    assert text_of(browser, "#did") == "report"  # the entry the task quotes, taken as the menu opened
    assert not server.requests


async def test_the_items_of_a_focusable_suggestion_list_are_each_a_control(browser, open_page, make_ctx):
    # An autocomplete's list was one element; clicked, its centre picked "Burkina Faso" for "ends with ia".
    open_page("focusable_suggestions.html")
    ctx = await make_ctx('Enter an item that starts with "Bu" and ends with "ia".')
    outcome = await execute(ctx, candidate_for(ctx, "Tags:"), "scripted")
    assert outcome.actions == ['Typed "Bu" into textbox "Tags:"', 'Clicked listitem "Bulgaria"'], outcome.actions
    assert browser.driver.find_element(By.ID, "tags").get_attribute("value") == "Bulgaria"
