"""What deletes (a select's option, a link, a button) is offered only to a task that asks for a deletion
(act/basic.py offered_options, act/candidates.py record_edits_unasked). Real Chromium, the real extension, the
scripted LLM through the real client."""

from __future__ import annotations

import pytest

from companion.act import ActionFailed, execute
from companion.act.basic import set_option
from companion.act.candidates import record_edits_unasked
from tests.support.act_context import candidate_for, choice, names_left_out, text_of

pytestmark = pytest.mark.browser


async def test_a_select_never_shows_a_deleting_option_to_a_task_that_asks_no_deletion(
        browser, open_page, make_ctx, scripted_llm, llm_client_for):
    server = scripted_llm(rules=[{"prompt": "select_option", "responses": [choice(1)]}])
    llm_client_for(server)
    open_page("list_controls.html")
    ctx = await make_ctx("Mark order 7 as shipped")
    await execute(ctx, candidate_for(ctx, "Action"), "choose the bulk action")
    assert text_of(browser, "#chosen") == "Mark selected orders as shipped"
    asked = server.requests[0].last_user
    assert "[1] Mark selected orders as shipped" in asked and "Delete" not in asked


async def test_a_task_asking_for_a_deletion_is_shown_the_deleting_option(
        browser, open_page, make_ctx, scripted_llm, llm_client_for):
    server = scripted_llm(rules=[{"prompt": "select_option", "responses": [choice(1)]}])
    llm_client_for(server)
    open_page("list_controls.html")
    ctx = await make_ctx("Delete order 7")
    await execute(ctx, candidate_for(ctx, "Action"), "choose the bulk action")
    assert text_of(browser, "#chosen") == "Delete selected orders"


async def test_a_deleting_option_set_directly_is_refused_without_a_deletion_asked(browser, open_page, make_ctx):
    open_page("list_controls.html")
    ctx = await make_ctx("Mark order 7 as shipped")
    action = next(el for el in ctx.pagemem.all_elements() if el.name == "Action")
    with pytest.raises(ActionFailed, match="deletes"):
        await set_option(ctx, action, "Delete selected orders")
    assert text_of(browser, "#chosen") == "---------"


async def test_an_errand_asking_no_deletion_is_not_offered_the_delete_link(browser, open_page, make_ctx):
    open_page("list_controls.html")
    for task, dropped in (("Mark order 7 as shipped", {"Delete order 7"}), ("Remove order 7", set())):
        assert await names_left_out(make_ctx, task, record_edits_unasked) == dropped, task
