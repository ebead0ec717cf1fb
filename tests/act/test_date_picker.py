"""A read-only date field's date is chosen on the calendar it opens (act/date_picker.py): the month title read, the
previous/next controls stepped to the task's month, its day clicked, with no LLM call. Real Chromium, the real
extension, execute() on a fixture page; the date and title rules as pure functions."""

from __future__ import annotations

from datetime import date

import pytest
from selenium.webdriver.common.by import By

from companion.act import execute
from companion.act.date_picker import task_date
from tests.support.act_context import candidate_for


@pytest.mark.browser
async def test_the_tasks_date_is_picked_on_the_calendar_the_field_opens(browser, open_page, make_ctx, scripted_llm,
                                                                         llm_client_for):
    open_page("date_picker.html")
    server = scripted_llm()
    llm_client_for(server)
    ctx = await make_ctx("Select 01/15/2024 as the date and hit submit.")
    field = next(e for e in ctx.pagemem.all_elements() if e.attrs.get("id") == "when")
    assert "readonly" in field.attrs
    outcome = await execute(ctx, candidate_for(ctx, field.name), "scripted")
    assert browser.driver.find_element(By.ID, "when").get_attribute("value") == "01/15/2024"
    assert outcome.actions[-1] == 'Clicked link "15"'
    assert sum("Prev" in a or "‹" in a for a in outcome.actions) == 2  # March to January
    assert server.requests == []


@pytest.mark.browser
async def test_a_date_in_a_later_month_steps_forward(browser, open_page, make_ctx):
    open_page("date_picker.html")
    ctx = await make_ctx("Select 05/02/2024 as the date and hit submit.")
    field = next(e for e in ctx.pagemem.all_elements() if e.attrs.get("id") == "when")
    await execute(ctx, candidate_for(ctx, field.name), "scripted")
    assert browser.driver.find_element(By.ID, "when").get_attribute("value") == "05/02/2024"


@pytest.mark.browser
async def test_month_controls_whose_clicks_the_calendar_catches_are_stepped_too(browser, open_page, make_ctx):
    # A date-picker library's "Prev" is an anchor with no href, no listener of its own and no pointer cursor: the
    # calendar's one handler catches its click. Unseen, the workflow failed: "no control to the previous month".
    open_page("date_picker.html", query="delegated")
    ctx = await make_ctx("Select 01/15/2024 as the date and hit submit.")
    field = next(e for e in ctx.pagemem.all_elements() if e.attrs.get("id") == "when")
    await execute(ctx, candidate_for(ctx, field.name), "scripted")
    assert browser.driver.find_element(By.ID, "when").get_attribute("value") == "01/15/2024"


def test_the_task_gives_one_date_or_none():
    assert task_date("Select 07/16/2016 as the date and hit submit.") == date(2016, 7, 16)
    assert task_date("Book from 2024-03-01 to 2024-03-05") is None  # two dates: which one is the field's is not said
    assert task_date("Select 02/30/2016 as the date") is None  # no such day
