"""Which of the elements a click revealed are offered to pick (act/dropdown.py): a send under an empty message box is
not, and nothing is asked when the task quotes a name that none of them bears. Pure functions over elements divided
by the real PageMem pipeline from HTML (tests/support/htmlsnap.py); the tab case runs in Chromium in
test_refused_once.py. An open menu's button is not clicked again (it would close the menu); a button that revealed rows
is (it loads more): in real Chromium with the real extension."""

from __future__ import annotations

import pytest
from selenium.webdriver.common.by import By

from companion.act import execute
from companion.act.dropdown import quoted_elsewhere, sends_empty
from companion.act.errors import NoOp
from companion.pagemem.divide import divide_page
from tests.support.act_context import candidate_for
from tests.support.htmlsnap import snapshot_from_html


def revealed(body: str):
    return list(divide_page(snapshot_from_html(f"<html><body>{body}</body></html>")).all_elements())


def test_a_send_under_an_empty_message_box_is_not_offered():
    els = revealed('<textarea aria-label="Message"></textarea><button>Send</button>')
    send = next(e for e in els if e.name == "Send")
    assert sends_empty(send, els, set())


def test_a_send_under_a_filled_message_box_is_offered():
    els = revealed('<textarea aria-label="Message">See you at noon.</textarea><button>Send</button>')
    send = next(e for e in els if e.name == "Send")
    assert not sends_empty(send, els, set())


def test_nothing_is_picked_when_no_revealed_element_bears_the_quoted_name():
    els = revealed('<a href="#a">posuere</a><a href="#b">commodo</a>')
    assert quoted_elsewhere('Switch between the tabs to find and click on the link "Dui".', els)
    assert not quoted_elsewhere('Open the menu and click "commodo".', els)
    assert not quoted_elsewhere("Open the menu and click commodo.", els)  # nothing quoted: the model picks


NONE_PICKED = [{"prompt": "dropdown_option", "responses": ['{"reason": "scripted", "index": -1}']}]


@pytest.mark.browser
async def test_an_open_menus_button_is_not_clicked_again(browser, open_page, make_ctx, scripted_llm, llm_client_for):
    open_page("menu_button.html")
    llm_client_for(scripted_llm(rules=NONE_PICKED))
    ctx = await make_ctx("Open the menu and choose an entry.")
    await execute(ctx, candidate_for(ctx, "Menu"), "scripted")
    with pytest.raises(NoOp, match="is open"):
        await execute(ctx, candidate_for(ctx, "Menu"), "scripted")
    assert browser.driver.find_element(By.ID, "menu").get_attribute("class") == "open"


@pytest.mark.browser
async def test_a_button_that_revealed_rows_is_clicked_again(browser, open_page, make_ctx, scripted_llm, llm_client_for):
    open_page("menu_button.html")
    llm_client_for(scripted_llm(rules=NONE_PICKED))
    ctx = await make_ctx("Show all the rows.")
    await execute(ctx, candidate_for(ctx, "Load more"), "scripted")
    await execute(ctx, candidate_for(ctx, "Load more"), "scripted")
    assert len(browser.driver.find_elements(By.CSS_SELECTOR, "#rows li")) == 4
