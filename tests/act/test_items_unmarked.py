"""A submit while the task's choices were made for some items of a list and not for others is refused once per set
of items left (act/premature.py check_items_left_unmarked). Real Chromium, the real extension, execute()."""

from __future__ import annotations

import pytest

from companion.act import execute
from companion.act.candidates import element_candidate
from companion.act.errors import NotYet
from tests.support.act_context import candidate_for

pytestmark = pytest.mark.browser

TASK = "Mark the numbers below as odd or even and press submit when done."


def _choice(ctx, name: str, item: str):
    el = next(e for e in ctx.pagemem.all_elements() if e.name == name and e.context == item)
    return element_candidate(el, ctx.pagemem.section_of(el.ref).id)


async def test_a_submit_with_an_item_left_unmarked_is_refused_naming_that_item(browser, open_page, make_ctx):
    # The default model marked one number of three and pressed Submit.
    open_page("odd_even_rows.html")
    ctx = await make_ctx(TASK)
    await execute(ctx, _choice(ctx, "Even", "-4"), "scripted")
    with pytest.raises(NotYet) as refused:
        await execute(ctx, candidate_for(ctx, "Submit"), "scripted")
    assert '"3" has no "Even" or "Odd" chosen yet' in str(refused.value) and '"-4"' not in str(refused.value)


async def test_a_submit_with_every_item_marked_is_clicked(browser, open_page, make_ctx):
    open_page("odd_even_rows.html")
    ctx = await make_ctx(TASK)
    await execute(ctx, _choice(ctx, "Even", "-4"), "scripted")
    await execute(ctx, _choice(ctx, "Odd", "3"), "scripted")
    outcome = await execute(ctx, candidate_for(ctx, "Submit"), "scripted")
    assert outcome.actions == ['Clicked button "Submit"']


async def test_chosen_again_with_the_same_items_left_the_submit_is_clicked(browser, open_page, make_ctx):
    open_page("odd_even_rows.html")
    ctx = await make_ctx(TASK)
    await execute(ctx, _choice(ctx, "Even", "-4"), "scripted")
    with pytest.raises(NotYet):
        await execute(ctx, candidate_for(ctx, "Submit"), "scripted")
    outcome = await execute(ctx, candidate_for(ctx, "Submit"), "scripted")
    assert outcome.actions == ['Clicked button "Submit"']


async def test_odd_for_an_even_number_is_refused_once_with_its_even(browser, open_page, make_ctx):
    # The default model marked 0 and -1 both odd.
    open_page("odd_even_rows.html")
    ctx = await make_ctx(TASK)
    with pytest.raises(NotYet) as refused:
        await execute(ctx, _choice(ctx, "Odd", "-4"), "scripted")
    assert 'not clicked yet: -4 is even, so button "Even" (for "-4") is its choice' in str(refused.value), refused.value
    outcome = await execute(ctx, _choice(ctx, "Odd", "-4"), "scripted")  # chosen again: clicked
    assert outcome.actions == ['Clicked button "Odd" (for "-4")'], outcome.actions


async def test_the_choice_that_fits_the_number_is_clicked_at_once(browser, open_page, make_ctx):
    open_page("odd_even_rows.html")
    ctx = await make_ctx(TASK)
    outcome = await execute(ctx, _choice(ctx, "Odd", "3"), "scripted")
    assert outcome.actions == ['Clicked button "Odd" (for "3")'], outcome.actions
