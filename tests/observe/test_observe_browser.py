"""The observation pipeline on fixture pages in real Chromium with the real extension, answered by the
scripted OpenAI-compatible server. Assertions read what the server received (prompts, call counts)."""

from __future__ import annotations

import pytest

from companion.memory.store import WebsiteMemStore
from companion.observe import Budget, PageObserver
from companion.pagemem.divide import divide_page
from companion.pagemem.update import update_page_mem
from tests.support.observe_requests import prompt_size, requests_for
from tests.support.observation_scripts import observation_rules

pytestmark = pytest.mark.browser

TASK = "Buy the cheapest trail shoe with at least 4.5 stars"
HISTORY = "Step 1\nObservation: Home page - Summary: the shop's home page.\nAction(s): click [2] link 'Shoes'"
SHOP_PURPOSES = {'link "Home"': "Main navigation", "searchbox": "Product search", "Trail running shoes": "Page heading",
                 "Add to cart": "Product listing", "Contact us": "Site footer"}


def section_index(pm, predicate) -> int:
    return next(i for i, s in enumerate(pm.sections) if predicate(s))


async def shop_observation(page_mem, scripted_llm, llm_client_for, store=None):
    snapshot, pm = await page_mem("obs_shop.html")
    products = section_index(pm, lambda s: "Add to cart" in s.details)
    server = scripted_llm(rules=observation_rules(
        SHOP_PURPOSES, selection=[products], items=[1],
        extractions={"Trail Blazer": "Trail Blazer costs $119 and has 4.6 stars."},
        summary="Trail Blazer ($119, 4.6 stars) is the only shoe shown with at least 4.5 stars."))
    observer = PageObserver(store, client=llm_client_for(server))
    obs = await observer.observe(TASK, HISTORY, pm)
    return server, observer, snapshot, pm, obs


async def test_selection_extraction_and_summary_prompts_carry_what_the_paper_says(page_mem, scripted_llm, llm_client_for):
    server, _, _, pm, obs = await shop_observation(page_mem, scripted_llm, llm_client_for)
    products = next(s for s in pm.sections if s.purpose == "Product listing")

    (selection,) = requests_for(server, "section_selection")
    text = selection.last_user
    assert TASK in text and "click [2] link 'Shoes'" in text  # the task and the history
    for i, s in enumerate(pm.sections):  # every section by index, purpose and summary (a description that starts
        # with its purpose says it once: abstraction.section_line)
        said_once = s.summary.lower().startswith(s.purpose.lower())
        assert f"[{i}] {s.summary if said_once else f'{s.purpose}: {s.summary}'}" in text

    (extraction,) = requests_for(server, "detail_extraction")
    text = extraction.last_user
    assert TASK in text and "Section: Product listing" in text
    # The full content of the selected item (the list was narrowed to it first), nothing of the others.
    assert 'link "Trail Blazer"' in text and "$119 — 4.6 stars" in text and 'button "Add to cart"' in text
    assert "Mud Runner" not in text and "item 2:" in text

    (summary,) = requests_for(server, "page_task_summary")
    assert TASK in summary.last_user and "Product listing: Trail Blazer costs $119 and has 4.6 stars." in summary.last_user

    assert obs.selected == [products.id]
    assert obs.unselected == [s.id for s in pm.sections if s.id != products.id]
    assert obs.extractions == {products.id: "Trail Blazer costs $119 and has 4.6 stars."}
    assert obs.summary.startswith("Trail Blazer ($119, 4.6 stars)")
    assert obs.list_items == {products.id: [products.items[1].id]}
    assert [e.name for e in obs.section_elements(pm, products.id)] == ["Trail Blazer", "Add to cart"]
    assert obs.usage.count == len(server.requests) and obs.usage.by_prompt()["page_task_summary"] == 1
    assert obs.page_summary == "A page of a small test site."


