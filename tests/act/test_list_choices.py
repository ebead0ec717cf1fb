"""A list's own filter choices (links that only re-query this page) that the task does not name are not offered
when the page has many of them, nor a table's sort links when the task asks nothing about an order
(act/candidates.py unnamed_list_choices, sort_links_unasked); the pages and a choice the task names stay. Real
Chromium, the real extension, on a fixture page."""

from __future__ import annotations

import pytest

from companion.act.candidates import element_candidate, sort_links_unasked, unnamed_list_choices

pytestmark = pytest.mark.browser


async def _dropped(make_ctx, task: str) -> set[str]:
    """The names of the links left out."""
    ctx = await make_ctx(task)
    pm = ctx.pagemem
    offered = [element_candidate(el, s.id) for s in pm.sections for el in s.all_elements()]
    gone = unnamed_list_choices(task, pm, offered) | sort_links_unasked(task, pm, offered)
    return {pm.element_by_ref(c.element).name for c in offered if c.key in gone}


async def test_the_filter_choices_a_task_does_not_name_are_not_offered(browser, open_page, make_ctx):
    open_page("filtered_list.html")
    dropped = await _dropped(make_ctx, "How many discontinued products are there?")

    assert dropped == {"Audio", "Books", "Garden", "Kitchen", "Toys", "Home", "Active", "Draft",
                       "Name", "Price"}, dropped  # and the sort links: the task asks nothing about an order
    # Kept: the choice the task names, the pages, the rows, links to other pages.


async def test_a_task_that_asks_about_an_order_keeps_the_sort_links(browser, open_page, make_ctx):
    open_page("filtered_list.html")
    dropped = await _dropped(make_ctx, "Which discontinued product is the cheapest?")
    assert "Price" not in dropped and "Name" not in dropped and "Audio" in dropped, dropped


async def test_a_few_choices_are_all_offered(browser, open_page, make_ctx):
    open_page("orders_list.html")  # five status links: tabs of a list, not a panel
    assert await _dropped(make_ctx, "What is the price of the Turntable?") == set()
