"""The unknown of the page's equation typed into the field labelled with it, by rule (act/solve_for.py): real
Chromium, the real extension, execute() with a scripted model whose answer would be wrong."""

from __future__ import annotations

import json

import pytest
from selenium.webdriver.common.by import By

from companion.act import execute
from companion.act.solve_for import _solve
from tests.support.act_context import candidate_for


@pytest.mark.parametrize("text, x", [
    ("x - 7 = 60", "67"), ("x + 7 = 60", "53"), ("7 - x = 60", "-53"), ("12 + x = 40", "28"),
    ("3 × x = 27", "9"), ("x / 4 = 2", "8"), ("x * 2 = 5", "2.5"),
])
def test_an_equation_with_one_unknown_and_one_operation_is_solved(text, x):
    assert _solve(text, "x") == x


@pytest.mark.parametrize("text", ["x + y = 3", "2 * (x + 1) = 6", "x = 5", "7 - 3 = 4"])
def test_an_equation_it_cannot_read_is_left_to_the_model(text):
    assert _solve(text, "x") is None


@pytest.mark.browser
async def test_the_field_labelled_with_the_unknown_gets_its_value_without_a_call(
        browser, open_page, make_ctx, scripted_llm, llm_client_for):
    # The default model answered 31 for "2 - x = 33", then typed the equation itself.
    server = scripted_llm(rules=[{"prompt": "input_value", "responses": [json.dumps({"value": "53"})] * 3}])
    llm_client_for(server)
    open_page("equation.html")
    ctx = await make_ctx("Solve for x and type your answer into the textbox. Press Check when done.")
    before = len(server.requests)
    await execute(ctx, candidate_for(ctx, "x ="), "scripted")
    assert browser.driver.find_element(By.ID, "answer").get_attribute("value") == "-53"
    assert len(server.requests) == before