async def test_repeated_observation_of_an_unchanged_page_makes_no_summary_or_extraction_calls(
        browser, page_mem, scripted_llm, llm_client_for, tmp_path):
    with WebsiteMemStore("obs-shop", directory=tmp_path) as store:
        server, observer, _, pm, first = await shop_observation(page_mem, scripted_llm, llm_client_for, store)
        assert len(requests_for(server, "section_summary")) >= 3  # the navigation and search box by rule

        mark = len(server.requests)
        update = update_page_mem(pm, await browser.session.snapshot())
        again = await observer.observe(TASK, HISTORY, pm, update)
        assert [r.prompt for r in server.requests[mark:]] == ["page_task_summary"]  # always regenerated, nothing else
        assert again.extractions == first.extractions and again.selected == first.selected and not again.new_page

        # A later visit builds a new PageMem: summaries and purposes come from WebsiteMem, not the LLM.
        mark = len(server.requests)
        revisit = divide_page(await browser.session.snapshot())
        await PageObserver(store, client=observer.client).observe(TASK, HISTORY, revisit)
        prompts = [r.prompt for r in server.requests[mark:]]
        assert "section_summary" not in prompts and "page_summary" not in prompts
        assert [s.purpose for s in revisit.sections] == [s.purpose for s in pm.sections]


async def test_an_open_modal_is_the_only_relevant_section_and_selection_is_skipped(page_mem, scripted_llm, llm_client_for):
    _, pm = await page_mem("obs_modal.html")
    server = scripted_llm(rules=observation_rules({"Cookie consent": "Cookie consent dialog"},
                                                  extractions={"Accept all cookies": "Buttons: Accept all cookies, Reject optional cookies."}))
    obs = await PageObserver(client=llm_client_for(server)).observe("Read the flood article", "", pm)
    modal = pm.modal()
    assert obs.modal and obs.selected == [modal.id]
    assert requests_for(server, "section_selection") == []
    summaries = requests_for(server, "section_summary")
    assert len(summaries) == 1 and "Cookie consent" in summaries[0].last_user  # the page behind is not read
    (extraction,) = requests_for(server, "detail_extraction")
    assert 'button "Reject optional cookies"' in extraction.last_user and "sluice" not in extraction.last_user
    assert set(obs.unselected) == {s.id for s in pm.sections} - {modal.id}


async def test_a_2000_row_table_stays_under_the_bound_and_early_stop_ends_the_scan(page_mem, scripted_llm, llm_client_for):
    _, pm = await page_mem("obs_table.html")
    table = next(s for s in pm.sections if s.kind == "list")
    assert len(table.items) == 2000
    server = scripted_llm(rules=observation_rules({"columnheader": "Orders table"},
                                                  selection=[pm.sections.index(table)], items=[0],
                                                  stop=[False, False, True]))
    budget = Budget()
    # A task naming no value of a row: the rows are scanned by the model (a named order number is found by rule).
    obs = await PageObserver(client=llm_client_for(server), budget=budget).observe("Find the oldest order", "", pm)

    assert len(requests_for(server, "list_item_selection")) == 3  # the script said stop after the third chunk
    assert len(requests_for(server, "list_early_stop")) == 3
    scan = obs.list_scans[table.id]
    assert scan.stopped_early and scan.scanned == 75 and scan.selected == [0, 25, 50]
    chunk = requests_for(server, "list_item_selection")[1].last_user
    assert "#10026" in chunk and "#10050" in chunk and "#10051" not in chunk  # 25 rows per chunk
    stop = requests_for(server, "list_early_stop")[0].last_user
    assert "1 to 25" in stop and "not yet scanned: 1975" in stop and "#10001" in stop
    (extraction,) = requests_for(server, "detail_extraction")
    assert "item 26:" in extraction.last_user and "#10051" in extraction.last_user and "#10002" not in extraction.last_user
    # The table is described by its structure (columns, row count, first row), with no summary call reading it.
    assert not any("columnheader" in r.last_user for r in requests_for(server, "section_summary"))
    assert table.summary.startswith("Table") and "2000 rows" in table.summary
    sizes = [prompt_size(r) for r in server.requests]
    assert max(sizes) <= budget.max_prompt_tokens
    assert obs.usage.max_prompt_tokens == max(sizes)


