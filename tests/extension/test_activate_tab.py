"""activate_tab makes the browser show another tab: list_tabs then reports it as the active one."""

import pytest

from companion.bridge.errors import RemoteError

pytestmark = pytest.mark.browser


def test_activating_the_second_tab_shows_it(browser, open_page, pages):
    open_page("basic.html")
    session = browser.session
    first = browser.run(session.snapshot_result()).tab_id
    second = browser.run(session.open_tab(pages.url("second.html"), active=False))
    try:
        assert next(t for t in browser.run(session.list_tabs()) if t.tab_id == first).active
        shown = browser.run(session.activate_tab(second.tab_id))
        assert shown.tab_id == second.tab_id and shown.active
        active = [t.tab_id for t in browser.run(session.list_tabs()) if t.active]
        assert active == [second.tab_id]
    finally:
        browser.run(session.activate_tab(first))
        browser.driver.execute_cdp_cmd("Target.closeTarget", {"targetId": _target_of(browser, pages.url("second.html"))})


def test_activating_a_closed_tab_is_a_no_tab_error(browser):
    with pytest.raises(RemoteError) as info:
        browser.run(browser.session.activate_tab(987654))
    assert info.value.code == "no_tab"


def _target_of(browser, url: str) -> str:
    targets = browser.driver.execute_cdp_cmd("Target.getTargets", {})["targetInfos"]
    return next(t["targetId"] for t in targets if t["type"] == "page" and t["url"] == url)


async def test_the_switch_tab_action_shows_the_tab_it_switches_to(browser, open_page, pages, tmp_path):
    from companion.act.context import AgentContext
    from companion.act.models import Candidate
    from companion.act.routing import execute

    open_page("basic.html")
    session = browser.session
    first = (await session.snapshot_result()).tab_id
    other = await session.open_tab(pages.url("second.html"), active=False)
    ctx = AgentContext(session=session, task="Compare with the other tab", files_dir=tmp_path)
    try:
        await ctx.refresh()
        await ctx.refresh_tabs()
        await execute(ctx, Candidate(kind="switch_tab", label="other", tab_id=other.tab_id), "look there")
        assert [t.tab_id for t in await session.list_tabs() if t.active] == [other.tab_id]
    finally:
        await session.activate_tab(first)
        browser.driver.execute_cdp_cmd("Target.closeTarget", {"targetId": _target_of(browser, pages.url("second.html"))})
