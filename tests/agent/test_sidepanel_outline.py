"""A task started from the side panel outlines each action's target on the page for a moment before acting,
through the real task service, the scripted LLM, Chromium and the extension."""

from __future__ import annotations

import pytest
from selenium.webdriver.support.ui import WebDriverWait
from selenium.webdriver.common.by import By

from companion.agent.service import TARGET_OUTLINE_MS
from tests.support.agent_llm import index_of
from tests.support.sidepanel_task import enter_task, side_panel
from tests.support.outline import isolated

pytestmark = pytest.mark.browser


@pytest.mark.selection("all")
def test_a_side_panel_task_outlines_the_button_before_clicking_it(browser, pages, agent_llm, task_service):  # noqa: F811
    def choose(text: str, labels: list[str]) -> int:
        if "Account deleted" in text.split("Current page:", 1)[1].split("Possible actions:", 1)[0]:
            return index_of(labels, r"^end the task")
        return index_of(labels, r'button "Delete account"')

    agent_llm(choose=choose, answer=lambda text: "The account was deleted.")
    url = pages.url("agent_account.html")
    with side_panel(browser, url) as driver:
        enter_task(driver, "Delete my account", ask=False)
        WebDriverWait(driver, 120).until(lambda d: d.find_element(By.ID, "task-status").text.startswith("Finished: done"))
        flashes = isolated(driver, url, "outline.flashes")
    (flash,) = [f for f in flashes if f["kind"] == "click"]
    assert flash["hidden_at"] - flash["shown_at"] >= TARGET_OUTLINE_MS - 10  # timers never fire early
    button = browser.driver.execute_script(
        "const r = document.getElementById('delete').getBoundingClientRect(); return [r.x, r.y, r.width, r.height]")
    assert [round(flash["box"][k]) for k in ("x", "y", "w", "h")] == [round(v) for v in button]
