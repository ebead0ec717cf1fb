"""A path through cascading menus, "Select Claudie>Robbie", as one action (act/menu_path.py): real Chromium, the
real extension, a menu whose submenu opens a moment after the pointer enters its entry."""

from __future__ import annotations

import pytest
from selenium.webdriver.common.by import By

from companion.act import execute, gather_candidates
from companion.act.menu_path import menu_path
from companion.observe import Observation


@pytest.mark.parametrize("task, path", [
    ("Select Claudie>Robbie", ["Claudie", "Robbie"]),
    ("Choose File > Export > PDF and press OK.", ["File", "Export", "PDF"]),
    ('Click "Next >"', []),
    ("Select Robbie", []),
])
def test_the_path_a_task_gives_is_read_from_its_words(task, path):
    assert menu_path(task) == path


def _whole(ctx) -> Observation:
    pm = ctx.pagemem
    return Observation(url=pm.url, page_title="page", summary="a page", selected=[s.id for s in pm.sections],
                       unselected=[]).model_copy(update={"small": True})


@pytest.mark.browser
async def test_the_entries_before_the_last_are_pointed_at_and_the_last_clicked(browser, open_page, make_ctx):
    open_page("cascading_menu.html")
    ctx = await make_ctx("Select Claudie>Robbie")
    offered = await gather_candidates(ctx, _whole(ctx))
    paths = [c for c in offered if c.kind == "menu_path"]
    assert [c.label for c in paths] == ['choose "Claudie > Robbie" in the menu (point at each entry, then click the last)']
    # The entry with a submenu is offered no plain click: clicked, it is chosen itself.
    assert not [c for c in offered if c.kind == "element" and c.element == paths[0].element]
    outcome = await execute(ctx, paths[0])
    assert browser.driver.find_element(By.ID, "chosen").text == "Robbie"
    assert outcome.actions == ['Pointed at menuitem "Claudie"; Clicked menuitem "Robbie"']
