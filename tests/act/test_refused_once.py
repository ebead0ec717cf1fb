"""A premature or unnamed choice is refused once, then done when chosen again (act/premature.py: a rule may be wrong
about a page, so it asks; it never forbids). Real Chromium, the real extension, execute() on fixture pages."""

from __future__ import annotations

import pytest
from selenium.webdriver.common.by import By

from companion.act import execute, gather_candidates
from companion.act.candidates import element_candidate, one_per_changing_form
from companion.act.errors import NotYet
from companion.observe import Observation
from tests.support.act_context import candidate_for, choice

pytestmark = pytest.mark.browser


async def _refusal(ctx, name: str) -> NotYet:
    with pytest.raises(NotYet) as refused:
        await execute(ctx, candidate_for(ctx, name), "scripted")
    return refused.value


async def _twice(ctx, name: str) -> str:
    with pytest.raises(NotYet) as refused:
        await execute(ctx, candidate_for(ctx, name), "scripted")
    await execute(ctx, candidate_for(ctx, name), "scripted")
    return str(refused.value)


async def test_submit_before_anything_named_is_done_is_clicked_when_chosen_again(browser, open_page, make_ctx):
    open_page("mark_rows.html")
    ctx = await make_ctx("Mark the numbers below as odd or even and press submit when done.")
    said = await _twice(ctx, "Submit")
    assert 'the task names button "Odd", button "Even" here' in said
    assert browser.driver.find_element(By.ID, "submitted").text == "submitted after: nothing"


async def test_submit_after_a_control_was_used_on_the_page_is_not_refused(browser, open_page, make_ctx):
    open_page("expand_then_submit.html")
    ctx = await make_ctx("Expand the section below and click submit.")
    await execute(ctx, candidate_for(ctx, "Section #4"), "scripted")
    await execute(ctx, candidate_for(ctx, "Submit"), "scripted")
    assert browser.driver.find_element(By.ID, "result").text == "submitted expanded"


async def test_a_control_the_task_does_not_name_is_clicked_when_chosen_again(browser, open_page, make_ctx):
    open_page("mail_actions.html")
    ctx = await make_ctx("Forward that email to Harmony.")
    said = await _twice(ctx, "Archive")
    assert 'names button "Forward" here and nothing of button "Archive"' in said
    assert browser.driver.find_element(By.ID, "did").text == "pressed Archive"


async def test_a_control_sharing_a_word_with_the_task_is_not_refused(browser, open_page, make_ctx):
    open_page("mail_actions.html")
    ctx = await make_ctx("Archive the mail from Kendre, or forward it if it cannot be archived.")
    await execute(ctx, candidate_for(ctx, "Archive"), "scripted")
    assert browser.driver.find_element(By.ID, "did").text == "pressed Archive"


async def test_a_scripted_div_named_submit_is_held_back_like_a_button_while_a_named_value_is_untyped(
        browser, open_page, make_ctx):
    open_page("div_submit.html")
    ctx = await make_ctx("Enter 1979 as the year and press Submit.")
    said = await _twice(ctx, "Submit")
    assert said.startswith("not clicked yet: ") and "1979" in said, said  # the unset year, or the request before it
    assert browser.driver.find_element(By.ID, "searched").text == "/"  # clicked when chosen again, nothing typed


async def test_a_row_sharing_no_word_with_the_task_is_refused_once_for_those_that_do(browser, open_page, make_ctx):
    open_page("mail_rows.html")
    ctx = await make_ctx("Go to the message from Eilis and send it to Wanda.")
    said = await _twice(ctx, "Nancee Tincidunt. A. Proin sit vel e..")
    # Wanda is whom the message goes to, not the row to open (destinations).
    assert '"Eilis Sagittis. Tellus eu sagit.."' in said and "Wanda" not in said, said
    assert browser.driver.find_element(By.ID, "opened").text == "Nancee"


