"""Paging a long option list (companion/act/paging.py) through the real client and the scripted server: every option
is shown once, no prompt passes the bound, a pick is carried into the next page and can be replaced or kept."""

from __future__ import annotations

import json

from companion.act.paging import CARRIED, choose_paged, option_pages
from companion.llm.prompts import numbered
from companion.observe.budget import Budget, prompt_tokens

VARS = {"task": "Assign it to the right group", "history": "", "trigger": 'button "Group"'}


def choice(index: int) -> str:
    return json.dumps({"reason": "scripted", "index": index})


def test_a_long_list_of_long_labels_is_paged_within_the_bound_and_every_option_shown_once():
    labels = [f'option "Group {i}: ' + "a very long description of what this group handles " * 6 + '"' for i in range(120)]
    budget = Budget(max_prompt_tokens=2000)
    pages = option_pages("dropdown_option", VARS, labels, "options", 60, budget)

    assert [i for page in pages for i in page] == list(range(120))
    assert len(pages) > 2  # the token bound, not the 60 per page, decided the size
    for page in pages:
        shown = [labels[page[0]] + CARRIED] + [labels[i] for i in page]
        assert prompt_tokens("dropdown_option", {**VARS, "options": shown, "paging": None}) <= budget.usable


async def test_a_pick_is_carried_and_a_better_one_on_a_later_page_replaces_it(scripted_llm, llm_client_for):
    labels = [f'option "Team {i}"' for i in range(1, 101)]
    server = scripted_llm(rules=[{"prompt": "dropdown_option", "responses": [choice(7), choice(27)]}])
    llm_client_for(server)
    got = await choose_paged("dropdown_option", VARS, labels, key="options", per_page=60, max_tokens=80)

    assert (got.index, got.calls, got.pages) == (86, 2, 2)  # [27] of page 2 (after the carried [0]) is Team 87
    second = server.requests[1].last_user
    assert numbered([labels[7] + CARRIED]) in second and "these are options 61 to 100" in second


async def test_keeping_the_carried_pick_answers_it(scripted_llm, llm_client_for):
    labels = [f'option "Team {i}"' for i in range(1, 101)]
    llm_client_for(scripted_llm(rules=[{"prompt": "dropdown_option", "responses": [choice(7), choice(0)]}]))
    got = await choose_paged("dropdown_option", VARS, labels, key="options", per_page=60, max_tokens=80)
    assert got.index == 7


async def test_a_list_that_fits_is_one_call_without_a_paging_line(scripted_llm, llm_client_for):
    server = scripted_llm(rules=[{"prompt": "dropdown_option", "responses": [choice(-1)]}])
    llm_client_for(server)
    got = await choose_paged("dropdown_option", VARS, ['option "Red"', 'option "Blue"'], key="options",
                             per_page=60, max_tokens=80)
    assert (got.index, got.calls) == (-1, 1)
    assert "a page at a time" not in server.requests[0].last_user
