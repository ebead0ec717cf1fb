"""A control the page marks chosen by its class alone ("selected", "active") reads as selected, in its line and in
what a click changed (pagemem/widgets.selected_by_class). Real Chromium, the real extension, execute()."""

from __future__ import annotations

import pytest

from companion.act import execute
from companion.act.candidates import element_candidate
from companion.pagemem.widgets import selected_by_class

pytestmark = pytest.mark.browser


async def test_a_button_marked_chosen_by_its_class_reads_selected_after_the_click(browser, open_page, make_ctx):
    # The default model clicked "Odd" for the first number five times: nothing it could see had changed.
    open_page("odd_even_rows.html")
    ctx = await make_ctx("Mark the numbers below as odd or even and press submit when done.")
    first_even = next(e for e in ctx.pagemem.all_elements() if e.name == "Even" and e.context == "-4")
    assert not first_even.selected
    outcome = await execute(ctx, element_candidate(first_even, ctx.pagemem.section_of(first_even.ref).id), "scripted")
    now = next(e for e in ctx.pagemem.all_elements() if e.name == "Even" and e.context == "-4")
    assert now.selected and not any(e.selected for e in ctx.pagemem.all_elements() if e.context == "3")
    assert any(c.after.key == now.key for d in outcome.changes.diffs.values() for c in d.modified), outcome.changes
    assert '"Even" [selected]' in ctx.pagemem.section_of(now.ref).details


def test_only_a_choosing_class_on_a_control_role_reads_selected():
    assert selected_by_class("button", {"class": "even selected"})
    assert selected_by_class("link", {"class": "nav-link active"})
    assert not selected_by_class("button", {"class": "unselected"}) and not selected_by_class("textbox", {"class": "active"})