@pytest.mark.parametrize("field, why, field_id, value", [
    ("Customer:", "this form sends changes to the site (POST)", "customer", "Daniel Ricci"),
    ("Email:", "this form edits what the page shows (2 of its fields hold values already)", "email", "ann.lee@example.com"),
])
async def test_in_a_question_a_form_that_changes_the_site_is_not_filled_and_sent_at_the_first_choice(
        browser, open_page, make_ctx, field, why, field_id, value):
    open_page("record_form.html")
    ctx = await make_ctx("What is the email address of the customer who placed order SO-1010?")
    with pytest.raises(NotYet) as refused:
        await execute(ctx, candidate_for(ctx, field), "scripted")
    assert f"the task asks a question, and {why}" in str(refused.value)
    driver = browser.driver
    assert driver.find_element(By.ID, field_id).get_property("value") == value  # nothing typed
    assert driver.find_element(By.ID, "saved").text == ""  # nothing sent


@pytest.mark.parametrize("task, name", [
    ("Change the note of order SO-1010 to 'ring twice'.", "Note:"),      # an errand: the form is what it asks for
    ("What would shipping 3 kettles to 0150 cost?", "Quantity:"),       # a question whose form has empty fields
])
async def test_an_errand_or_an_empty_form_is_not_refused_as_a_record(
        browser, open_page, make_ctx, scripted_llm, llm_client_for, task, name):
    server = scripted_llm(rules=[{"prompt": "form_field_selection", "responses": ['{"indices": []}']},
                                 {"prompt": "form_review", "responses": [choice(1, "leave")]}])
    llm_client_for(server)
    open_page("record_form.html")
    ctx = await make_ctx(task)
    try:
        await execute(ctx, candidate_for(ctx, name), "scripted")
    except NotYet as exc:
        raise AssertionError(f"refused: {exc}") from exc
    except Exception:  # the scripted review may leave the form: that is the workflow's business, not this rule's
        pass
    # The form workflow ran (the errand's named field is chosen by rule: task_asks.set_request, no selection call).
    assert {"form_field_selection", "form_review"} & {r.prompt for r in server.requests}


def _whole(ctx) -> Observation:
    pm = ctx.pagemem
    return Observation(url=pm.url, page_title="page", summary="a page", selected=[s.id for s in pm.sections],
                       unselected=[]).model_copy(update={"small": True})


async def test_in_a_question_a_form_that_changes_the_site_is_offered_by_its_submit_button_alone(
        browser, open_page, make_ctx):
    open_page("record_form.html")
    ctx = await make_ctx("What is the email address of the customer who placed order SO-1010?")
    labels = [c.label for c in await gather_candidates(ctx, _whole(ctx))]

    assert 'button "Save" (sends a form of 5 controls that changes the site)' in labels, labels
    assert 'button "Update profile" (sends a form of 3 controls that changes the site)' in labels, labels
    assert not any(label.startswith(('textbox "Customer:"', 'textbox "Email:"', 'combobox "Status:"')) for label in labels)
    # What a question may read or use stays: the link beside the record, the quote form's empty fields.
    assert any(label.startswith('link "View customer"') for label in labels)
    assert any(label.startswith('textbox "Quantity:"') for label in labels)


async def test_in_an_errand_every_field_of_a_form_is_offered(browser, open_page, make_ctx):
    open_page("record_form.html")
    ctx = await make_ctx("Change the note of order SO-1010 to 'ring twice'.")
    pm = ctx.pagemem
    offered = [element_candidate(el, s.id) for s in pm.sections for el in s.all_elements()]
    assert one_per_changing_form(ctx, pm, offered) == {}


async def test_submit_is_clicked_at_once_when_a_field_holds_what_the_earlier_clause_asks(browser, open_page, make_ctx):
    open_page("held_value_submit.html", query="start=0")
    ctx = await make_ctx("Select 0 with the spinner and hit Submit.")
    await execute(ctx, candidate_for(ctx, "Submit"), "scripted")
    assert browser.driver.find_element(By.ID, "submitted").text == "submitted 0"


