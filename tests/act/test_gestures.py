"""Pointer gestures as candidate actions (act/gestures.py), end to end in real Chromium: what is offered on a page
with draggable elements, sliders or text a task asks to select, and what the page received once one is chosen."""

from __future__ import annotations

import json

import pytest
from selenium.webdriver.common.by import By

from companion.act import execute, gather_candidates
from companion.act.resize import asked_resize
from companion.act.style_text import asked_style, asked_text
from companion.observe import Observation

pytestmark = pytest.mark.browser


def _whole(ctx) -> Observation:
    pm = ctx.pagemem
    return Observation(url=pm.url, page_title="page", summary="a page", selected=[s.id for s in pm.sections],
                       unselected=[]).model_copy(update={"small": True})


def _log(browser) -> list[str]:
    return browser.driver.find_element(By.ID, "log").get_attribute("textContent").splitlines()


async def _offered(make_ctx, task):
    ctx = await make_ctx(task)
    return ctx, await gather_candidates(ctx, _whole(ctx))


def _one(candidates, label):
    found = [c for c in candidates if c.label == label]
    assert len(found) == 1, [c.label for c in candidates]
    return found[0]


async def test_a_draggable_element_is_dragged_onto_the_element_the_task_names(browser, open_page, make_ctx):
    """The task names the dragged element and the drop place: one candidate says both (the task's sentence shown on
    the page is no drop place), and no click is offered on the draggable element."""
    open_page("gestures.html")
    ctx, offered = await _offered(make_ctx, "Drag item 3 onto box B")
    chosen = _one(offered, 'drag "item 3" onto "box B"')
    assert [c.label for c in offered if c.element == chosen.element] == [
        'drag "item 3" onto "box B"', 'drag "item 3" (then choose where to drop it)']
    outcome = await execute(ctx, chosen)
    assert outcome.actions == ['Dragged generic "item 3" onto "box B" (it moved 165 px right and 50 px down)']
    assert _log(browser) == ["item:mousedown", "item:dropped:boxB:moves=8"]


async def test_the_drop_place_is_asked_when_the_task_does_not_name_one(browser, open_page, make_ctx, scripted_llm,
                                                                       llm_client_for):
    open_page("gestures.html")
    server = scripted_llm(rules=[{"prompt": "drop_place", "pattern": r"down by 180 pixels",
                                  "responses": [json.dumps({"reason": "the task says down", "index": 4})]}])
    llm_client_for(server)
    ctx, offered = await _offered(make_ctx, "Move the item down")
    outcome = await execute(ctx, _one(offered, 'drag "item 3" (then choose where to drop it)'))
    asked = server.requests[0].last_user
    assert '[0] onto "card" (1 of 1)' in asked and "[1] left by 180 pixels" in asked and "[4] down by 180 pixels" in asked
    assert outcome.actions == ['Dragged generic "item 3" down by 180 pixels (it moved 180 px down)']
    assert browser.driver.execute_script("return document.getElementById('item').style.top") == "180px"


async def test_a_slider_is_set_to_the_value_the_model_reads_from_the_task(browser, open_page, make_ctx, scripted_llm,
                                                                          llm_client_for):
    """Several sliders: the value is asked, with the slider's range, and the native input gets input and change."""
    open_page("gestures.html")
    server = scripted_llm(rules=[{"prompt": "input_value", "pattern": r"now 10, from 0 to 50",
                                  "responses": ['{"value": "35"}']}])
    llm_client_for(server)
    ctx, offered = await _offered(make_ctx, "Turn the volume to 35")
    outcome = await execute(ctx, _one(offered, 'set the slider "volume" (now 10, from 0 to 50) to the value the task gives'))
    assert outcome.actions == ['Set slider "volume" to 35']
    assert _log(browser) == ["volume:input:35", "volume:change:35"]


