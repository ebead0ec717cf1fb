"""A control on a card whose value is not the extreme the task's superlative asks for is refused once with the one
whose card holds it (act/premature.py check_superlative). Real Chromium, the real extension, execute() on a fixture
page of four fare cards, each a duration and a "Book for $…" button."""

from __future__ import annotations

import pytest

from companion.act import execute
from companion.act.errors import NotYet
from tests.support.act_context import candidate_for, text_of

pytestmark = pytest.mark.browser


async def test_buttons_named_alike_but_for_a_number_carry_their_cards_text(browser, open_page, make_ctx):
    open_page("fare_cards.html")
    ctx = await make_ctx("Book a fare.")
    contexts = {e.name: e.context for e in ctx.pagemem.all_elements() if e.role == "button"}
    assert contexts["Book for $1,210"] == "Duration: 2h 40m" and contexts["Book for $95"] == "Duration: 14h 0m", contexts


async def test_a_card_other_than_the_shortest_is_refused_once_with_the_shortest(browser, open_page, make_ctx):
    open_page("fare_cards.html")
    ctx = await make_ctx("Buy the ticket with the shortest duration.")
    with pytest.raises(NotYet) as refused:
        await execute(ctx, candidate_for(ctx, "Book for $320"), "scripted")
    said = str(refused.value)
    assert "the shortest duration, which is 2h 40m" in said and 'button "Book for $1,210"' in said and "9h 5m" in said, said
    assert text_of(browser, "#did") == "nothing"
    await execute(ctx, candidate_for(ctx, "Book for $1,210"), "scripted")
    assert text_of(browser, "#did") == "Book for $1,210"


async def test_the_cheapest_card_is_read_from_the_buttons_price(browser, open_page, make_ctx):
    open_page("fare_cards.html")
    ctx = await make_ctx("Book the cheapest fare.")
    with pytest.raises(NotYet) as refused:
        await execute(ctx, candidate_for(ctx, "Book for $450"), "scripted")
    assert "the cheapest price, which is $95" in str(refused.value), refused.value
    await execute(ctx, candidate_for(ctx, "Book for $95"), "scripted")
    assert text_of(browser, "#did") == "Book for $95"


async def test_a_card_chosen_again_after_the_refusal_is_clicked(browser, open_page, make_ctx):
    open_page("fare_cards.html")
    ctx = await make_ctx("Buy the ticket with the longest duration.")
    with pytest.raises(NotYet):
        await execute(ctx, candidate_for(ctx, "Book for $320"), "scripted")
    await execute(ctx, candidate_for(ctx, "Book for $320"), "scripted")
    assert text_of(browser, "#did") == "Book for $320"


async def test_a_task_with_no_superlative_books_any_card_at_once(browser, open_page, make_ctx):
    open_page("fare_cards.html")
    ctx = await make_ctx("Book the fare for $450.")
    await execute(ctx, candidate_for(ctx, "Book for $450"), "scripted")
    assert text_of(browser, "#did") == "Book for $450"