async def test_submit_is_held_back_while_the_field_holds_another_value(browser, open_page, make_ctx):
    open_page("held_value_submit.html", query="start=5")
    ctx = await make_ctx("Select 0 with the spinner and hit Submit.")
    said = await _twice(ctx, "Submit")
    assert 'the task asks to "Select 0 with the spinner" before it' in said


async def test_a_button_of_a_later_part_waits_for_the_option_an_earlier_part_names(browser, open_page, make_ctx):
    open_page("option_then_button.html")
    ctx = await make_ctx('Pick Lisbon from the dropdown, then click the button labeled "Later".')
    said = await _twice(ctx, "Later")
    assert 'part 1, "Pick Lisbon from the dropdown", comes first' in said
    assert browser.driver.find_element(By.ID, "did").text == "then Later"  # chosen again, with no city: clicked


async def test_a_word_clicked_while_the_quoted_target_is_behind_a_closed_tab_is_refused_once(browser, open_page, make_ctx):
    open_page("tabbed_links.html")
    ctx = await make_ctx('Switch between the tabs to find and click on the link "Tiber".')
    said = await _twice(ctx, "Arno")
    assert 'no element on this page is named "Tiber"' in said and 'tab "Two"' in said
    assert browser.driver.find_element(By.ID, "did").text == "clicked Arno"  # chosen again: clicked


async def test_a_tab_is_opened_at_once_and_nothing_it_shows_is_picked_when_the_quoted_target_is_not_there(
        browser, open_page, make_ctx, scripted_llm, llm_client_for):
    open_page("tabbed_links.html")
    server = scripted_llm()
    llm_client_for(server)
    ctx = await make_ctx('Switch between the tabs to find and click on the link "Tiber".')
    outcome = await execute(ctx, candidate_for(ctx, "Two"), "scripted")
    assert outcome.actions == ['Clicked tab "Two"']  # "Adige" was revealed: not asked about, not clicked
    assert server.requests == []
    assert browser.driver.find_element(By.ID, "t2").get_attribute("aria-selected") == "true"


async def test_a_tab_opened_already_is_refused_once_while_another_was_never_opened(browser, open_page, make_ctx):
    open_page("tabbed_links.html")
    ctx = await make_ctx('Switch between the tabs to find and click on the link "Tiber".')
    await execute(ctx, candidate_for(ctx, "Two"), "scripted")
    await execute(ctx, candidate_for(ctx, "One"), "scripted")
    said = await _twice(ctx, "Two")
    assert 'tab "Two" was opened already' in said and 'tab "Three" was not opened yet' in said


async def test_an_alike_control_of_a_row_the_task_does_not_name_is_refused_once(browser, open_page, make_ctx):
    open_page("post_rows.html")
    ctx = await make_ctx("Click the share button on all posts by @juan and then click Submit.")
    marcella = next(e for e in ctx.pagemem.all_elements() if "marcella" in e.context)
    with pytest.raises(NotYet) as refused:
        await execute(ctx, element_candidate(marcella, ctx.pagemem.section_of(marcella.ref).id), "scripted")
    assert "the task names juan" in str(refused.value) and 'share" (for "Lou @juan' in str(refused.value)
    assert "marcella" not in str(refused.value)
    juan = next(e for e in ctx.pagemem.all_elements() if "juan" in e.context)
    await execute(ctx, element_candidate(juan, ctx.pagemem.section_of(juan.ref).id), "scripted")
    assert browser.driver.find_element(By.ID, "did").text == "shared Lou @juan"


async def test_submit_while_every_field_is_empty_is_refused_once(browser, open_page, make_ctx):
    open_page("empty_fields.html")
    ctx = await make_ctx("Search for adventure movies directed by Sullivan from year 2015.")
    said = await _twice(ctx, "Submit")
    assert "its fields are empty" in said and 'textbox "Director"' in said
    assert browser.driver.find_element(By.ID, "submitted").text == "submitted [||]"  # chosen again: clicked