async def test_text_the_task_quotes_is_offered_for_selection_and_selected(browser, open_page, make_ctx):
    open_page("gestures.html")
    ctx, offered = await _offered(make_ctx, 'Highlight the words "brown fox" in the paragraph')
    outcome = await execute(ctx, _one(offered, 'select the text "brown fox"'))
    assert outcome.actions == ['Selected the text "brown fox"']
    assert _log(browser) == ["para:mouseup:brown fox"]


async def test_the_pages_statement_of_the_task_is_not_offered_as_the_text_to_select(browser, open_page, make_ctx):
    open_page("gestures.html")
    task = "Select all of the text of the paragraph below"
    browser.driver.execute_script("document.getElementById('query').textContent = arguments[0]", task)
    _, offered = await _offered(make_ctx, task)
    selections = [c.label for c in offered if c.kind == "select_text"]
    assert selections == ['select the whole text "The quick brown fox jumps over the lazy …"']  # not the task's line


async def test_no_gesture_is_offered_where_the_page_has_none(browser, open_page, make_ctx):
    open_page("act_login.html")
    _, offered = await _offered(make_ctx, "Highlight the text, then log in as alice")
    assert not [c for c in offered if c.kind in ("drag", "slider")]
    assert [c.kind for c in offered if c.kind == "select_text"] == []


async def test_a_box_of_text_is_scrolled_to_its_end_when_the_task_asks_to_scroll(browser, open_page, make_ctx):
    """Text areas and long text blocks are offered to scroll, to the bottom unless the task says top; chosen, the
    box itself scrolls (the page's own scroll event fires: a gated Accept is enabled)."""
    open_page("scroll_box.html")
    ctx, offered = await _offered(make_ctx, "Scroll to the bottom of the agreement, then accept it.")
    scrolls = [c.label for c in offered if c.kind == "scroll"]
    assert scrolls == ['scroll the text area "Line one Line two Line three Line four …" to the bottom',
                       'scroll the text "These terms govern the use of the service …" to the bottom'], scrolls
    outcome = await execute(ctx, _one(offered, scrolls[1]), "read the terms")
    assert outcome.actions == ['Scrolled the text "These terms govern the use of the service …" to the bottom']
    assert _log(browser) == ["terms read to the end"]
    assert browser.driver.find_element(By.ID, "accept").is_enabled()


async def test_no_scroll_is_offered_when_the_task_does_not_ask_for_one(browser, open_page, make_ctx):
    open_page("scroll_box.html")
    _, offered = await _offered(make_ctx, "Accept the agreement.")
    assert not [c for c in offered if c.kind == "scroll"]


async def test_a_drag_to_a_numbered_position_drops_onto_the_item_in_that_place_without_a_call(
        browser, open_page, make_ctx, scripted_llm, llm_client_for):
    open_page("sortable_list.html")
    server = scripted_llm()
    llm_client_for(server)
    ctx, offered = await _offered(make_ctx, "Drag Dora to the 1st position.")
    asked_before = len(server.requests)
    outcome = await execute(ctx, _one(offered, 'drag "Dora" (then choose where to drop it)'))
    assert outcome.actions == ['Dragged listitem "Dora" onto "Ada" (1 of 4) (it moved 96 px up)']
    assert len(server.requests) == asked_before  # the place was read from the task, not asked
    order = browser.driver.execute_script("return [...document.querySelectorAll('li')].map(li => li.textContent)")
    assert order == ["Dora", "Ada", "Bo", "Cy"]


def test_the_place_a_task_asks_for_is_read_by_its_ordinal_or_number():
    from companion.act.drop_position import asked_position

    def asked(task):  # (kind, n)
        found = asked_position(task)
        return found and found[:2]

    assert asked("Drag Dora to the 1st position.") == ("at", 1)
    assert asked("Move the item into the third place") == ("at", 3)
    assert asked("Drag it to position 4") == ("at", 4)
    assert asked("Drag the row to the last position") == ("at", -1)
    assert asked("Drag Ada to the bottom.") == ("at", -1)
    assert asked("Drag Bo up by one position.") == ("by", -1)
    assert asked("Move the card down 2 places") == ("by", 2)
    assert asked("Drag item 3 onto box B") is None


