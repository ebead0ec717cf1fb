"""The session's, the account's and the page's own controls ("Log out", "Change password", "View site", "Toggle
theme") are not offered to a task that says nothing of them (act/candidates.py session_controls_unasked). Real
Chromium, the real extension, on a fixture page."""

from __future__ import annotations

import pytest

from companion.act.candidates import element_candidate, session_controls_unasked

pytestmark = pytest.mark.browser


async def _dropped(make_ctx, task: str) -> set[str]:
    ctx = await make_ctx(task)
    pm = ctx.pagemem
    offered = [element_candidate(el, s.id) for s in pm.sections for el in s.all_elements()]
    return {pm.element_by_ref(c.element).name for c in offered if c.key in session_controls_unasked(task, pm, offered)}


async def test_a_task_about_the_sites_content_is_not_offered_the_session_controls(browser, open_page, make_ctx):
    open_page("list_controls.html")
    assert await _dropped(make_ctx, "Mark order 7 as shipped") == {
        "View site", "Change password", "Log out", "Toggle theme (current theme: auto)"}


async def test_a_task_that_speaks_of_the_session_keeps_them(browser, open_page, make_ctx):
    open_page("list_controls.html")
    assert await _dropped(make_ctx, "Change my password to hunter22") == set()
    assert await _dropped(make_ctx, "Log out of the back office") == set()
