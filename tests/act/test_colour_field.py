"""A colour field gets the hex code of the colour the task names, by rule (act/colour_field.py): real Chromium, the
real extension, execute() with a scripted model whose answer would be wrong."""

from __future__ import annotations

import json

import pytest
from selenium.webdriver.common.by import By

from companion.act import execute
from companion.act.colour_field import named_colours
from tests.support.act_context import candidate_for


@pytest.mark.parametrize("task, names", [
    ("Select red with the color picker and hit Submit.", ["red"]),
    ("Make the accent light blue", ["lightblue"]),
    ("Set it to DarkOrange, not gold", ["darkorange", "gold"]),
    ("Enter the code and press Save", []),
])
def test_the_colours_a_task_names_are_read_as_css_names(task, names):
    assert named_colours(task) == names


@pytest.fixture
def wrong_model(scripted_llm, llm_client_for):
    server = scripted_llm(rules=[{"prompt": "input_value", "responses": [json.dumps({"value": "red"})] * 6}])
    llm_client_for(server)
    return server


@pytest.mark.browser
@pytest.mark.parametrize("task, field, element_id, typed", [
    # A picker's text field keeps its code as it had it: no "#".
    ("Select dark orange with the color picker and hit Save.", "Accent", "accent", "ff8c00"),
    ("Set the background to navy and save.", "Background colour", "bg", "#000080"),
])
async def test_a_colour_field_gets_the_named_colours_code_without_a_call(
        browser, open_page, make_ctx, wrong_model, task, field, element_id, typed):
    open_page("colour_field.html")
    ctx = await make_ctx(task)
    before = len(wrong_model.requests)
    await execute(ctx, candidate_for(ctx, field), "scripted")
    assert browser.driver.find_element(By.ID, element_id).get_attribute("value") == typed
    assert len(wrong_model.requests) == before


@pytest.mark.browser
async def test_a_field_that_only_holds_a_code_like_value_is_no_colour_field(browser, open_page, make_ctx, wrong_model):
    open_page("colour_field.html")
    ctx = await make_ctx("Type red into the voucher code field and press Save.")
    await execute(ctx, candidate_for(ctx, "Voucher code"), "scripted")
    assert browser.driver.find_element(By.ID, "code").get_attribute("value") == "red"  # the model's, not a code
