"""Boxes chosen by meaning, one word at a time (act/similar_choices.py): real Chromium, the real extension, the
scripted server answering each word's question."""

from __future__ import annotations

import json

import pytest
from selenium.webdriver.common.by import By

from companion.act import execute
from companion.act.similar_choices import similar_words
from tests.support.act_context import candidate_for


@pytest.mark.parametrize("task, words", [
    ("Select words similar to keep, serene, funny, initiate and click Submit.", ["keep", "serene", "funny", "initiate"]),
    ("Tick the synonyms of big and fast, then press OK", ["big", "fast"]),
    ("Select the words that mean happy or sad.", ["happy", "sad"]),
    ("Select keep and quiet and click Submit.", []),
])
def test_the_words_a_task_asks_boxes_similar_to_are_read_from_it(task, words):
    assert similar_words(task) == words


def _questions(server) -> list:
    return [r for r in server.requests if r.prompt == "similar_option"]


def _checked(browser) -> list[str]:
    return [b.get_attribute("id") for b in browser.driver.find_elements(By.CSS_SELECTOR, "input:checked")]


@pytest.mark.browser
async def test_ticking_one_box_ticks_the_box_each_other_word_goes_with(
        browser, open_page, make_ctx, scripted_llm, llm_client_for):
    # keep is its own box; serene, funny and initiate are asked one at a time among the boxes no word took yet.
    answers = [json.dumps({"reason": "closest", "index": i}) for i in (0, 2, 1)]  # quiet; comical; start
    server = scripted_llm(rules=[{"prompt": "similar_option", "responses": answers}])
    llm_client_for(server)
    open_page("similar_words.html")
    ctx = await make_ctx("Select words similar to keep, serene, funny, initiate and click Submit.")
    outcome = await execute(ctx, candidate_for(ctx, "keep"), "scripted")
    assert sorted(_checked(browser)) == ["comical", "keep", "quiet", "start"]
    assert outcome.actions == ['Checked checkbox "keep"', 'Checked checkbox "quiet"', 'Checked checkbox "comical"',
                               'Checked checkbox "start"']
    assert len(_questions(server)) == 3


@pytest.mark.browser
async def test_a_task_naming_its_boxes_asks_no_question(browser, open_page, make_ctx, scripted_llm, llm_client_for):
    server = scripted_llm(rules=[])
    llm_client_for(server)
    open_page("similar_words.html")
    ctx = await make_ctx("Select keep and quiet and click Submit.")
    await execute(ctx, candidate_for(ctx, "keep"), "scripted")
    assert sorted(_checked(browser)) == ["keep", "quiet"]
    assert _questions(server) == []
