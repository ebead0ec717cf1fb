"""A control the task asks for on every item of a kind is used on each of them, one at a time, with the one the model
chose (act/named_fields.alike_left, act/routing._use_alike). Real Chromium, the real extension, execute()."""

from __future__ import annotations

import pytest

from companion.act import execute
from companion.act.candidates import element_candidate
from tests.support.act_context import candidate_for, text_of

pytestmark = pytest.mark.browser


def _retweet_of(ctx, words: str):
    el = next(e for e in ctx.pagemem.all_elements() if e.name == "Retweet" and words in e.context)
    return element_candidate(el, ctx.pagemem.section_of(el.ref).id)


async def test_the_control_is_used_on_every_post_the_task_means(browser, open_page, make_ctx):
    # The default model retweeted one post by @tora and pressed Submit.
    open_page("feed_posts.html")
    ctx = await make_ctx('Click the "Retweet" button on all posts by @tora and then click Submit.')
    outcome = await execute(ctx, _retweet_of(ctx, "Id vestibulum"), "scripted")
    retweeted = browser.driver.execute_script("return [...document.querySelectorAll('.retweet.selected')].map(b => b.dataset.i)")
    assert retweeted == ["1", "3"]
    assert len(outcome.actions) == 2 and all("Retweet" in a for a in outcome.actions), outcome.actions
    for action in outcome.actions:
        ctx.parts.tick_action(action)  # as the step does after each action (agent/step.py)
    # The feed redrew its posts after each click: what was used is gone, and still something was done on this page.
    await execute(ctx, candidate_for(ctx, "Submit"), "scripted")
    assert text_of(browser, "#did") == "1,3"


async def test_without_all_only_the_chosen_post_is_used(browser, open_page, make_ctx):
    open_page("feed_posts.html")
    ctx = await make_ctx('Click the "Retweet" button on the post by @tora that says "Id vestibulum".')
    outcome = await execute(ctx, _retweet_of(ctx, "Id vestibulum"), "scripted")
    assert len(outcome.actions) == 1
