"""A list's own filter choices (links that only re-query this page) that the task does not name are not offered
when the page has many of them, nor a table's sort links when the task asks nothing about an order
(act/list_choices.py unnamed_list_choices, act/candidates.py sort_links_unasked); the pages and a choice the task names stay. Nor, in
a question, a link that adds or deletes a record (record_edits_unasked). Real Chromium, the real extension, on a
fixture page."""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest

from companion.act.candidates import element_candidate, record_edits_unasked, sort_links_unasked
from companion.act.list_choices import named_list_choices, polarity, unnamed_list_choices, with_facet_titles
from tests.support.act_context import names_left_out, names_of, offered_on

pytestmark = pytest.mark.browser


async def _dropped(make_ctx, task: str) -> set[str]:
    """The names of the links left out."""
    return await names_left_out(make_ctx, task, unnamed_list_choices, sort_links_unasked)


async def test_the_filter_choices_a_task_does_not_name_are_not_offered(browser, open_page, make_ctx):
    open_page("filtered_list.html")
    dropped = await _dropped(make_ctx, "How many discontinued products are there?")

    assert dropped == {"Audio", "Books", "Garden", "Kitchen", "Toys", "Home", "Active", "Draft", "2023", "2024",
                       "Name", "Price"}, dropped  # and the sort links: the task asks nothing about an order
    # Kept: the choice the task names, the pages, the rows, links to other pages.


async def test_a_date_bar_offered_without_the_filter_panel_is_still_one_of_the_lists_many_choices(browser, open_page, make_ctx):
    # Section selection may leave the panel out and keep the years beside the table: "2024" is no page of the list.
    open_page("filtered_list.html")
    task = "What is the price of the Turntable?"
    ctx, offered = await offered_on(make_ctx, task)
    years = [c for c in offered if ctx.pagemem.element_by_ref(c.element).name in ("2023", "2024")]
    assert names_of(ctx, years, unnamed_list_choices(task, ctx.pagemem, years)) == {"2023", "2024"}


async def test_a_task_that_asks_about_an_order_keeps_the_sort_links(browser, open_page, make_ctx):
    open_page("filtered_list.html")
    dropped = await _dropped(make_ctx, "Which discontinued product is the cheapest?")
    assert "Price" not in dropped and "Name" not in dropped and "Audio" in dropped, dropped


async def test_a_few_choices_are_all_offered(browser, open_page, make_ctx):
    open_page("orders_list.html")  # five status links: tabs of a list, not a panel
    assert await _dropped(make_ctx, "What is the price of the Turntable?") == set()


async def _edits_dropped(make_ctx, task: str) -> set[str]:
    return await names_left_out(make_ctx, task, record_edits_unasked)


async def test_a_question_is_not_offered_the_link_that_adds_a_record(browser, open_page, make_ctx):
    open_page("list_with_search.html")
    assert await _edits_dropped(make_ctx, "What is the price of the Metronome?") == {"Add product"}


async def test_an_errand_or_a_question_saying_add_keeps_it(browser, open_page, make_ctx):
    open_page("list_with_search.html")
    assert await _edits_dropped(make_ctx, "Add a product named Metronome.") == set()
    assert await _edits_dropped(make_ctx, "Which fields must I fill to add a product?") == set()


async def test_the_choice_a_task_names_is_the_lead_offered_first(browser, open_page, make_ctx):
    open_page("filtered_list.html")
    task = "How many discontinued products are there?"
    ctx = await make_ctx(task)
    pm = ctx.pagemem
    offered = [element_candidate(el, s.id) for s in pm.sections for el in s.all_elements()]
    assert {pm.element_by_ref(c.element).name for c in offered if c.key in named_list_choices(task, pm, offered)} == {
        "Discontinued"}


async def _leads(make_ctx, task: str) -> list[str]:
    """The leads named_list_choices gives, in page order: each one's label, and for a link its query."""
    ctx = await make_ctx(task)
    pm = ctx.pagemem
    offered = [element_candidate(el, s.id) for s in pm.sections for el in s.all_elements()]
    leads = named_list_choices(task, pm, offered)
    return [c.label + (f" {urlsplit(el.url).query}" if el.url else "")
            for c in offered if c.key in leads for el in [pm.element_by_ref(c.element)]]


def test_a_facet_title_is_said_as_it_is_or_negated():
    assert polarity("How many members are inactive?", "By is active") == -1
    assert polarity("Which members have not subscribed?", "By is subscribed") == -1
    assert polarity("How many members are unsubscribed?", "Subscribed") == -1
    assert polarity("How many members are active?", "By is active") == 1
    assert polarity("How many members are active?", "By plan") == 0


async def test_a_question_negating_a_facet_leads_to_its_no(browser, open_page, make_ctx):
    open_page("facets_list.html")
    leads = await _leads(make_ctx, "How many members are unsubscribed?")
    assert leads == ['link "No" subscribed=0']


async def test_a_question_saying_a_facet_leads_to_its_yes(browser, open_page, make_ctx):
    open_page("facets_list.html")
    leads = await _leads(make_ctx, "How many members are verified?")
    assert leads == ['link "Yes" verified=1']


async def test_a_closed_facet_the_question_names_is_the_way_to_its_choices(browser, open_page, make_ctx):
    open_page("facets_list.html")
    assert await _leads(make_ctx, "How many members are on the gold plan?") == ['button "By plan"']


async def test_a_question_about_one_record_named_by_a_code_is_led_to_no_facet(browser, open_page, make_ctx):
    """The record is found by a search or its row; a facet sharing a word with the question is no way to it."""
    open_page("facets_list.html")
    assert await _leads(make_ctx, "Which plan is member M-1042 on?") == []


async def test_an_errand_is_not_led_to_filter_the_list_by_the_value_it_sets(browser, open_page, make_ctx):
    open_page("filtered_list.html")
    assert await _leads(make_ctx, "Set the status of the Kettle to discontinued.") == []


async def test_a_choice_link_is_said_with_the_title_it_sits_under(browser, open_page, make_ctx):
    # A bare "No" says nothing of being unsubscribed; under its facet's title it does.
    open_page("facets_list.html")
    ctx, offered = await offered_on(make_ctx, "How many members are not subscribed?")
    labels = {c.label for c in with_facet_titles(ctx.pagemem, offered)}
    assert {'link "No" (under "By is subscribed")', 'link "No" (under "By is verified")'} <= labels, labels
    assert 'link "All"' in labels  # the list under an empty query ("?"), no choice of a facet