async def test_a_task_that_asks_for_empty_fields_submits_at_once(browser, open_page, make_ctx):
    open_page("empty_fields.html")
    ctx = await make_ctx("Leave the fields blank and press Submit.")
    await execute(ctx, candidate_for(ctx, "Submit"), "scripted")
    assert browser.driver.find_element(By.ID, "submitted").text == "submitted [||]"


async def test_a_named_button_waits_for_what_the_task_asks_before_it(browser, open_page, make_ctx):
    open_page("scroll_then_button.html")
    ctx = await make_ctx("Scroll to the bottom of the textarea, enter the name Keneth, then press Cancel.")
    said = await _twice(ctx, "Cancel")
    assert "Scroll to the bottom of the textarea" in said and "first" in said
    assert browser.driver.find_element(By.ID, "did").text == "pressed Cancel as"


async def test_after_the_scroll_a_named_button_waits_for_the_name_the_task_gives(browser, open_page, make_ctx):
    # The terms box is disabled and only scrolls; scrolling it enables the name field. The scroll is what was done on
    # the page: the refusal names the part left (typing the name), not "nothing is done".
    open_page("scroll_to_enable.html")
    ctx = await make_ctx('Scroll to the bottom of the textarea, enter the name "Karrie" then press "Cancel"')
    offered = await gather_candidates(ctx, Observation(
        url=ctx.pagemem.url, page_title="page", summary="a page", selected=[s.id for s in ctx.pagemem.sections],
        unselected=[]).model_copy(update={"small": True}))
    scroll = next(c for c in offered if c.kind == "scroll")
    for action in (await execute(ctx, scroll, "scripted")).actions:
        ctx.parts.tick_action(action)  # as the step does after each action (agent/step.py)
    assert browser.driver.find_element(By.ID, "name").is_enabled()
    with pytest.raises(NotYet) as refused:
        await execute(ctx, candidate_for(ctx, "Cancel"), "scripted")
    assert "nothing is done" not in str(refused.value) and "Karrie" in str(refused.value), str(refused.value)
    assert browser.driver.find_element(By.ID, "did").text == ""


async def test_a_quoted_link_in_sight_is_clicked_though_the_task_says_to_switch_tabs_to_find_it(
        browser, open_page, make_ctx):
    # Switching tabs is only the way to find it: the default model was refused the link in sight, then lost it.
    open_page("tabbed_links.html")
    ctx = await make_ctx('Switch between the tabs to find and click on the link "Arno".')
    await execute(ctx, candidate_for(ctx, "Arno"), "scripted")
    assert browser.driver.find_element(By.ID, "did").text == "clicked Arno"


async def test_submit_is_refused_again_while_a_value_the_task_gives_is_in_no_field(browser, open_page, make_ctx):
    # Refused on three empty fields, the default model typed the year alone and pressed Submit.
    open_page("empty_fields.html")
    browser.driver.find_element(By.ID, "year").send_keys("2015")
    ctx = await make_ctx("Search for adventure movies directed by Sullivan from year 2015.")
    said = await _twice(ctx, "Submit")
    assert '"Sullivan"' in said and '"2015"' not in said and 'textbox "Director"' in said, said
    assert browser.driver.find_element(By.ID, "submitted").text == "submitted [||2015]"  # chosen again: clicked


async def test_submit_goes_at_once_when_every_value_the_task_gives_is_in_a_field(browser, open_page, make_ctx):
    open_page("empty_fields.html")
    for field, value in (("year", "2015"), ("director", "Sullivan"), ("genre", "adventure")):
        browser.driver.find_element(By.ID, field).send_keys(value)
    ctx = await make_ctx("Search for adventure movies directed by Sullivan from year 2015.")
    await execute(ctx, candidate_for(ctx, "Submit"), "scripted")
    assert browser.driver.find_element(By.ID, "submitted").text == "submitted [Sullivan|adventure|2015]"