def test_a_grid_cell_or_neighbour_the_task_names_is_read_by_row_and_column():
    from companion.act.drop_position import Position, asked_position

    assert asked_position("Drag Ida to the center.") == Position("cell", row="middle", col="middle")
    assert asked_position("Drag Ida to the top right.") == Position("cell", row="first", col="last")
    assert asked_position("Drag Ida to the center left.") == Position("cell", row="middle", col="first")
    assert asked_position("Drag Ida to the bottom center.") == Position("cell", row="last", col="middle")
    assert asked_position("Drag Ida left by one.") == Position("across", -1)
    assert asked_position("Drag Ida down by one.") == Position("by", 1)


@pytest.mark.parametrize("task, order", [
    ("Drag Ida to the center.", ["Ada", "Bo", "Cy", "Dora", "Ida", "Eve", "Fay", "Gus", "Hal"]),
    ("Drag Ada to the bottom right.", ["Bo", "Cy", "Dora", "Eve", "Fay", "Gus", "Hal", "Ida", "Ada"]),
    ("Drag Hal to the top center.", ["Ada", "Hal", "Bo", "Cy", "Dora", "Eve", "Fay", "Gus", "Ida"]),
    ("Drag Eve up by one.", ["Ada", "Eve", "Bo", "Cy", "Dora", "Fay", "Gus", "Hal", "Ida"]),
    ("Drag Eve right by one.", ["Ada", "Bo", "Cy", "Dora", "Fay", "Eve", "Gus", "Hal", "Ida"]),
])
async def test_a_drag_to_a_grid_cell_drops_onto_the_tile_in_that_row_and_column_without_a_call(
        browser, open_page, make_ctx, scripted_llm, llm_client_for, task, order):
    """Rows and columns from the tiles' boxes: asked, the default model dropped "the center" onto the 7th of 9."""
    open_page("sortable_grid.html")
    server = scripted_llm()
    llm_client_for(server)
    name = task.split()[1]
    ctx, offered = await _offered(make_ctx, task)
    asked_before = len(server.requests)
    await execute(ctx, _one(offered, f'drag "{name}" (then choose where to drop it)'))
    assert len(server.requests) == asked_before
    assert browser.driver.execute_script("return [...document.querySelectorAll('li')].map(li => li.textContent)") == order


async def test_a_drag_by_one_place_drops_onto_the_neighbour(browser, open_page, make_ctx):
    open_page("sortable_list.html")
    ctx, offered = await _offered(make_ctx, "Drag Cy up by one position.")
    outcome = await execute(ctx, _one(offered, 'drag "Cy" (then choose where to drop it)'))
    assert outcome.actions == ['Dragged listitem "Cy" onto "Bo" (2 of 4) (it moved 32 px up)']
    order = browser.driver.execute_script("return [...document.querySelectorAll('li')].map(li => li.textContent)")
    assert order == ["Ada", "Cy", "Bo", "Dora"]


async def test_a_task_giving_one_number_per_slider_sets_every_slider_by_its_place_in_one_action(
        browser, open_page, make_ctx, scripted_llm, llm_client_for):
    """One candidate for the three sliders, not one per slider: offered one each, the default model set the two
    sliders meant for 15 four times and never the one meant for 13. No call picks a value."""
    open_page("gestures.html")
    server = scripted_llm()
    llm_client_for(server)
    ctx, offered = await _offered(make_ctx, "Set the sliders to the combination [35,40,5] and submit.")
    (group,) = [c for c in offered if c.kind == "slider"]
    assert group.label == "set the 3 sliders (now 10, ?, -10) to 35, 40, 5, in page order"
    asked_before = len(server.requests)

    outcome = await execute(ctx, group)

    assert outcome.actions == ["Set the sliders to 35, 40, 5"]
    assert len(server.requests) == asked_before
    driver = browser.driver
    assert driver.find_element(By.ID, "volume").get_attribute("value") == "35"
    assert driver.find_element(By.ID, "shown").text == "40"
    assert driver.find_element(By.ID, "vhandle").get_attribute("aria-valuenow") == "5"


