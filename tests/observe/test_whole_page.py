"""A page (or a step's selection) small enough to show whole skips the pipeline's calls (observe/whole.py), and
independent calls of the pipeline go to the server together. Real Chromium + extension, scripted LLM server."""

from __future__ import annotations

import pytest

from companion.observe import Budget, PageObserver
from companion.observe.whole import whole_text
from companion.observe.structure import controls_description
from companion.pagemem.tokens import count_tokens
from companion.pagemem.update import update_page_mem
from tests.support.observe_requests import requests_for
from tests.support.observation_scripts import observation_rules

pytestmark = pytest.mark.browser

PIPELINE = {"section_summary", "section_selection", "page_summary", "list_item_selection", "list_early_stop",
            "detail_extraction", "page_task_summary"}


@pytest.mark.whole_pages
async def test_a_small_page_is_observed_whole_with_no_call(page_mem, scripted_llm, llm_client_for):
    _, pm = await page_mem("whole_guestbook.html")
    server = scripted_llm(rules=observation_rules())
    obs = await PageObserver(client=llm_client_for(server)).observe('Enter "Tora" and press Save', "", pm)

    assert server.requests == [] and obs.usage.count == 0
    assert obs.whole and obs.selected == [s.id for s in pm.sections] and obs.extractions == {}
    assert 'textbox "Name"' in obs.summary and 'button "Save"' in obs.summary  # the page's own lines
    assert "Write your name in the field, then press Save." in obs.summary


@pytest.mark.whole_pages
async def test_a_small_page_is_shown_as_it_is_now_after_a_field_is_filled(browser, page_mem, scripted_llm, llm_client_for):
    _, pm = await page_mem("whole_guestbook.html")
    server = scripted_llm(rules=observation_rules())
    observer = PageObserver(client=llm_client_for(server))
    first = await observer.observe('Enter "Tora" and press Save', "", pm)
    browser.driver.execute_script("document.getElementById('name').value = 'Tora';")

    again = await observer.observe('Enter "Tora" and press Save', "", pm, update_page_mem(pm, await browser.session.snapshot()))

    assert 'value="Tora"' not in first.summary
    assert 'textbox "Name" value="Tora"' in again.summary and not again.new_page and again.whole
    assert server.requests == []


@pytest.mark.whole_pages
async def test_a_large_page_whose_selection_is_small_shows_the_selection_whole(page_mem, scripted_llm, llm_client_for):
    _, pm = await page_mem("obs_shop.html")
    heading = next(i for i, s in enumerate(pm.sections) if "Trail running shoes" in s.details)
    every = whole_text(pm, [s.id for s in pm.sections], {s.id: s.details for s in pm.sections}, None)
    chosen = whole_text(pm, [pm.sections[heading].id], {s.id: s.details for s in pm.sections}, None)
    bound = count_tokens(chosen) + 1
    assert bound < count_tokens(every)  # the page as a whole is over this bound, the chosen section under it
    server = scripted_llm(rules=observation_rules(selection=[heading]))

    obs = await PageObserver(client=llm_client_for(server), budget=Budget(whole_page_tokens=bound, small_page_tokens=0)).observe(
        "Read the shop's heading", "", pm)

    prompts = [r.prompt for r in server.requests]
    assert "section_selection" in prompts and "section_summary" in prompts  # the paper's selection ran
    assert "detail_extraction" not in prompts and "page_task_summary" not in prompts  # and nothing after it
    assert obs.whole and obs.summary.endswith(chosen) and pm.url in obs.summary.split("\n", 1)[0]


async def test_a_small_page_gets_one_task_summary_call_over_its_own_text(page_mem, scripted_llm, llm_client_for):
    _, pm = await page_mem("whole_guestbook.html")
    server = scripted_llm(rules=observation_rules(summary="The Name field is empty; Save submits it."))
    observer = PageObserver(client=llm_client_for(server), budget=Budget(whole_page_tokens=0, small_page_tokens=600))

    obs = await observer.observe('Enter "Tora" and press Save', "", pm)

    assert [r.prompt for r in server.requests] == ["page_task_summary"]  # no summary, selection or extraction
    asked = server.requests[0].last_user
    assert 'textbox "Name"' in asked and "Write your name in the field, then press Save." in asked  # the page's text
    assert obs.summary == "The Name field is empty; Save submits it." and obs.small and not obs.whole
    assert obs.selected == [s.id for s in pm.sections]
    assert any('button "Save"' in text for text in obs.extractions.values())  # the stand-ins the grounding reads


async def test_a_line_of_a_small_page_that_states_the_task_is_not_shown_to_its_summary(page_mem, scripted_llm,
                                                                                       llm_client_for):
    _, pm = await page_mem("whole_guestbook.html")
    server = scripted_llm(rules=observation_rules(summary="The Name field is empty."))
    observer = PageObserver(client=llm_client_for(server), budget=Budget(whole_page_tokens=0, small_page_tokens=600))

    await observer.observe("Write your name in the field, then press Save.", "", pm)

    asked = server.requests[0].last_user.split("</page-content", 1)[0].split("Current page:", 1)[1]
    assert 'textbox "Name"' in asked and "Write your name in the field" not in asked


