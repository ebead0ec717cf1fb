"""The session's, the account's and the page's own controls ("Log out", "Change password", "View site", "Toggle
theme") are not offered to a task that says nothing of them (act/candidates.py session_controls_unasked). Real
Chromium, the real extension, on a fixture page."""

from __future__ import annotations

import pytest

from companion.act.candidates import session_controls_unasked
from tests.support.act_context import names_left_out

pytestmark = pytest.mark.browser


async def _dropped(make_ctx, task: str) -> set[str]:
    return await names_left_out(make_ctx, task, session_controls_unasked)


async def test_a_task_about_the_sites_content_is_not_offered_the_session_controls(browser, open_page, make_ctx):
    open_page("list_controls.html")
    assert await _dropped(make_ctx, "Mark order 7 as shipped") == {
        "View site", "Change password", "Log out", "Toggle theme (current theme: auto)"}


async def test_a_task_that_speaks_of_the_session_keeps_them(browser, open_page, make_ctx):
    open_page("list_controls.html")
    assert await _dropped(make_ctx, "Change my password to hunter22") == set()
    assert await _dropped(make_ctx, "Log out of the back office") == set()