async def test_a_lone_slider_takes_the_tasks_one_number(browser, open_page, make_ctx):
    open_page("gestures.html")
    browser.driver.execute_script("document.getElementById('track').remove(); document.getElementById('vtrack').remove()")
    ctx, offered = await _offered(make_ctx, "Set the volume to 25.")
    (one,) = [c for c in offered if c.kind == "slider"]
    assert one.label == 'set the slider "volume" (now 10, from 0 to 50) to 25'
    assert (await execute(ctx, one)).actions == ['Set slider "volume" to 25']
    assert browser.driver.find_element(By.ID, "volume").get_attribute("value") == "25"


def _numbers(browser) -> list[str]:
    return browser.driver.execute_script("return [...document.querySelectorAll('li')].map(li => li.textContent)")


@pytest.mark.parametrize("task, order", [
    ("Sort the numbers in increasing order, starting with the lowest number at the top of the list.",
     ["-57", "-43", "7", "12", "46"]),
    ("Arrange the numbers from highest to lowest.", ["46", "12", "7", "-43", "-57"]),
])
async def test_a_task_asking_for_an_order_sorts_the_list_by_dragging_in_one_action(
        browser, open_page, make_ctx, scripted_llm, llm_client_for, task, order):
    """One candidate sorts the whole list, one drag per item out of place, with no call: asked one drag at a time,
    the default model dragged "46" down by 403 pixels, off the list."""
    open_page("sortable_numbers.html")
    server = scripted_llm()
    llm_client_for(server)
    ctx, offered = await _offered(make_ctx, task)
    (sort,) = [c for c in offered if c.kind == "sort"]
    assert sort.label.startswith('sort the list ("46", "-43", "7", "-57", …) in ')
    assert not [c for c in offered if c.kind == "drag"]  # the list is sorted as a whole, not item by item
    asked_before = len(server.requests)

    outcome = await execute(ctx, sort)

    assert _numbers(browser) == order
    assert len(server.requests) == asked_before
    (said,) = outcome.actions
    assert said.startswith("Sorted the list in ") and int(browser.driver.execute_script("return document.body.dataset.drops")) <= 4


async def test_a_list_already_in_the_asked_order_is_a_no_op(browser, open_page, make_ctx):
    from companion.act.errors import NoOp

    open_page("sortable_numbers.html")
    browser.driver.execute_script(
        "const ul = document.getElementById('numbers');"
        "[...ul.children].sort((a, b) => Number(a.textContent) - Number(b.textContent)).forEach(li => ul.append(li))")
    ctx, offered = await _offered(make_ctx, "Sort the numbers in ascending order.")
    (sort,) = [c for c in offered if c.kind == "sort"]
    with pytest.raises(NoOp):
        await execute(ctx, sort)
    assert browser.driver.execute_script("return document.body.dataset.drops") is None


async def test_no_sort_is_offered_when_the_task_asks_for_no_order(browser, open_page, make_ctx):
    open_page("sortable_numbers.html")
    ctx, offered = await _offered(make_ctx, "Drag 7 to the 1st position.")
    assert not [c for c in offered if c.kind == "sort"]


def test_the_order_a_task_asks_for_is_read_from_its_words():
    from companion.act.sort_list import asked_sort, next_move

    assert asked_sort("Sort the numbers in increasing order, starting with the lowest number at the top.").descending is False
    assert asked_sort("Arrange the names alphabetically.").descending is False
    assert asked_sort("Order the cards from highest to lowest").descending is True
    assert asked_sort("Sort the list in reverse alphabetical order").descending is True
    assert asked_sort("Drag Ada to the top.") is None
    assert asked_sort("Order food: one of each course") is None
    assert next_move(["b", "c", "a"], asked_sort("sort alphabetically")) == (2, 0)
    assert next_move(["10", "9", "100"], asked_sort("sort in ascending order")) == (1, 0)  # numbers, not strings