async def test_a_large_page_whose_selection_is_small_is_summarized_from_its_own_text(page_mem, scripted_llm, llm_client_for):
    _, pm = await page_mem("obs_shop.html")
    heading = next(i for i, s in enumerate(pm.sections) if "Trail running shoes" in s.details)
    chosen = whole_text(pm, [pm.sections[heading].id], {s.id: s.details for s in pm.sections}, None)
    bound = count_tokens(chosen) + 1
    server = scripted_llm(rules=observation_rules(selection=[heading]))

    obs = await PageObserver(client=llm_client_for(server), budget=Budget(whole_page_tokens=0, small_page_tokens=bound)).observe(
        "Read the shop's heading", "", pm)

    prompts = [r.prompt for r in server.requests]
    assert "section_selection" in prompts  # the page is over the bound: the paper's selection ran
    assert "detail_extraction" not in prompts and prompts.count("page_task_summary") == 1
    assert "Trail running shoes" in requests_for(server, "page_task_summary")[0].last_user
    assert obs.small and obs.selected == [pm.sections[heading].id]


async def test_with_whole_pages_off_a_small_page_takes_the_paper_pipeline(page_mem, scripted_llm, llm_client_for):
    _, pm = await page_mem("whole_guestbook.html")
    server = scripted_llm(rules=observation_rules())
    obs = await PageObserver(client=llm_client_for(server)).observe('Enter "Tora" and press Save', "", pm)

    assert not obs.whole and {r.prompt for r in server.requests} >= {"section_selection", "page_task_summary"}


async def test_two_selected_lists_are_scanned_at_the_same_time(page_mem, scripted_llm, llm_client_for):
    _, pm = await page_mem("whole_two_lists.html")
    lists = [i for i, s in enumerate(pm.sections) if s.kind == "list"]
    assert len(lists) == 2
    rules = observation_rules(selection=lists, items=[0], stop=[True])
    slow = next(r for r in rules if r["prompt"] == "list_item_selection")
    slow["responses"] = [{"content": slow["responses"][0], "delay_s": 0.6}]
    server = scripted_llm(rules=rules)

    obs = await PageObserver(client=llm_client_for(server)).observe("Find the cheapest jacket", "", pm)

    first, second = requests_for(server, "list_item_selection")
    assert first.started < second.finished and second.started < first.finished  # in flight together
    assert set(obs.list_scans) == {pm.sections[i].id for i in lists}


def test_pages_are_not_shown_whole_unless_asked(monkeypatch):
    """The product default is a small page's one task summary (the default model's lookups failed without it);
    WEBCHALLENGER_WHOLE_PAGE_TOKENS turns showing small pages whole on, WEBCHALLENGER_SMALL_PAGE_TOKENS=0 the
    paper's pipeline on every page."""
    from companion.observe.budget import SMALL_PAGE_ENV, WHOLE_PAGE_ENV

    monkeypatch.delenv(WHOLE_PAGE_ENV, raising=False)
    monkeypatch.delenv(SMALL_PAGE_ENV, raising=False)
    assert (Budget().whole_page_tokens, Budget().small_page_tokens) == (0, 600)
    monkeypatch.setenv(WHOLE_PAGE_ENV, "600")
    monkeypatch.setenv(SMALL_PAGE_ENV, "0")
    assert (Budget().whole_page_tokens, Budget().small_page_tokens) == (600, 0)
    monkeypatch.setenv(SMALL_PAGE_ENV, "many")
    with pytest.raises(ValueError, match="WEBCHALLENGER_SMALL_PAGE_TOKENS='many': a number of tokens"):
        Budget()


async def test_a_section_of_a_few_lines_is_its_own_summary_and_extraction_on_a_large_page(page_mem, scripted_llm, llm_client_for):
    """The small page's idea, one section at a time: no call could shorten a banner, a breadcrumb or a search box."""
    _, pm = await page_mem("obs_admin_list.html")
    budget = Budget(whole_page_tokens=0, small_page_tokens=600)  # small pages on: this page is larger
    every = whole_text(pm, [s.id for s in pm.sections], {s.id: s.details for s in pm.sections}, None)
    assert count_tokens(every) > budget.small_page_tokens
    few = [s for s in pm.sections if s.kind != "list"]
    (table,) = [s for s in pm.sections if s.kind == "list"]
    assert all(s.tokens <= budget.tiny_tokens for s in few) and any(s.tokens > 24 for s in few)  # the banner
    server = scripted_llm(rules=observation_rules(selection=list(range(len(pm.sections))), items=list(range(10)),
                                                  extractions={"Turntable": "Turntable costs 249.00."}))

    obs = await PageObserver(client=llm_client_for(server), budget=budget).observe("What is the price of the Turntable?", "", pm)

    summarized = [r.last_user for r in requests_for(server, "section_summary")]
    # The table is described by its structure, the others describe themselves: no summary call.
    assert summarized == [] and table.summary.startswith("Table")
    assert all(s.summary for s in few)
    # The Turntable's row is found by rule and is the table's extraction, with its headers: no extraction call.
    assert requests_for(server, "detail_extraction") == []
    assert obs.extractions[table.id].startswith("Row matching the task (1 of ")
    assert "Name: Turntable | SKU: SKU-100 | Category: Audio | Price: 249.00" in obs.extractions[table.id]
    controls = [s for s in few if controls_description(s) is not None]
    assert controls and len(controls) < len(few)  # the search box and the site's links; the banner says something
    for s in few:  # their own text stands for their extractions, and reaches the page task summary
        assert obs.extractions[s.id] == ("" if s in controls else s.details)
    (summary,) = requests_for(server, "page_task_summary")
    assert "Price: 249.00" in summary.last_user
    assert not any(s.details in summary.last_user for s in controls)  # controls are candidates, not facts


