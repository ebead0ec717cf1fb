"""Compound search actions (companion/act/search_for.py): what the task identifies its row by becomes a search of
its own, `search searchbox "..." for "110"`; chosen, it is typed and Enter pressed with no model call for the
query. The terms are rules over the task (no browser); the search runs in real headless Chromium."""

from __future__ import annotations

import pytest

from companion.act import execute
from companion.act.search_for import (
    page_controls, page_name, search_candidates, search_terms, searches_this_page, unseen_searches,
)
from companion.pagemem.divide import divide_page
from tests.support.htmlsnap import snapshot_from_html
from tests.support.act_context import text_of


def test_a_number_or_code_comes_before_an_email_and_a_name():
    task = 'What is the email of "Ann Lee", who placed order #110 as ann@example.com?'
    assert search_terms(task) == ["110", "ann@example.com"]


def test_a_quoted_value_is_a_term():
    assert search_terms('Find the product "Blue Kettle" and tell me its stock') == ["Blue Kettle"]


def test_the_name_of_a_control_is_not_a_term():
    assert search_terms('Type "Jerald" and press "Search"', controls={"search"}) == ["Jerald"]


def test_a_task_that_names_nothing_gives_no_term():
    assert search_terms("How many orders are pending?") == []


SIDEBAR = ("<nav><a href='/shop/orders/'>Orders</a> <a href='/shop/customers/'>Customers</a></nav>"
           "<nav class='filter'><a href='?'>All</a> <a href='?status=paid'>Paid</a></nav>")


def test_a_page_is_named_by_its_own_entry_in_the_sites_navigation():
    page = divide_page(snapshot_from_html(f"<html><body>{SIDEBAR}<h1>Select order</h1></body></html>",
                                          url="http://127.0.0.1:8000/shop/orders/?status=paid"))
    assert page_name(page) == "Orders"  # not the filter's "All" (?), nor "Paid"
    elsewhere = divide_page(snapshot_from_html(f"<html><body>{SIDEBAR}</body></html>", url="http://127.0.0.1:8000/shop/"))
    assert page_name(elsewhere) is None


def test_a_form_sent_to_this_page_searches_its_list_and_a_form_sent_elsewhere_the_site():
    here = "http://127.0.0.1:8000/shop/orders/?p=2"
    assert searches_this_page(here, here) and searches_this_page("http://127.0.0.1:8000/shop/orders/", here)
    assert not searches_this_page("http://127.0.0.1:8000/search", here) and not searches_this_page("", here)


@pytest.mark.browser
async def test_a_search_for_the_tasks_code_is_offered_and_runs_with_no_query_call(
        browser, open_page, make_ctx, scripted_llm, llm_client_for):
    server = scripted_llm(rules=[])
    llm_client_for(server)
    open_page("act_search.html")
    ctx = await make_ctx("What does the kettle with code KT-200 cost?")
    terms = search_terms(ctx.task, page_controls(ctx.pagemem))
    offered = [c for s in ctx.pagemem.sections for e in s.all_elements() for c in search_candidates(terms, e, s)]
    assert [c.label for c in offered] == ['search searchbox "Search products" for "KT-200"']

    outcome = await execute(ctx, offered[0], "search for the code")

    assert outcome.url_changed and text_of(browser, "#results") == "Results for: KT-200"
    assert outcome.actions == ['Typed "KT-200" into searchbox "Search products"',
                               'Pressed Enter in searchbox "Search products"']
    assert server.requests == []  # the query was the task's own value: no search_query call


@pytest.mark.browser
async def test_only_a_search_box_gets_the_compound_action(browser, open_page, make_ctx):
    open_page("act_search.html")
    ctx = await make_ctx("What does the kettle with code KT-200 cost?")
    others = [c for s in ctx.pagemem.sections for e in s.all_elements() if e.name != "Search products"
              for c in search_candidates(["KT-200"], e, s)]
    assert others == []


@pytest.mark.browser
async def test_only_a_search_for_what_the_page_shows_nowhere_is_kept_past_the_filter(browser, open_page, make_ctx):
    open_page("list_with_search.html")  # twelve Kitchen products; more on pages 2 and 3
    for task, kept in (("What is the price of the Metronome?", True), ("Which product in Kitchen is the cheapest?", False)):
        ctx = await make_ctx(task)
        terms = search_terms(task, page_controls(ctx.pagemem))
        offered = [c for s in ctx.pagemem.sections for e in s.all_elements() for c in search_candidates(terms, e, s)]
        assert len(offered) == 1, offered
        sends = lambda el: ctx.page.form_of(el.key) is not None  # noqa: E731 (the box is in the page's search form)
        assert unseen_searches(offered, ctx.pagemem, sends) == ([offered[0].key] if kept else []), task
        assert unseen_searches(offered, ctx.pagemem, lambda el: False) == []  # a box outside every form: not kept


def test_values_a_named_row_joined_the_task_to_are_searched_after_the_tasks_own():
    from companion.act.search_for import search_terms

    task = "What is the email address of the customer who placed order SO-1010?"
    assert search_terms(task, related=["Daniel Ricci"]) == ["SO-1010", "Daniel Ricci"]
    assert search_terms(task, related=["Ann Lee", "Daniel Ricci"]) == ["SO-1010", "Daniel Ricci", "Ann Lee"]
    assert search_terms(task, {"daniel ricci"}, related=["Daniel Ricci"]) == ["SO-1010"]  # a control's name