async def test_two_boxes_the_task_tells_apart_by_size_are_dragged_one_onto_the_other(browser, open_page, make_ctx):
    # "Drag the smaller box so that it is completely inside the larger box": asked, the default model dragged the
    # small box "down by 84 pixels", then the large one.
    open_page("drag_boxes.html")
    ctx, offered = await _offered(make_ctx, "Drag the smaller box so that it is completely inside the larger box.")
    chosen = _one(offered, 'drag "a" (the smaller) onto "b" (the larger)')
    assert not [c for c in offered if c.label.startswith('drag "b" (the larger)')]
    await execute(ctx, chosen)
    assert browser.driver.find_element(By.ID, "log").text == "small dropped; small inside large: true"


async def test_selecting_words_beside_checkboxes_offers_no_text_selection(browser, open_page, make_ctx):
    # "Select words similar to reply and click Submit": the default model selected the text of the boxes' labels.
    open_page("many_boxes.html")
    ctx, offered = await _offered(make_ctx, "Select words similar to alpha and click Submit.")
    assert not [c for c in offered if c.kind == "select_text"]
    assert [c for c in offered if c.label.startswith('checkbox "alpha"')]


async def test_a_submit_while_the_slider_the_task_gives_a_value_for_was_never_moved_is_refused_once(
        browser, open_page, make_ctx):
    # "Select 5 with the slider, click the 3rd checkbox, then hit Submit": the model ticked the box and submitted.
    from companion.act.errors import NotYet
    from tests.support.act_context import candidate_for

    open_page("slider_form.html")
    task = "Select 5 with the slider, click the 3rd checkbox, then hit Submit."
    ctx, offered = await _offered(make_ctx, task)
    browser.driver.find_elements(By.CSS_SELECTOR, "input")[2].click()
    await ctx.refresh()
    with pytest.raises(NotYet) as refused:
        await execute(ctx, candidate_for(ctx, "Submit"))
    assert "the slider is not set to 5" in str(refused.value), refused.value
    (slider,) = [c for c in offered if c.kind == "slider"]
    await execute(ctx, slider)
    await execute(ctx, candidate_for(ctx, "Submit"))
    assert browser.driver.find_element(By.ID, "sent").text == "5 ..x"


def _size(browser) -> tuple[int, int]:
    w, h = browser.driver.find_element(By.TAG_NAME, "body").get_attribute("data-size").split("x")
    return int(w), int(h)


@pytest.mark.parametrize("task, label, grows", [
    ("Resize the textarea so that the width is smaller than its initial size then press Submit.",
     "make the textbox narrower (drag its right edge)", (-1, 0)),
    ("Make the notes taller, then submit", "make the textbox taller (drag its bottom edge)", (0, 1)),
    ("Resize the text box to be bigger", "make the textbox larger (drag its bottom right corner)", (1, 1)),
])
async def test_a_size_the_task_asks_is_made_by_dragging_the_handle_that_moves_that_edge(
        browser, open_page, make_ctx, task, label, grows):
    """A resize handle has no name: the box it resizes and the edge it moves come from the boxes, and one candidate
    says what it makes (the handles are offered nothing else)."""
    open_page("resizable.html")
    ctx, offered = await _offered(make_ctx, task)
    chosen = _one(offered, label)
    assert [c.label for c in offered if c.kind == "resize"] == [label]
    await execute(ctx, chosen)
    w, h = _size(browser)
    assert ((w > 120) - (w < 120), (h > 60) - (h < 60)) == grows, (w, h)


