"""A link that goes to another page where the link just before it goes (a row's last and first name, both to the
record) is offered once (act/candidates.py one_link_per_target); links within the page stay each their own.
Real Chromium, the real extension, on a fixture page."""

from __future__ import annotations

import pytest

from companion.act.candidates import one_link_per_target

pytestmark = pytest.mark.browser


async def test_a_rows_second_link_to_the_same_record_is_not_offered_again(browser, open_page, make_ctx):
    open_page("list_controls.html")
    ctx = await make_ctx("Open the record of Bo Chen")
    links = [el.name for el in one_link_per_target(list(ctx.pagemem.all_elements()), ctx.pagemem.url)
             if el.role == "link"]
    assert "Lee" in links and "Chen" in links and "Ann" not in links and "Bo" not in links, links
    assert "Odd" in links and "Even" in links, links  # "#" links are controls of this page, each its own