async def test_submit_is_refused_once_while_a_word_the_task_gives_is_in_no_field_and_one_field_is_empty(
        browser, open_page, make_ctx):
    # "Search for saga movies directed by Gay from year 2001": the default model typed the director and the year and
    # pressed Submit with the genre empty, on two seeds and two layouts. Only the model knows "saga" is a genre.
    open_page("empty_fields.html")
    browser.driver.find_element(By.ID, "year").send_keys("2015")
    browser.driver.find_element(By.ID, "director").send_keys("Sullivan")
    ctx = await make_ctx("Search for adventure movies directed by Sullivan from year 2015.")
    said = await _twice(ctx, "Submit")
    assert 'the task\'s words "adventure movies" are in no field, and textbox "Genre" is empty' in said, said
    assert browser.driver.find_element(By.ID, "submitted").text == "submitted [Sullivan||2015]"  # chosen again: clicked


async def test_an_empty_field_the_task_has_no_words_left_for_does_not_hold_the_submit(browser, open_page, make_ctx):
    open_page("empty_fields.html")
    browser.driver.find_element(By.ID, "year").send_keys("2015")
    browser.driver.find_element(By.ID, "director").send_keys("Sullivan")
    ctx = await make_ctx("Find what Sullivan directed in 2015.")
    await execute(ctx, candidate_for(ctx, "Submit"), "scripted")
    assert browser.driver.find_element(By.ID, "submitted").text == "submitted [Sullivan||2015]"


async def test_a_control_of_a_record_the_task_does_not_name_is_refused_once_while_the_list_has_other_pages(
        browser, open_page, make_ctx):
    # The default model clicked the address on the one contact shown, someone else's.
    open_page("contact_pages.html")
    ctx = await make_ctx("Find Viv in the contact book and click on their address.")
    said = await _twice(ctx, "12 Elm Street")
    assert 'shows nothing of "Viv"' in said and 'link "Next"' in said, said
    assert browser.driver.find_element(By.ID, "did").text == "clicked 12 Elm Street"  # chosen again: clicked


async def test_a_control_of_the_record_the_task_names_is_clicked_at_once(browser, open_page, make_ctx):
    open_page("contact_pages.html")
    ctx = await make_ctx("Find Viv in the contact book and click on their address.")
    await execute(ctx, candidate_for(ctx, "3"), "scripted")
    await ctx.refresh()
    await execute(ctx, candidate_for(ctx, "9 Pine Lane"), "scripted")
    assert browser.driver.find_element(By.ID, "did").text == "clicked 9 Pine Lane"


async def test_the_ok_of_a_prompt_the_task_does_not_ask_for_is_refused_once_with_its_cancel(
        browser, open_page, make_ctx):
    # The default model pressed the popup's OK ("Exit to home page?") and left the page its log-in was on.
    open_page("popup_on_focus.html")
    browser.driver.find_element(By.ID, "username").click()
    ctx = await make_ctx('Enter the username "riley" and the password "wvr1H" into the text fields and press login.')
    ok = next(e for e in ctx.pagemem.all_elements() if e.name == "OK" and "?" in e.context)
    with pytest.raises(NotYet) as refused:
        await execute(ctx, element_candidate(ok, ctx.pagemem.section_of(ok.ref).id), "scripted")
    assert '"Exit to home page?"' in str(refused.value) and 'button "Cancel"' in str(refused.value), refused.value
    await execute(ctx, candidate_for(ctx, "Cancel"), "scripted")
    assert browser.driver.find_elements(By.ID, "popup") == [] and browser.driver.find_element(By.ID, "did").text == ""


async def test_a_prompt_the_tasks_own_action_raised_is_answered_at_once(browser, open_page, make_ctx):
    open_page("popup_on_focus.html")
    browser.driver.find_element(By.ID, "username").click()
    ctx = await make_ctx("Exit to the home page.")
    ok = next(e for e in ctx.pagemem.all_elements() if e.name == "OK" and "?" in e.context)
    await execute(ctx, element_candidate(ok, ctx.pagemem.section_of(ok.ref).id), "scripted")
    assert browser.driver.find_element(By.ID, "did").text == "exited"