async def test_no_resize_is_offered_and_no_handle_clicked_when_the_task_asks_no_size(browser, open_page, make_ctx):
    open_page("resizable.html")
    _, offered = await _offered(make_ctx, "Type hello into the notes and press Submit")
    assert not [c for c in offered if c.kind == "resize"]
    assert all(c.label.startswith(("textbox", "button")) or c.kind == "end_task" for c in offered), [c.label for c in offered]


@pytest.mark.parametrize("task, ask", [
    ("Resize the textarea so that the height is larger than its initial size", ("y", 1)),
    ("Make the panel narrower", ("x", -1)),
    ("Shrink the box", (None, -1)),
    ("Make the font larger", None),  # no size word a box has
    ("Resize it, larger or smaller, as you like", None),
])
def test_the_size_change_a_task_asks_is_read_from_its_words(task, ask):
    assert asked_resize(task) == (None if ask is None else tuple(ask))


def _editor_html(browser) -> str:
    return browser.driver.find_element(By.ID, "editor").get_attribute("innerHTML")


@pytest.mark.parametrize("task, label, html", [
    ("Using the text editor, give the text aliquam the style bold and press Send.",
     'make "aliquam" bold (select it in the editor, then press button "bold")', "Tortor, <b>aliquam</b> elit nibh."),
    ("Give everything the style italics", 'make all the text italic (select it in the editor, then press button "italic")',
     "<i>Tortor, aliquam elit nibh.</i>"),
])
async def test_a_style_the_task_names_is_given_to_the_words_it_names_in_one_action(
        browser, open_page, make_ctx, task, label, html):
    """Select the words in the editor, then press the toolbar's button named for the style (by its icon's class)."""
    open_page("rich_text.html")
    ctx, offered = await _offered(make_ctx, task)
    chosen = _one(offered, label)
    assert [c.label for c in offered if c.kind == "style"] == [label]
    await execute(ctx, chosen)
    assert _editor_html(browser) == html


async def test_a_colour_the_task_names_is_the_nearest_swatch_of_the_editors_picker(browser, open_page, make_ctx):
    """Select the words, open the picker, choose the swatch nearest the named colour: CSS blue is nearest #0066cc
    of these; the swatches are named by their colour, a coloured button holding an icon is no swatch."""
    open_page("rich_text.html")
    ctx, offered = await _offered(make_ctx, "Give the text aliquam the color blue.")
    label = 'make "aliquam" blue (select it in the editor, then open button "color picker" and choose the swatch nearest blue)'
    assert [c.label for c in offered if c.kind == "style"] == [label]
    assert not [e for e in ctx.pagemem.all_elements() if "swatch" in e.name]  # the palette is closed
    trash = next(e for e in ctx.pagemem.all_elements() if e.attrs.get("id") == "trash")
    assert trash.swatch is None and "swatch" not in trash.name
    outcome = await execute(ctx, _one(offered, label))
    assert outcome.actions[-1] == 'Selected the text "aliquam"; Clicked button "color picker"; Clicked generic "royalblue swatch #0066cc"'
    assert _editor_html(browser) == 'Tortor, <span style="color: rgb(0, 102, 204);">aliquam</span> elit nibh.'


async def test_no_style_is_offered_when_the_task_names_no_style(browser, open_page, make_ctx):
    open_page("rich_text.html")
    _, offered = await _offered(make_ctx, "Type hello into the editor and press Send")
    assert not [c for c in offered if c.kind == "style"]
    assert 'generic "Tortor, aliquam elit nibh."' in [c.label for c in offered]  # still typed into


@pytest.mark.parametrize("task, style, text", [
    ("give the text sed elit the style underlined", "underline", "sed elit"),
    ("Make everything bold", "bold", ""),
    ("Make the word at italic", "italic", None),  # only a plain word: no text the task names
    ("Make it bold and italic", None, None),
])
def test_the_style_and_the_words_a_task_asks_are_read_by_rule(task, style, text):
    assert asked_style(task) == style
    assert asked_text(task, "Suspendisse at sed elit nisl.") == text
