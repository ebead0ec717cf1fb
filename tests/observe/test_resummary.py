"""In real Chromium with the real extension and the scripted LLM: within a page, a section whose
structure changed a lot (UpdateSection's needs_summary: four checkboxes appeared) is summarised again, its known
purpose kept; a section that did not change is not."""

from __future__ import annotations

import pytest

from companion.observe import PageObserver
from companion.pagemem.update import update_page_mem
from tests.support.observe_requests import requests_for
from tests.support.observation_scripts import observation_rules

pytestmark = pytest.mark.browser


async def test_a_section_whose_structure_changed_a_lot_is_summarised_again(browser, page_mem, scripted_llm, llm_client_for):
    _, pm = await page_mem("resummary.html")
    server = scripted_llm(rules=observation_rules({"Narrow the report": "Report filters", "Sales report": "Report"},
                                                  selection=[0]))
    observer = PageObserver(client=llm_client_for(server))
    await observer.observe("Show the sales of the North region", "", pm)
    filters = next(s for s in pm.sections if s.purpose == "Report filters")
    report = next(s for s in pm.sections if s.purpose == "Report")

    button = next(e for e in pm.all_elements() if e.name == "Show region filters")
    assert (await browser.session.click(button.ref)).ok
    update = update_page_mem(pm, await browser.session.snapshot())
    assert filters.needs_summary and len(update.diffs[filters.id].added) >= 3
    mark = len(server.requests)
    await observer.observe("Show the sales of the North region", "", pm, update)

    again = requests_for(server, "section_summary", mark)
    assert len(again) == 1 and "North" in again[0].last_user  # the filters, as they are now
    assert "purpose is known" in again[0].last_user and filters.purpose == "Report filters"
    assert not filters.needs_summary and not report.needs_summary
