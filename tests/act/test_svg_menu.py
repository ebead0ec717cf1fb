"""A small SVG with words in it (a pie menu drawn as shapes with <text> labels) is walked, so that its items are
controls a click reaches; an icon's SVG stays one picture. Real Chromium, the real extension, execute() on a fixture
page (extension/content/walk.js isLeaf)."""

from __future__ import annotations

import pytest

from companion.act import execute
from tests.support.act_context import candidate_for, text_of

pytestmark = pytest.mark.browser


async def test_the_items_of_an_svg_pie_menu_are_controls_once_it_is_open(browser, open_page, make_ctx):
    open_page("svg_menu.html")
    browser.driver.execute_script("document.getElementById('hub').dispatchEvent(new MouseEvent('click'))")
    ctx = await make_ctx('Click on the item labeled "Beta".')
    names = [e.name for e in ctx.pagemem.all_elements()]
    assert {"Alpha", "Beta", "Gamma"} <= set(names), names
    await execute(ctx, candidate_for(ctx, "Beta"), "scripted")
    assert text_of(browser, "#did") == "Beta"


async def test_the_hub_of_an_svg_menu_is_named_by_its_title_and_opens_the_menu(browser, open_page, make_ctx,
                                                                               scripted_llm, llm_client_for):
    # The opened menu's entries are offered to the model: the scripted one picks none of them (-1).
    answer = '{"reason": "only open it", "index": -1}'
    llm_client_for(scripted_llm(rules=[{"prompt": "dropdown_option", "responses": [answer] * 3}]))
    open_page("svg_menu.html")
    ctx = await make_ctx("Expand the pie menu.")
    await execute(ctx, candidate_for(ctx, "menu"), "scripted")
    assert browser.driver.find_element("id", "items").is_displayed()


async def test_an_icons_svg_stays_one_picture(browser, open_page, make_ctx):
    open_page("svg_menu.html")
    ctx = await make_ctx("Open the settings.")
    tags = [e.tag for e in ctx.pagemem.all_elements()]
    assert tags.count("circle") == 1, tags  # the hub; the icon's circle is not walked
    assert any('img "Settings"' in s.details for s in ctx.pagemem.sections)