async def test_an_icon_the_task_does_not_name_is_refused_once_while_the_row_it_names_is_in_sight(
        browser, open_page, make_ctx):
    # The default model opened the inbox's search and searched for the recipient; the sender's mail was in sight.
    open_page("mail_rows.html")
    ctx = await make_ctx("The mail by Nancee should be forwarded to Wanda.")
    said = await _twice(ctx, "search")
    assert "Nancee Tincidunt" in said, said
    assert browser.driver.find_element(By.ID, "opened").text == "search"  # chosen again: clicked


async def test_the_row_of_the_name_the_item_is_sent_to_is_refused_once_for_the_senders(browser, open_page, make_ctx):
    open_page("mail_rows.html")
    ctx = await make_ctx("The mail by Nancee should be forwarded to Wanda.")
    said = await _twice(ctx, "Wanda Arcu. Nec,. Blandit n..")
    assert "Nancee Tincidunt" in said and "Wanda Arcu" not in said.split("nothing of")[0], said


async def test_the_row_of_the_name_the_item_is_sent_to_is_refused_once_when_the_writer_is_named_by_a_possessive(
        browser, open_page, make_ctx):
    # "forward Geneva's email to Larine": the default model opened Larine's mail.
    open_page("mail_rows.html")
    ctx = await make_ctx("forward Nancee's email to Wanda")
    said = await _twice(ctx, "Wanda Arcu. Nec,. Blandit n..")
    assert "Nancee Tincidunt" in said and "Wanda Arcu" not in said.split("nothing of")[0], said


async def test_a_checkbox_not_at_the_place_the_task_counts_is_refused_once_with_the_one_that_is(
        browser, open_page, make_ctx):
    # Offered "(1 of 3)", "(2 of 3)", "(3 of 3)" for "click the 1st checkbox", the default model ticked the second.
    open_page("three_boxes.html")
    ctx = await make_ctx("Click the 1st checkbox, then hit Submit.")
    boxes = [e for e in ctx.pagemem.all_elements() if e.role == "checkbox"]
    second = element_candidate(boxes[1], ctx.pagemem.section_of(boxes[1].ref).id)
    with pytest.raises(NotYet) as refused:
        await execute(ctx, second, "scripted")
    assert "the 1st checkbox" in str(refused.value) and "(1 of 3 in page order); this one is 2 of 3" in str(refused.value)
    await execute(ctx, element_candidate(boxes[0], ctx.pagemem.section_of(boxes[0].ref).id), "scripted")
    assert browser.driver.find_element(By.ID, "c1").is_selected() and not browser.driver.find_element(By.ID, "c2").is_selected()


async def test_once_the_counted_checkbox_is_used_another_of_its_kind_is_refused_once_more(
        browser, open_page, make_ctx):
    # The default model, refused the 1st box for "the 2nd checkbox", ticked the 2nd and then the 1st again.
    open_page("three_boxes.html")
    ctx = await make_ctx("Click the 2nd checkbox, then hit Submit.")
    boxes = [e for e in ctx.pagemem.all_elements() if e.role == "checkbox"]
    first, second = (element_candidate(b, ctx.pagemem.section_of(b.ref).id) for b in boxes[:2])
    with pytest.raises(NotYet):
        await execute(ctx, first, "scripted")
    await execute(ctx, second, "scripted")
    with pytest.raises(NotYet) as refused:
        await execute(ctx, first, "scripted")
    assert "used already; this one is 1 of 3" in str(refused.value), refused.value
    await execute(ctx, first, "scripted")  # chosen a third time: the model's to decide
    assert browser.driver.find_element(By.ID, "c1").is_selected()