async def test_a_small_pages_named_row_is_its_observation_with_no_call(page_mem, scripted_llm, llm_client_for):
    """A search that left one row: the row, with its headers, is the observation; no summary restates it."""
    _, pm = await page_mem("obs_admin_list.html")
    table = next(s for s in pm.sections if s.kind == "list")
    every = whole_text(pm, [s.id for s in pm.sections], {}, None)
    budget = Budget(whole_page_tokens=0, small_page_tokens=count_tokens(table.details) + 5)
    assert count_tokens(every) > budget.small_page_tokens  # the selection, not the page, is small
    server = scripted_llm(rules=observation_rules(selection=[pm.sections.index(table)]))

    obs = await PageObserver(client=llm_client_for(server), budget=budget).observe("What is the price of the Turntable?", "", pm)

    assert obs.selected == [table.id] and obs.small and requests_for(server, "page_task_summary") == []
    assert "Name: Turntable | SKU: SKU-100 | Category: Audio | Price: 249.00" in obs.summary
    assert obs.named_rows and obs.by_rule == [obs.extractions[table.id]]


async def test_with_small_pages_off_every_section_is_extracted_as_the_paper_says(page_mem, scripted_llm, llm_client_for):
    _, pm = await page_mem("obs_admin_list.html")
    server = scripted_llm(rules=observation_rules(selection=list(range(len(pm.sections))), items=list(range(10))))

    await PageObserver(client=llm_client_for(server), budget=Budget(whole_page_tokens=0, small_page_tokens=0)).observe(
        "Which products are sold out?", "", pm)  # names no row, asks no extreme: the model picks and extracts rows

    assert len(requests_for(server, "detail_extraction")) == len([s for s in pm.sections if s.details.strip()])


async def test_a_summary_sentence_that_guesses_is_not_part_of_the_observation(page_mem, scripted_llm, llm_client_for):
    """The prompt says not to guess what is missing; what the model guessed anyway is not what the page showed."""
    _, pm = await page_mem("obs_admin_list.html")
    guess = ("The table lists 12 products. The price of the Teapot is not shown. "
             "It is likely listed on the product's own page, which may be reached from the table.")
    server = scripted_llm(rules=observation_rules(selection=list(range(len(pm.sections))), summary=guess))

    obs = await PageObserver(client=llm_client_for(server), budget=Budget(whole_page_tokens=0, small_page_tokens=0)
                             ).observe("What is the price of the Teapot?", "", pm)  # the paper's pipeline: a summary call

    assert requests_for(server, "page_task_summary")
    assert obs.summary == "The table lists 12 products. The price of the Teapot is not shown."


def test_a_summary_that_only_guesses_says_nothing_answers_the_task():
    from companion.observe.task_summary import without_guesses

    assert without_guesses("The price might be on page 2.") == "No detail on this page answers the task."
    assert without_guesses("May 2024 orders are listed.") == "May 2024 orders are listed."  # a month, no guess


def test_an_entry_says_its_label_once():
    from companion.observe.whole import entry_line

    assert entry_line('heading "Orders" [level=1]', '- heading "Orders" [level=1]') == '- heading "Orders" [level=1]'
    assert entry_line("Order list", "Row matching the task (1 of 3): …") == "Order list: Row matching the task (1 of 3): …"


async def test_a_summary_that_leaves_out_the_named_row_is_followed_by_it(page_mem, scripted_llm, llm_client_for):
    """The model's summary said the value was not given; the row the task names, read by rule, says it."""
    _, pm = await page_mem("obs_admin_list.html")
    missing = "The price of the Turntable is not provided in the given information."
    server = scripted_llm(rules=observation_rules(selection=list(range(len(pm.sections))), summary=missing))

    obs = await PageObserver(client=llm_client_for(server), budget=Budget(whole_page_tokens=0, small_page_tokens=0)
                             ).observe("What is the price of the Turntable?", "", pm)

    assert requests_for(server, "page_task_summary") and obs.named_rows
    assert obs.summary.startswith(missing + " Row matching the task (1 of ")
    assert "Name: Turntable | SKU: SKU-100 | Category: Audio | Price: 249.00" in obs.summary
    assert "\n" not in obs.summary  # one line, as the history keeps it
