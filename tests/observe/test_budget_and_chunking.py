"""The token bound: what does not fit is chunked, never cut silently. Pure logic, no browser: pages come from
the hand-built snapshots of tests/support/htmlsnap.py and answers from the lexical stand-in (the real client and
prompt templates, so the sizes are real; benchmarks/lexical.py)."""

from __future__ import annotations

import pytest

from companion.observe import Budget, BudgetError, PageObserver
from companion.observe.budget import fit_history, pack, prompt_tokens, split_text
from companion.observe.calls import Accounting, Caller, Fallback
from companion.observe.extraction import extract
from companion.observe.selection import select_sections
from companion.observe.task_summary import summarize_for_task
from companion.pagemem.divide import divide_page
from companion.pagemem.model import PageMem, PageSection
from companion.pagemem.tokens import count_tokens
from tests.support.htmlsnap import snapshot_from_html

SMALL = Budget(max_prompt_tokens=1500, history_tokens=300)


def caller(lexical, budget: Budget = SMALL) -> Caller:
    return Caller(lexical.client, budget, Accounting())


def test_history_keeps_the_latest_steps_and_says_how_many_lines_were_left_out():
    history = "\n".join(f"Step {i}: clicked the link number {i} on the results page" for i in range(1, 201))
    fitted = fit_history(history, 300)
    assert count_tokens(fitted) <= 300
    assert fitted.endswith("Step 200: clicked the link number 200 on the results page")
    first = fitted.splitlines()[0]
    assert first.startswith("(") and "earlier history lines left out" in first
    assert fit_history("Step 1: short", 300) == "Step 1: short"


def test_split_text_keeps_every_character_in_bounded_pieces():
    text = "\n".join(f"- text: row {i} " + "word " * (i % 40) for i in range(300)) + "\n" + "x" * 5000
    pieces = split_text(text, 200)
    assert len(pieces) > 5 and all(count_tokens(p) <= 200 for p in pieces)
    assert "".join(pieces).replace("\n", "").replace(" ", "") == text.replace("\n", "").replace(" ", "")


def test_pack_respects_the_limit_and_the_item_count():
    items = [f"item number {i} with a few words" for i in range(100)]
    groups = pack(items, fixed_tokens=100, limit=400, max_count=25)
    assert [i for g in groups for i in g] == list(range(100))
    assert all(len(g) <= 25 for g in groups)
    assert all(100 + sum(count_tokens(items[i]) + 4 for i in g) <= 400 for g in groups)


async def test_a_prompt_over_the_bound_is_refused_before_it_is_sent(lexical):
    c = caller(lexical)
    variables = {"task": "t", "history": "", "page_title": "p", "url": "u", "section_purpose": "s", "details": "word " * 5000}
    with pytest.raises(BudgetError, match="detail_extraction.*over the 1500-token bound"):
        await c.ask("detail_extraction", variables, object, max_tokens=10, fallback=Fallback("nothing", lambda: None))
    assert c.accounting.count == 0


async def test_a_section_too_big_for_one_prompt_is_extracted_in_pieces_that_together_hold_all_of_it(lexical):
    details = "\n".join(f"- text: clause {i} of the terms mentions the refund window of {i} days" for i in range(400))
    section = PageSection(id="s1", kind="normal", roots=[], tag="div", details=details, purpose="Terms")
    pm = PageMem(url="http://127.0.0.1/terms", title="Terms", sections=[section])
    c = caller(lexical)
    text, cached = await extract(c, SMALL, "How many days is the refund window?", "", pm, section, details)
    calls = c.accounting.calls
    assert not cached and len(calls) > 3 and all(call.prompt_tokens <= SMALL.max_prompt_tokens for call in calls)
    sent = "\n".join(user for _, user in lexical.prompts())
    assert all(line in sent for line in details.splitlines())  # every line reached some extraction call
    assert text.startswith("- text: clause 0 ") and len(text) > 2 * 1200  # the pieces' answers, joined in order
    again, cached = await extract(c, SMALL, "How many days is the refund window?", "", pm, section, details)
    assert cached and again == text and len(c.accounting.calls) == len(calls)


async def test_many_sections_are_selected_over_several_bounded_calls(lexical):
    sections = [PageSection(id=f"s{i}", kind="normal", roots=[], tag="div", details="x", purpose=f"Region {i} about topic {i}",
                            summary="A region with some links and text about one topic of the site.", needs_summary=False)
                for i in range(1, 301)]
    pm = PageMem(url="http://127.0.0.1/", title="Big", sections=sections)
    c = caller(lexical)
    chosen = await select_sections(c, SMALL, "Open the page about topic 250", "", pm, sections)
    assert c.accounting.count > 1 and c.accounting.max_prompt_tokens <= SMALL.max_prompt_tokens
    assert "s250" in chosen


async def test_extractions_that_do_not_fit_one_summary_prompt_are_summarised_in_rounds(lexical):
    entries = [f"Region {i}: " + "the price of the blue kettle is 20 dollars and it ships tomorrow. " * 12 for i in range(40)]
    pm = PageMem(url="http://127.0.0.1/", title="Kettles", sections=[])
    c = caller(lexical)
    summary = await summarize_for_task(c, SMALL, "Find the blue kettle price", "", pm, entries)
    assert summary and c.accounting.count > 2 and c.accounting.max_prompt_tokens <= SMALL.max_prompt_tokens
    assert c.accounting.by_prompt() == {"page_task_summary": c.accounting.count}


async def test_a_page_with_a_long_list_and_long_history_stays_under_a_small_bound(lexical):
    # The last row differs by a word, not by a value the task could name it by (rows.py would find that by rule).
    rows = "".join(f'<li class="r"><a href="/p/{i}">Product {i} {"copper " * (i == 1499)}kettle</a> '
                   f'<span>${i}.00 in stock</span></li>' for i in range(1500))
    html = f"<html><body><h1>Kettles</h1><p>All our kettles.</p><ul id='results'>{rows}</ul></body></html>"
    pm = divide_page(snapshot_from_html(html, title="Kettles"))
    history = "\n".join(f"Step {i}\nObservation: a page - Summary: looked at kettles and prices again" for i in range(60))
    obs = await PageObserver(client=lexical.client, budget=SMALL).observe("Find the copper one", history, pm)
    assert obs.usage.max_prompt_tokens <= SMALL.max_prompt_tokens
    (scan,) = obs.list_scans.values()
    assert scan.selected == [1499] and scan.scanned == 1500 and scan.chunks >= 60  # chunks of at most 25
    assert obs.usage.by_prompt()["list_item_selection"] == scan.chunks
    assert prompt_tokens("list_item_selection", {"task": "t", "history": "", "list_purpose": "p", "items": []}) < 400


def test_the_summary_sees_the_steps_done_not_the_earlier_observations_and_reasons():
    from companion.observe.task_summary import steps_done
    history = ("Step 1\nObservation: Tea Corner (http://127.0.0.1/a) - Summary: There is no price here.\n"
               "Reason for Action: Search for it.\nActions:\n- Typed \"steel teapot\" into searchbox \"Search\"\n"
               "- Pressed Enter in searchbox \"Search\"\n\n"
               "Step 2\nObservation: Results (http://127.0.0.1/r?q=a) - Summary: A list.\n"
               "Reason for Action: Open it.\nAction: Clicked link \"Steel teapot\"")
    assert steps_done(history) == ('Step 1 on Tea Corner: Typed "steel teapot" into searchbox "Search"; '
                                   'Pressed Enter in searchbox "Search"\nStep 2 on Results: Clicked link "Steel teapot"')
    assert steps_done("") == ""