async def test_after_a_menu_opens_the_added_items_are_a_group_and_unchanged_sections_are_not_resummarized(
        browser, page_mem, scripted_llm, llm_client_for):
    _, pm = await page_mem("obs_menu.html")
    server = scripted_llm(rules=observation_rules({"Lakeside Library": "Site header", "Opening hours": "Opening hours article"},
                                                  selection=[0, 1]))
    observer = PageObserver(client=llm_client_for(server))
    first = await observer.observe("Check my current loans", "", pm)
    assert first.added_group is None and first.new_page
    header = next(s for s in pm.sections if s.purpose == "Site header")

    button = next(e for e in pm.all_elements() if e.name == "My account")
    assert (await browser.session.click(button.ref)).ok
    update = update_page_mem(pm, await browser.session.snapshot())
    mark = len(server.requests)
    obs = await observer.observe("Check my current loans", "Step 1 ... clicked My account", pm, update)

    prompts = [r.prompt for r in server.requests[mark:]]
    assert "section_selection" not in prompts and "page_summary" not in prompts
    # The header gained four links (UpdateSection's structural change): it alone is described again, now a list of
    # links, by rule (no call), its purpose kept.
    assert not requests_for(server, "section_summary", mark) and "Current loans" in header.summary
    assert not obs.new_page and obs.selected == first.selected
    group = obs.added_group
    assert group is not None and "(appeared in: Site header)" in group
    for name in ("Current loans", "Holds and reservations", "Fines and fees", "Sign out"):
        assert name in group
    # The header keeps its purpose and shows the modified button, without the menu merged into it.
    header_extraction = [r.last_user for r in requests_for(server, "detail_extraction", mark) if "Section: Site header" in r.last_user]
    assert header_extraction and "[expanded]" in header_extraction[0] and "Current loans" not in header_extraction[0]
    assert header.purpose == "Site header"
    (summary,) = requests_for(server, "page_task_summary", mark)
    assert "Newly appeared" in summary.last_user and "Current loans" in summary.last_user


async def test_view_all_shows_every_section_for_the_rest_of_the_page(browser, page_mem, scripted_llm, llm_client_for):
    server, observer, _, pm, first = await shop_observation(page_mem, scripted_llm, llm_client_for)
    assert len(first.selected) == 1
    observer.view_all()
    mark = len(server.requests)
    update = update_page_mem(pm, await browser.session.snapshot())  # the refresh restores the full list
    obs = await observer.observe(TASK, HISTORY, pm, update)
    assert obs.view_all and obs.selected == [s.id for s in pm.sections] and obs.unselected == []
    prompts = [r.prompt for r in server.requests[mark:]]
    assert "section_selection" not in prompts and "section_summary" not in prompts
    # Every section is extracted in full, the list with every item.
    extracted = "\n".join(r.last_user for r in requests_for(server, "detail_extraction", mark))
    assert "Rock Hopper" in extracted and set(obs.extractions) <= set(obs.selected)


async def test_an_extracted_sentence_stating_a_number_the_section_lacks_never_reaches_the_summary(
        page_mem, scripted_llm, llm_client_for):
    _, pm = await page_mem("obs_shop.html")
    products = section_index(pm, lambda s: "Add to cart" in s.details)
    server = scripted_llm(rules=observation_rules(
        SHOP_PURPOSES, selection=[products], items=[1],
        extractions={"Trail Blazer": "Trail Blazer costs $119 and has 4.6 stars. Mud Runner costs $15."}))
    obs = await PageObserver(None, client=llm_client_for(server)).observe(TASK, HISTORY, pm)

    assert obs.extractions[pm.sections[products].id] == "Trail Blazer costs $119 and has 4.6 stars."
    (summary,) = requests_for(server, "page_task_summary")
    assert "$15" not in summary.last_user and "$119" in summary.last_user


async def test_a_page_with_nothing_relevant_is_described_by_rule_without_a_summary_call(
        page_mem, scripted_llm, llm_client_for):
    _, pm = await page_mem("obs_shop.html")
    rules = [r for r in observation_rules(SHOP_PURPOSES) if r["prompt"] != "detail_extraction"]
    server = scripted_llm(rules=[{"prompt": "detail_extraction", "responses": ['{"details": ""}']}, *rules])
    obs = await PageObserver(None, client=llm_client_for(server)).observe(TASK, HISTORY, pm)

    assert requests_for(server, "detail_extraction") and not requests_for(server, "page_task_summary")
    assert obs.summary.startswith("No detail on this page answers the task. It shows: Navigation: Main; Search box")
