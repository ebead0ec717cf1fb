"""A search box whose Enter does nothing is searched with its own button (act/search.py search_button). Real
Chromium, the real extension, execute() on a fixture page."""

from __future__ import annotations

import pytest

from companion.act import execute
from companion.act.candidates import element_candidate

pytestmark = pytest.mark.browser


async def test_enter_that_changes_nothing_is_followed_by_the_search_button(browser, open_page, make_ctx, scripted_llm,
                                                                           llm_client_for):
    # The default model pressed Enter in such a box five times, and the results never came.
    llm_client_for(scripted_llm(rules=[{"prompt": "search_query", "responses": ['{"value": "Beaulah"}']}]))
    open_page("search_button_only.html")
    ctx = await make_ctx('Enter "Beaulah" and press Search, then click the 2nd result.')
    field = next(e for e in ctx.pagemem.all_elements() if e.attrs.get("id") == "search-text")
    outcome = await execute(ctx, element_candidate(field, ctx.pagemem.section_of(field.ref).id), "scripted")
    assert outcome.actions[-2:] == ["Pressed Enter in textbox", 'Clicked button "Search"'], outcome.actions
    assert browser.driver.find_element("css selector", "#results a").text == "Beaulah result 1"
