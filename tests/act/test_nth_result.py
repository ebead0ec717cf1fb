"""The Nth result a task asks for is counted over the list's pages (act/nth_result.py): another result is refused
once with it, or with the page link toward it (act/premature.py check_nth_result). Real Chromium, the real
extension, execute() on a fixture search page of three results a page."""

from __future__ import annotations

import pytest

from companion.act import execute
from companion.act.errors import NotYet
from tests.support.act_context import candidate_for, text_of

pytestmark = pytest.mark.browser

TASK = 'Use the textbox to enter "kettle" and press "Search", then find and click the 5th search result.'


async def test_the_page_shown_is_the_numbered_link_its_list_item_marks_chosen(browser, open_page, make_ctx):
    open_page("result_pages.html")
    ctx = await make_ctx(TASK)
    chosen = [e.name for e in ctx.pagemem.all_elements() if e.role == "link" and e.selected]
    assert chosen == ["1"], chosen


async def test_a_result_of_page_one_is_refused_once_with_the_link_to_the_page_that_holds_the_5th(
        browser, open_page, make_ctx):
    open_page("result_pages.html")
    ctx = await make_ctx(TASK)
    with pytest.raises(NotYet) as refused:
        await execute(ctx, candidate_for(ctx, "Result 1"), "scripted")
    said = str(refused.value)
    assert "the 5th search result is on page 2 (3 results a page, this is page 1)" in said and '("2")' in said, said
    assert text_of(browser, "#did") == "nothing"


async def test_on_its_page_another_result_is_refused_once_with_the_5th_and_the_5th_is_clicked(
        browser, open_page, make_ctx):
    open_page("result_pages.html")
    ctx = await make_ctx(TASK)
    await execute(ctx, candidate_for(ctx, "2"), "scripted")
    with pytest.raises(NotYet) as refused:
        await execute(ctx, candidate_for(ctx, "Result 4"), "scripted")
    assert 'the 5th search result is "Result 5" (2 of 3 on this page, page 2)' in str(refused.value), refused.value
    await execute(ctx, candidate_for(ctx, "Result 5"), "scripted")
    assert text_of(browser, "#did") == "Result 5"


async def test_a_task_that_counts_no_result_clicks_any_at_once(browser, open_page, make_ctx):
    open_page("result_pages.html")
    ctx = await make_ctx("Open Result 2.")
    await execute(ctx, candidate_for(ctx, "Result 2"), "scripted")
    assert text_of(browser, "#did") == "Result 2"
