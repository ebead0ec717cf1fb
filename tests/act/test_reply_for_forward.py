"""A "Reply" while the task sends the message on to someone else is refused once, with the "Forward" as the way
(act/premature.py check_reply_for_forward). Real Chromium, the real extension, a mail client's message view."""

from __future__ import annotations

import pytest
from selenium.webdriver.common.by import By

from companion.act import execute
from companion.act.errors import NotYet
from tests.support.act_context import candidate_for

pytestmark = pytest.mark.browser


def _pressed(browser) -> str:
    return browser.driver.find_element(By.ID, "did").text


async def test_a_reply_is_refused_once_when_the_task_sends_the_message_on_to_another(browser, open_page, make_ctx):
    # "Go to the message from Otha and send it to Fredrika": the default model replied to Otha, on two seeds.
    open_page("mail_actions.html")
    ctx = await make_ctx("Go to the message from Kendre and send it to Wanda.")
    with pytest.raises(NotYet) as refused:
        await execute(ctx, candidate_for(ctx, "Reply"), "scripted")
    assert 'sends the message on to "Wanda"' in str(refused.value) and 'button "Forward"' in str(refused.value)
    assert ctx.pagemem.element_by_ref(refused.value.remedy).name == "Forward"
    assert _pressed(browser) == ""
    await execute(ctx, candidate_for(ctx, "Reply"), "scripted")  # chosen again: pressed
    assert _pressed(browser) == "pressed Reply"


@pytest.mark.parametrize("task", [
    "Reply to the message from Kendre and send it to Wanda too.",  # the task says reply
    "Send a note back to Kendre.",                                 # the one it goes to is the sender on the page
    "Open the message from Kendre.",                               # it sends nothing to anyone
])
async def test_a_reply_is_pressed_when_the_task_may_mean_one(browser, open_page, make_ctx, task):
    open_page("mail_actions.html")
    ctx = await make_ctx(task)
    await execute(ctx, candidate_for(ctx, "Reply"), "scripted")
    assert _pressed(browser) == "pressed Reply"


async def test_a_reply_the_model_picks_among_what_opening_the_mail_revealed_is_refused_once(
        browser, open_page, make_ctx, scripted_llm, llm_client_for):
    # The mail's row, clicked, showed the message with "Reply" and "Forward"; asked which to use, the model replied.
    import json

    llm_client_for(scripted_llm(rules=[{"prompt": "dropdown_option", "pattern": "Reply",
                                        "responses": [json.dumps({"reason": "reply", "index": 0})] * 2}]))
    open_page("mail_open.html")
    ctx = await make_ctx("Go to the message from Kendre and send it to Wanda.")
    with pytest.raises(NotYet) as refused:
        await execute(ctx, candidate_for(ctx, "Kendre Ipsum dolor. Aliquet rutrum.."), "scripted")
    assert 'sends the message on to "Wanda"' in str(refused.value), refused.value
    assert refused.value.done == ['Clicked generic "Kendre Ipsum dolor. Aliquet rutrum.."']
    assert _pressed(browser) == "nothing"
