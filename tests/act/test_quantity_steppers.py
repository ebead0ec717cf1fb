"""A lone "+" or "-" whose text cannot be selected is a control, though it shows no pointer: a script's quantity
stepper (extension/content/snapshot.js isStepGlyph). Real Chromium, the real extension, execute() on a fixture
menu."""

from __future__ import annotations

import pytest
from selenium.webdriver.common.by import By

from companion.act import execute
from companion.act.candidates import element_candidate

pytestmark = pytest.mark.browser


async def test_a_dishs_plus_is_a_control_told_apart_by_its_dish_and_adds_one(browser, open_page, make_ctx):
    open_page("quantity_steppers.html")
    ctx = await make_ctx("Add one serving of Chicken wings.")
    plus = [e for e in ctx.pagemem.all_elements() if e.text == "+"]
    assert len(plus) == 2 and "Chicken wings" in plus[1].context, [(e.name, e.context) for e in plus]
    await execute(ctx, element_candidate(plus[1], ctx.pagemem.section_of(plus[1].ref).id), "scripted")
    quantities = [q.text for q in browser.driver.find_elements(By.CSS_SELECTOR, ".qty")]
    assert quantities == ["0", "1"], quantities


async def test_a_plus_in_selectable_text_is_no_control(browser, open_page, make_ctx):
    open_page("quantity_steppers.html")
    ctx = await make_ctx("Add one serving of Chicken wings.")
    assert not any("tax" in (e.name or e.text) for e in ctx.pagemem.all_elements())
    assert sum(e.text in ("+", "-") for e in ctx.pagemem.all_elements()) == 4


@pytest.mark.parametrize("task", ["Order 2 items that are meat.", "Order one Chicken wings."])
async def test_a_steppers_plus_is_no_submit_held_back_for_the_order_button_the_tasks_verb_names(
        browser, open_page, make_ctx, task):
    # "Order 3 items that are meat": "+ (add)" was read as a submit ("add") and held back until "Order!" was used,
    # and the rule's remedy sent the empty order.
    open_page("quantity_steppers.html")
    ctx = await make_ctx(task)
    plus = [e for e in ctx.pagemem.all_elements() if e.text == "+"]
    await execute(ctx, element_candidate(plus[1], ctx.pagemem.section_of(plus[1].ref).id), "scripted")
    assert [q.text for q in browser.driver.find_elements(By.CSS_SELECTOR, ".qty")] == ["0", "1"]
