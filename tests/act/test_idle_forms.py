"""In an errand, a form that can do nothing the task asks (its one field a select of placeholders and deletions the
task does not ask for) is not offered (act/candidates.py idle_forms). Real Chromium, the real extension, on a
fixture page."""

from __future__ import annotations

import pytest

from companion.act.candidates import idle_forms
from tests.support.act_context import names_of, offered_on

pytestmark = pytest.mark.browser


async def _idle(make_ctx, task: str) -> set[str]:
    ctx, offered = await offered_on(make_ctx, task)
    return names_of(ctx, offered, idle_forms(ctx, ctx.pagemem, offered))


async def test_a_bulk_form_whose_only_action_deletes_is_not_offered_to_an_errand(browser, open_page, make_ctx):
    open_page("bulk_forms.html")
    assert await _idle(make_ctx, "Change the city of Ann Lee to Munich.") == {
        "Action:", "Run the selected action", "Select Ann Lee", "Select Bo Chen"}  # the other form can mark paid


async def test_a_task_asking_for_a_deletion_keeps_the_form(browser, open_page, make_ctx):
    open_page("bulk_forms.html")
    assert await _idle(make_ctx, "Delete the member Bo Chen.") == set()
