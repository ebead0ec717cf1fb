"""A set-errand that names a form's field and the value to write ("Change the status of order SO-1010 to Shipped")
fills that field with that value by rule: no field-selection call, no value or option call
(task_asks.set_request, act/named_fields.py set_value_for, set_option_for). Real Chromium, the real extension,
the scripted LLM through the real client."""

from __future__ import annotations

import pytest
from selenium.webdriver.common.by import By

from companion.act import execute
from companion.task_asks import set_request
from tests.support.act_context import candidate_for, choice

pytestmark = pytest.mark.browser

SUBMIT = 4  # the review's options: edit one of the form's four fields [0-3], then Submit, then Leave


def test_the_field_and_the_value_a_set_errand_names_are_read_from_its_words():
    assert set_request("Change the city of the customer Bruno Smith to Munich.") == ("city", "Munich")
    assert set_request("Log in first. Then set the stock of the Plush Bear to 40.") == ("stock", "40")
    assert set_request("Set the price to $30.00 and save") == ("price", "$30.00")
    assert set_request("Move the card to Done") is None and set_request("Create a tag named seasonal.") is None


async def test_a_select_the_errand_names_is_set_to_its_value_with_no_call(browser, open_page, make_ctx, scripted_llm,
                                                                          llm_client_for):
    server = scripted_llm(rules=[{"prompt": "form_review", "responses": [choice(SUBMIT, "the status is set")]}])
    llm_client_for(server)
    open_page("record_form.html")
    ctx = await make_ctx("Change the status of order SO-1010 to Shipped.", confirm=_yes)
    outcome = await execute(ctx, candidate_for(ctx, "Save"), "save the order")

    assert outcome.actions[0] == 'Selected "Shipped" in combobox "Status:"', outcome.actions
    assert [r.prompt for r in server.requests] == ["form_review"]  # no field selection, no option call
    assert browser.driver.find_element(By.ID, "saved").text == "saved"


async def test_a_text_field_the_errand_names_gets_its_value_with_no_call(browser, open_page, make_ctx, scripted_llm,
                                                                         llm_client_for):
    server = scripted_llm(rules=[{"prompt": "form_review", "responses": [choice(SUBMIT, "the note is set")]}])
    llm_client_for(server)
    open_page("record_form.html")
    ctx = await make_ctx("Change the note of order SO-1010 to Ring twice.", confirm=_yes)
    outcome = await execute(ctx, candidate_for(ctx, "Save"), "save the order")

    assert outcome.actions[0] == 'Typed "Ring twice" into textbox "Note:"', outcome.actions
    assert [r.prompt for r in server.requests] == ["form_review"]
    assert browser.driver.find_element(By.ID, "note").get_attribute("value") == "Ring twice"


async def _yes(description: str) -> bool:
    return True