async def test_a_submit_while_the_counted_checkbox_is_unticked_is_refused_once(browser, open_page, make_ctx):
    # "Select 5 with the slider, click the 2nd checkbox, then hit Submit": the default model set the slider and
    # pressed Submit.
    open_page("three_boxes.html")
    ctx = await make_ctx("Click the 2nd checkbox, then hit Submit.")
    said = await _twice(ctx, "Submit")
    assert "(the 2nd checkbox, 2 of 3) is not checked" in said, said


async def test_a_submit_with_the_counted_checkbox_ticked_is_clicked_at_once(browser, open_page, make_ctx):
    open_page("three_boxes.html")
    browser.driver.find_element(By.ID, "c2").click()
    ctx = await make_ctx("Click the 2nd checkbox, then hit Submit.")
    outcome = await execute(ctx, candidate_for(ctx, "Submit"), "scripted")
    assert outcome.actions == ['Clicked button "Submit"'], outcome.actions


async def test_an_entry_clicked_while_the_quoted_one_is_behind_a_submenu_is_refused_once(browser, open_page, make_ctx):
    # The default model clicked "Save" for "Play", which was under "Playback".
    open_page("nested_menu.html")
    ctx = await make_ctx('Click the "Menu" button, and then find and click on the item labeled "Play".')
    said = await _twice(ctx, "Save")
    assert 'no element on this page is named "Play"' in said and 'menuitem "Playback"' in said, said


async def test_a_control_clicked_while_the_item_the_task_quotes_is_behind_a_lone_plus_is_refused_once(
        browser, open_page, make_ctx):
    # "Expand the pie menu below and click on the item labeled "p"": the default model clicked a letter of the closed pie.
    open_page("closed_pie.html")
    ctx = await make_ctx('Expand the menu below and click on the item labeled "p".')
    said = await _twice(ctx, "t")
    assert 'no element on this page is named "p"' in said and "+" in said, said


async def test_searching_again_on_the_page_holding_the_counted_result_is_refused_once(browser, open_page, make_ctx):
    # On page 2, the default model pressed Search again, which brought back page 1.
    open_page("result_pages.html")
    browser.driver.find_element(By.LINK_TEXT, "2").click()
    ctx = await make_ctx("Find and click the 5th search result.")
    with pytest.raises(NotYet) as refused:
        await execute(ctx, candidate_for(ctx, "Search"), "scripted")
    assert 'the 5th search result is "Result 5"' in str(refused.value), refused.value
    assert ctx.pagemem.element_by_ref(refused.value.remedy).name == "Result 5"


async def test_a_spinners_arrows_are_named_by_their_way_and_a_submit_with_another_number_types_the_tasks(
        browser, open_page, make_ctx):
    """The arrows read "triangle up" and "triangle down" (their icon's compass letter), and a Submit while the
    spinner holds another number than the task's is refused with the spinner as the remedy, set at once."""
    open_page("spinner.html")
    ctx = await make_ctx("Select 1 with the spinner and hit Submit.")
    names = [e.name for e in ctx.pagemem.all_elements()]
    assert "triangle up" in names and "triangle down" in names, names
    refused = await _refusal(ctx, "Submit")
    spinner = next(e for e in ctx.pagemem.all_elements() if e.role == "spinbutton")
    assert refused.remedy == spinner.ref and refused.at_once
    await execute(ctx, candidate_for(ctx, spinner.name), "scripted")
    assert browser.driver.find_element(By.ID, "amount").get_attribute("value") == "1"


async def test_a_word_clicked_while_the_quoted_target_is_behind_a_tab_never_opened_opens_that_tab_at_once(
        browser, open_page, make_ctx):
    # Told "open that first", the default model reopened a tab it had seen and clicked a word of it.
    open_page("tabbed_links.html")
    ctx = await make_ctx('Switch between the tabs to find and click on the link "Tiber".')
    refused = await _refusal(ctx, "Arno")
    two = next(e for e in ctx.pagemem.all_elements() if e.name == "Two")
    assert refused.remedy == two.ref and refused.at_once
