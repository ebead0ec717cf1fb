"""A control the task asks for on every item of a kind is used on each of them, one at a time, with the one the model
chose (act/named_fields.alike_left, act/routing._use_alike). Real Chromium, the real extension, execute()."""

from __future__ import annotations

import pytest

from companion.act import execute
from companion.act.candidates import element_candidate
from companion.act.errors import NotYet
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


async def test_a_number_of_posts_uses_the_control_on_that_many(browser, open_page, make_ctx):
    # "Click the 'Like' button on 3 posts by @nathalie": the default model liked one post twice.
    open_page("feed_posts.html")
    browser.driver.execute_script("posts.push(['Dorsey', '@tora', 'Eget nunc.']); draw()")
    ctx = await make_ctx('Click the "Retweet" button on 2 posts by @tora and then click Submit.')
    outcome = await execute(ctx, _retweet_of(ctx, "Id vestibulum"), "scripted")
    retweeted = browser.driver.execute_script("return [...document.querySelectorAll('.retweet.selected')].map(b => b.dataset.i)")
    assert retweeted == ["1", "3"] and len(outcome.actions) == 2, outcome.actions


async def test_without_all_only_the_chosen_post_is_used(browser, open_page, make_ctx):
    open_page("feed_posts.html")
    ctx = await make_ctx('Click the "Retweet" button on the post by @tora that says "Id vestibulum".')
    outcome = await execute(ctx, _retweet_of(ctx, "Id vestibulum"), "scripted")
    assert len(outcome.actions) == 1


@pytest.mark.parametrize("task, remedy", [
    ("Retweet the post by @viverra.", True),            # the control is the task's: its row's is the way
    ('For the user @viverra, click on the "Report" button.', False),  # the task names another control
])
async def test_a_control_from_a_row_the_task_does_not_name_points_at_the_named_rows_only_when_the_task_names_it(
        browser, open_page, make_ctx, task, remedy):
    # Asked for a "Report" hidden in a post's menu, the default model chose two posts' "retweet", and the rule's
    # remedy, taken, retweeted @kenda's post.
    open_page("feed_posts.html")
    ctx = await make_ctx(task)
    with pytest.raises(NotYet) as refused:
        await execute(ctx, _retweet_of(ctx, "@lorem"), "scripted")
    assert "the task names viverra" in str(refused.value), refused.value
    assert (refused.value.remedy is not None) is remedy


async def test_a_control_named_nowhere_points_at_the_more_menu_of_the_row_the_task_names(browser, open_page, make_ctx):
    # 'For the user @kenda, click on the "Report" button': "Report" sits in each post's "more" menu, whose state no
    # attribute says; the menu of @kenda's post is the way.
    open_page("post_menus.html")
    ctx = await make_ctx('For the user @viverra, click on the "Report" button.')
    retweet = next(e for e in ctx.pagemem.all_elements() if e.name == "retweet" and "@viverra" in e.context)
    with pytest.raises(NotYet) as refused:
        await execute(ctx, element_candidate(retweet, ctx.pagemem.section_of(retweet.ref).id), "scripted")
    assert 'no element on this page is named "Report"' in str(refused.value), refused.value
    opener = ctx.pagemem.element_by_ref(refused.value.remedy)
    assert opener.name == "more" and "@viverra" in opener.context
    assert text_of(browser, "#did") == "nothing"


async def test_a_like_the_agent_used_on_this_page_is_not_offered_again(browser, open_page, make_ctx):
    # A second click undoes it: the default model liked a post twice and so left it unliked.
    from companion.act.prefilter import usable_elements

    open_page("post_menus.html")
    ctx = await make_ctx("Retweet the post by @viverra.")
    retweet = next(e for e in ctx.pagemem.all_elements() if e.name == "retweet" and "@viverra" in e.context)
    await execute(ctx, element_candidate(retweet, ctx.pagemem.section_of(retweet.ref).id), "scripted")
    assert text_of(browser, "#did") == "retweet @viverra"
    await ctx.refresh()

    offered = usable_elements(list(ctx.pagemem.all_elements()), ctx.pagemem.url)

    retweets = [e.context for e in offered if e.name == "retweet"]
    assert len(retweets) == 2 and not any("@viverra" in c for c in retweets), retweets
