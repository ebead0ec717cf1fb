"""In real Chromium with the real extension and the scripted LLM: within a page, section selection
runs again when the page changed enough for its answer to change (a section appeared, a selected section's
content changed), and costs no call when nothing it reads changed (typing, ticking, an unselected section's text).
"""

from __future__ import annotations

import pytest

from companion.observe import PageObserver
from companion.observe.budget import Budget
from companion.pagemem.update import update_page_mem
from tests.support.observe_requests import requests_for
from tests.support.observation_scripts import observation_rules

pytestmark = pytest.mark.browser

TASK = "Have the Blue kettle delivered the fastest way"
PURPOSES = {"Delivery of your order": "Order delivery", "Reviews of the Blue kettle": "Reviews",
            "Next-day delivery": "Delivery offers"}


async def entered(browser, page_mem, scripted_llm, llm_client_for):
    """The page observed once at entry, the delivery section selected; -> (server, observer, pagemem, first)."""
    _, pm = await page_mem("late_changes.html")
    delivery = next(i for i, s in enumerate(pm.sections) if "Delivery of your order" in s.details)
    server = scripted_llm(rules=observation_rules(PURPOSES, selection=[delivery]))
    # The paper's pipeline on every page: this small page would otherwise be shown whole, with no selection at all.
    observer = PageObserver(client=llm_client_for(server), budget=Budget(whole_page_tokens=0, small_page_tokens=0))
    first = await observer.observe(TASK, "", pm)
    assert len(requests_for(server, "section_selection")) == 1
    return server, observer, pm, first


def element(pm, name: str):
    return next(e for e in pm.all_elements() if e.name == name)


async def observe_after(browser, observer, pm, server):
    """Refresh the PageMem from the page as it is now and observe it; -> (observation, requests it made)."""
    update = update_page_mem(pm, await browser.session.snapshot())
    mark = len(server.requests)
    obs = await observer.observe(TASK, "Step 1 acted on the page", pm, update)
    return obs, server.requests[mark:]


async def test_typing_ticking_and_an_unselected_sections_new_text_cost_no_selection_call(
        browser, page_mem, scripted_llm, llm_client_for):
    server, observer, pm, first = await entered(browser, page_mem, scripted_llm, llm_client_for)
    assert (await browser.session.type(element(pm, "Note for the courier").ref, "Leave it at the door")).ok
    assert (await browser.session.check(element(pm, "Gift wrap").ref, True)).ok
    assert (await browser.session.click(element(pm, "Refresh the rating").ref)).ok  # Reviews is not selected

    obs, made = await observe_after(browser, observer, pm, server)

    prompts = [r.prompt for r in made]
    assert "section_selection" not in prompts and "section_summary" not in prompts
    assert prompts.count("page_task_summary") == 1 and obs.selected == first.selected
    assert "4.6 of 5" in "".join(s.details for s in pm.sections)  # the change was read, it just did not matter


async def test_a_section_added_after_entry_runs_selection_again_and_its_elements_are_the_added_group(
        browser, page_mem, scripted_llm, llm_client_for):
    server, observer, pm, first = await entered(browser, page_mem, scripted_llm, llm_client_for)
    assert (await browser.session.click(element(pm, "Show delivery offers").ref)).ok

    obs, made = await observe_after(browser, observer, pm, server)

    (selection,) = [r for r in made if r.prompt == "section_selection"]
    offers = next(s for s in pm.sections if "Next-day delivery" in s.details)
    assert offers.id not in first.unselected + first.selected  # a section the entry selection never saw
    assert "] Delivery offers" in selection.last_user  # the new section's line is among those chosen from
    assert {e.name for e in (pm.element_by_ref(r) for r in obs.added[offers.id])} == {"Next-day delivery", "Collect in store"}
    # Once seen, it no longer counts as new: the next step with nothing changed makes no selection call.
    _, again = await observe_after(browser, observer, pm, server)
    assert "section_selection" not in [r.prompt for r in again]


async def test_a_change_in_the_content_of_a_selected_section_runs_selection_again(
        browser, page_mem, scripted_llm, llm_client_for):
    server, observer, pm, _ = await entered(browser, page_mem, scripted_llm, llm_client_for)
    assert (await browser.session.click(element(pm, "Deliver to Leeds instead").ref)).ok

    _, made = await observe_after(browser, observer, pm, server)

    assert [r.prompt for r in made].count("section_selection") == 1
