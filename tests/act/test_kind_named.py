"""A control of another kind than the one the task acts on is refused once with those of that kind
(act/premature.py check_kind_named). Real Chromium, the real extension, execute() on a fixture page."""

from __future__ import annotations

import pytest

from companion.act import execute
from companion.act.candidates import element_candidate
from companion.act.errors import NotYet
from tests.support.act_context import candidate_for, text_of

pytestmark = pytest.mark.browser


def _of_role(ctx, role: str):
    el = next(e for e in ctx.pagemem.all_elements() if e.role == role)
    return element_candidate(el, ctx.pagemem.section_of(el.ref).id)


async def test_a_checkbox_for_a_text_widget_is_refused_once_with_the_text_fields(browser, open_page, make_ctx):
    # The default model, offered a checkbox, two text inputs and a radio for 'Click on a "text" widget', ticked the box.
    open_page("widget_kinds.html")
    ctx = await make_ctx('Click on a "text" widget.')
    with pytest.raises(NotYet) as refused:
        await execute(ctx, _of_role(ctx, "checkbox"), "scripted")
    assert "the task acts on a text field" in str(refused.value) and 'textbox value="4c4"' in str(refused.value), refused.value
    assert text_of(browser, "#did") == "nothing"


async def test_a_control_of_the_named_kind_is_clicked_at_once(browser, open_page, make_ctx):
    open_page("widget_kinds.html")
    ctx = await make_ctx("Click the radio button.")
    await execute(ctx, _of_role(ctx, "radio"), "scripted")
    assert text_of(browser, "#did") == "r1"


async def test_a_control_the_task_names_is_clicked_though_it_is_of_another_kind(browser, open_page, make_ctx):
    open_page("widget_kinds.html")
    ctx = await make_ctx("Click the checkbox beside the radio QguV.")
    await execute(ctx, _of_role(ctx, "radio"), "scripted")
    assert text_of(browser, "#did") == "r1"


async def test_a_text_field_a_task_only_asks_to_click_is_clicked_not_typed_into(browser, open_page, make_ctx,
                                                                                scripted_llm, llm_client_for):
    # 'Click on a "textarea" widget': the default model typed "textarea" into the text area.
    server = scripted_llm(rules=[])
    llm_client_for(server)
    open_page("widget_kinds.html")
    ctx = await make_ctx('Click on a "text" widget.')
    outcome = await execute(ctx, _of_role(ctx, "textbox"), "scripted")
    assert outcome.actions[0].startswith("Clicked textbox"), outcome.actions
    assert browser.driver.find_element("id", "t1").get_attribute("value") == "4c4" and text_of(browser, "#did") == "t1"
    assert server.requests == []


async def test_a_text_field_not_at_the_place_the_task_counts_is_refused_once(browser, open_page, make_ctx):
    # "Focus into the 2nd input textbox": the default model clicked the first.
    open_page("widget_kinds.html")
    ctx = await make_ctx("Focus into the 2nd input textbox.")
    with pytest.raises(NotYet) as refused:
        await execute(ctx, _of_role(ctx, "textbox"), "scripted")
    assert "the 2nd input textbox" in str(refused.value) and "(2 of 2 in page order); this one is 1 of 2" in str(refused.value)


async def test_a_control_other_than_the_close_one_is_refused_once_for_the_quoted_x(browser, open_page, make_ctx):
    # 'Click the button in the dialog box labeled "x"': the default model clicked "OK".
    open_page("dialog_close.html")
    ctx = await make_ctx('Click the button in the dialog box labeled "x".')
    with pytest.raises(NotYet) as refused:
        await execute(ctx, candidate_for(ctx, "OK"), "scripted")
    assert 'the task\'s "x" is the close control, button "Close"' in str(refused.value), refused.value
    await execute(ctx, candidate_for(ctx, "Close"), "scripted")
    assert text_of(browser, "#did") == "x"


async def test_the_close_button_is_meant_by_the_quoted_x_though_an_icon_beside_it_is_named_close_too(
        browser, open_page, make_ctx):
    # A dialog library's title bar: a generic "Close" beside the button "Close"; the default model clicked "OK".
    open_page("dialog_close.html")
    browser.driver.execute_script("""
        const icon = document.createElement("span");
        icon.className = "icon-close"; icon.title = "Close"; icon.style.cursor = "pointer";
        document.getElementById("x").before(icon);""")
    ctx = await make_ctx('Click the button in the dialog box labeled "x".')
    assert sum((e.name or e.text) == "Close" for e in ctx.pagemem.all_elements()) == 2
    with pytest.raises(NotYet) as refused:
        await execute(ctx, candidate_for(ctx, "OK"), "scripted")
    assert 'the task\'s "x" is the close control, button "Close"' in str(refused.value), refused.value
