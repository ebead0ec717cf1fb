"""The items of a menu list inside a control clickable by its cursor alone are controls of their own (extension
snapshot.js listItems). Real Chromium, the real extension, execute() on a fixture page."""

from __future__ import annotations

import pytest

from companion.act import execute
from companion.act.candidates import element_candidate
from tests.support.act_context import candidate_for, text_of

pytestmark = pytest.mark.browser


async def test_an_open_menus_items_are_each_a_control(browser, open_page, make_ctx):
    # The default model saw one element named "Share via DM ... Report" and could not choose "Report".
    open_page("post_menu.html")
    ctx = await make_ctx('For the user @truman, click on the "Report" button.')
    more = next(e for e in ctx.pagemem.all_elements() if not (e.name or e.text))
    await execute(ctx, element_candidate(more, ctx.pagemem.section_of(more.ref).id), "scripted")
    names = [e.name for e in ctx.pagemem.all_elements()]
    assert {"Share via DM", "Mute", "Report"} <= set(names), names
    assert not any("Share via DM" in n and "Report" in n for n in names)
    await execute(ctx, candidate_for(ctx, "Report"), "scripted")
    assert text_of(browser, "#did") == "report"
