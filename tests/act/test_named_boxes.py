"""Ticking a box the task names ticks the other unchecked boxes it names with it, as one action
(act/named_fields.named_boxes_left, act/routing.py): a task naming nine boxes is one step, not nine. Real Chromium,
the real extension, execute() on a fixture page; the selection rule as a pure function over the real PageMem."""

from __future__ import annotations

import pytest

from companion.act import execute
from companion.act.errors import NotYet
from companion.act.named_fields import named_boxes_left
from companion.pagemem.divide import divide_page
from tests.support.act_context import candidate_for
from tests.support.htmlsnap import snapshot_from_html


@pytest.mark.browser
async def test_ticking_one_named_box_ticks_every_named_box(browser, open_page, make_ctx):
    open_page("many_boxes.html")
    ctx = await make_ctx("Select alpha, gamma and delta, then click Submit.")
    outcome = await execute(ctx, candidate_for(ctx, "gamma"), "scripted")
    assert outcome.actions == ['Checked checkbox "gamma"', 'Checked checkbox "alpha"']  # delta was checked already
    ticked = browser.driver.execute_script("return [...document.querySelectorAll('input:checked')].map(b => b.id)")
    assert ticked == ["b1", "b3", "b4"]


@pytest.mark.browser
async def test_a_box_the_task_does_not_name_is_refused_once_when_the_named_ones_are_checked(browser, open_page, make_ctx):
    # The default model's page summary put a box the task never named among those to select (act/premature.py).
    open_page("many_boxes.html")
    ctx = await make_ctx("Select alpha and gamma, then click Submit.")
    await execute(ctx, candidate_for(ctx, "alpha"), "scripted")  # gamma with it
    with pytest.raises(NotYet) as refused:
        await execute(ctx, candidate_for(ctx, "beta"), "scripted")
    assert 'names checkbox "alpha", checkbox "gamma", checked already, and nothing of checkbox "beta"' in \
        str(refused.value), refused.value
    outcome = await execute(ctx, candidate_for(ctx, "beta"), "scripted")
    assert outcome.actions == ['Checked checkbox "beta"']


@pytest.mark.browser
async def test_a_box_the_task_does_not_name_is_refused_once_while_a_named_one_is_unchecked(
        browser, open_page, make_ctx):
    # Refused the submit for the two boxes the task named, the default model ticked the one its summary invented.
    open_page("many_boxes.html")
    ctx = await make_ctx("Select alpha and gamma, then click Submit.")
    with pytest.raises(NotYet) as refused:
        await execute(ctx, candidate_for(ctx, "beta"), "scripted")
    assert 'nothing of checkbox "beta"; check checkbox "alpha", checkbox "gamma" instead' in str(refused.value)
    outcome = await execute(ctx, candidate_for(ctx, "beta"), "scripted")
    assert outcome.actions == ['Checked checkbox "beta"']


def boxes(body: str):
    return list(divide_page(snapshot_from_html(f"<html><body>{body}<button>Submit</button></body></html>")).all_elements())


BODY = ('<label><input type="checkbox">alpha</label><label><input type="checkbox">beta</label>'
        '<label><input type="radio" name="r">gamma</label>')


def test_a_task_that_asks_to_clear_a_box_ticks_no_others():
    fields = boxes(BODY)
    alpha = fields[0].model_copy(update={"checked": True})
    assert [e.name for e in named_boxes_left("Select alpha and beta.", alpha, fields)] == ["beta"]
    assert named_boxes_left("Uncheck alpha and select beta.", alpha, fields) == []


def test_radios_are_not_ticked_with_a_box():
    fields = boxes(BODY)
    alpha = fields[0].model_copy(update={"checked": True})
    assert [e.name for e in named_boxes_left("Select alpha, beta and gamma.", alpha, fields)] == ["beta"]


@pytest.mark.browser
async def test_a_box_the_task_names_in_the_plural_is_named(browser, open_page, make_ctx):
    # "Select words similar to mistaken, bunnies, evil": the box "bunny" was refused as unnamed.
    open_page("many_boxes.html")
    ctx = await make_ctx("Select alphas and gamma, then click Submit.")
    outcome = await execute(ctx, candidate_for(ctx, "alpha"), "scripted")
    assert outcome.actions[0] == 'Checked checkbox "alpha"'
