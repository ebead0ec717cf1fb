"""The model's text typed over what the page put in a field, while the task does not name that field and one
other text field is empty, is refused once with the empty one (act/basic.py check_page_text_kept). Real Chromium,
the real extension, the real openai client against the scripted server, on a mail client's forward view."""

from __future__ import annotations

import json

import pytest
from selenium.webdriver.common.by import By

from companion.act import execute
from companion.act.errors import NotYet
from tests.support.act_context import candidate_for

pytestmark = pytest.mark.browser


def _body(browser) -> str:
    return browser.driver.find_element(By.ID, "body").get_attribute("value")


def _typing(text: str) -> dict:
    return {"prompt": "input_value", "responses": [json.dumps({"value": text})] * 3}


async def test_typing_over_the_forwarded_body_is_refused_once_while_to_is_empty(
        browser, open_page, make_ctx, scripted_llm, llm_client_for):
    # "forward Geneva's email to Larine": the default model typed "Geneva's" over the body and left "To" empty.
    llm_client_for(scripted_llm(rules=[_typing("Kendre's")]))
    open_page("mail_forward_form.html")
    ctx = await make_ctx("forward Kendre's email to Wanda")
    with pytest.raises(NotYet) as refused:
        await execute(ctx, candidate_for(ctx, "Message"), "scripted")
    said = str(refused.value)
    assert "holds the page's text" in said and 'textbox "to" is empty' in said, said
    assert refused.value.remedy is not None
    assert _body(browser).startswith("Aliquet rutrum pharetra.")
    await execute(ctx, candidate_for(ctx, "Message"), "scripted")  # chosen again: typed
    assert _body(browser) == "Kendre's"


async def test_typing_over_the_body_what_to_already_holds_is_refused_once(
        browser, open_page, make_ctx, scripted_llm, llm_client_for):
    # "Find the email by Emilie and forward it to Karlotta": the default model typed Karlotta into To, then over the body.
    llm_client_for(scripted_llm(rules=[_typing("Wanda")]))
    open_page("mail_forward_form.html")
    browser.driver.find_element(By.ID, "to").send_keys("Wanda")
    ctx = await make_ctx("Find the email by Kendre and forward it to Wanda")
    with pytest.raises(NotYet) as refused:
        await execute(ctx, candidate_for(ctx, "Message"), "scripted")
    assert 'textbox "to" holds "Wanda" already' in str(refused.value), refused.value
    assert _body(browser).startswith("Aliquet rutrum pharetra.")


async def test_a_field_the_task_names_is_typed_over_at_once(browser, open_page, make_ctx, scripted_llm, llm_client_for):
    llm_client_for(scripted_llm(rules=[_typing("Thanks!")]))
    open_page("mail_forward_form.html")
    ctx = await make_ctx("Write a thank-you note as the message and forward it to Wanda")
    await execute(ctx, candidate_for(ctx, "Message"), "scripted")
    assert _body(browser) == "Thanks!"


async def test_refused_while_to_was_empty_and_again_once_to_holds_what_would_be_typed(
        browser, open_page, make_ctx, scripted_llm, llm_client_for):
    # Refused while "To" was empty, the default model filled it, then typed the recipient over the body.
    answers = [json.dumps({"value": v}) for v in ("Kendre's", "Wanda", "Wanda", "Wanda")]
    llm_client_for(scripted_llm(rules=[{"prompt": "input_value", "responses": answers}]))
    open_page("mail_forward_form.html")
    ctx = await make_ctx("Find the email by Kendre and forward it to Wanda")
    with pytest.raises(NotYet) as first:
        await execute(ctx, candidate_for(ctx, "Message"), "scripted")
    assert 'textbox "to" is empty' in str(first.value)
    browser.driver.find_element(By.ID, "to").send_keys("Wanda")
    await ctx.refresh()
    with pytest.raises(NotYet) as refused:
        await execute(ctx, candidate_for(ctx, "Message"), "scripted")
    assert 'textbox "to" holds "Wanda" already' in str(refused.value), refused.value
    assert _body(browser).startswith("Aliquet rutrum pharetra.")
