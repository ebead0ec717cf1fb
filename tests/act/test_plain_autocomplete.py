"""A one-line field that turns the browser's completion off, as script suggestion widgets do, is typed into and the
one suggestion holding the typed text is picked (act/routing.is_autocomplete_field, act/search.py). Real Chromium,
the real extension, execute() on a fixture page whose list appears after a pause in typing."""

from __future__ import annotations

import pytest

from companion.act import execute
from companion.act.routing import is_autocomplete_field
from tests.support.act_context import candidate_for, text_of

pytestmark = pytest.mark.browser


async def test_the_suggestion_holding_the_typed_code_is_picked(browser, open_page, make_ctx, scripted_llm,
                                                                 llm_client_for):
    # The flight search took only an airport picked from the list; the typed code alone was refused.
    server = scripted_llm(rules=[{"prompt": "input_value", "responses": ['{"value": "ORD"}']}])
    llm_client_for(server)
    open_page("plain_autocomplete.html")
    ctx = await make_ctx("Book a flight from ORD, then press Search.")
    field = next(e for e in ctx.pagemem.all_elements() if e.name == "From")
    assert is_autocomplete_field(field)
    outcome = await execute(ctx, candidate_for(ctx, "From"), "scripted")
    assert outcome.actions[-1].startswith("Clicked") and "Chicago, IL (ORD)" in outcome.actions[-1], outcome.actions
    await execute(ctx, candidate_for(ctx, "Search"), "scripted")
    assert text_of(browser, "#result") == "from Chicago, IL (ORD)"
    assert [r.prompt for r in server.requests] == ["input_value"]  # the one suggestion holding "ORD": no call


async def test_a_field_whose_list_holds_nothing_typed_is_only_typed_into(browser, open_page, make_ctx, scripted_llm,
                                                                         llm_client_for):
    server = scripted_llm(rules=[{"prompt": "input_value", "responses": ['{"value": "Paris"}']}])
    llm_client_for(server)
    open_page("plain_autocomplete.html")
    ctx = await make_ctx("Book a flight from Paris, then press Search.")
    outcome = await execute(ctx, candidate_for(ctx, "From"), "scripted")
    assert outcome.actions == ['Typed "Paris" into textbox "From"']
    assert [r.prompt for r in server.requests] == ["input_value"]


async def test_the_start_the_task_gives_is_typed_and_the_suggestion_fitting_start_and_end_is_picked(
        browser, open_page, make_ctx, scripted_llm, llm_client_for):
    # 'Enter an item that starts with "Ni" and ends with "ria"': the default model typed an invented "Nierra".
    server = scripted_llm(rules=[])
    llm_client_for(server)
    open_page("plain_autocomplete.html")
    ctx = await make_ctx('Fly from the airport that starts with "Li" and ends with "(LIS)", then press Search.')
    outcome = await execute(ctx, candidate_for(ctx, "From"), "scripted")
    assert outcome.actions[0] == 'Typed "Li" into textbox "From"', outcome.actions
    assert "Lisbon, Portugal (LIS)" in outcome.actions[-1], outcome.actions  # "Chicago, IL" holds "li" too
    await execute(ctx, candidate_for(ctx, "Search"), "scripted")  # "(LIS)" is not asked to be typed: it ends the value
    assert text_of(browser, "#result") == "from Lisbon, Portugal (LIS)"
    assert server.requests == []
