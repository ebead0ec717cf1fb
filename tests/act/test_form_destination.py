"""A form with a text area and a text field, a task putting its value "into the text field": only the field is
filled, and its value is asked with the form's other filled fields shown (act/form.py, named_fields.destination_field).
Real Chromium, the real extension, the scripted LLM over real HTTP."""

from __future__ import annotations

import json

import pytest
from selenium.webdriver.common.by import By

from companion.act import execute
from companion.act.named_fields import destination_field
from companion.pagemem.divide import divide_page
from tests.support.act_context import candidate_for
from tests.support.htmlsnap import snapshot_from_html

TASK = "Find the last word in the text area, enter it into the text field and press Submit."


@pytest.mark.browser
async def test_the_value_goes_into_the_field_the_task_names_by_its_kind(browser, open_page, make_ctx, scripted_llm,
                                                                         llm_client_for):
    open_page("read_then_enter.html")
    server = scripted_llm(rules=[{"prompt": "field_value", "pattern": "Other fields of the form: .*heron",
                                  "responses": [json.dumps({"value": "heron"})]},
                                 {"prompt": "form_review", "responses": [json.dumps({"reason": "ok", "index": 2})]}])
    llm_client_for(server)
    ctx = await make_ctx(TASK)
    await execute(ctx, candidate_for(ctx, "Submit"), "scripted")
    assert browser.driver.find_element(By.ID, "submitted").text == "sent heron"
    assert browser.driver.find_element(By.ID, "source").get_attribute("value").endswith("heron")  # left as it was
    assert not [r for r in server.requests if "Which fields must be filled" in r.last_user]  # chosen by rule


def fields(body: str):
    return list(divide_page(snapshot_from_html(f"<html><body><form>{body}</form></body></html>")).all_elements())


def test_the_kind_the_task_names_picks_the_field():
    both = fields('<textarea aria-label="Passage">some words</textarea><input type="text" aria-label="Answer">')
    assert destination_field("Enter it into the text field.", both) == 1
    assert destination_field("Paste it into the text area.", both) == 0
    assert destination_field("Enter the word and press Submit.", both) is None  # no kind named


def test_a_form_of_one_kind_of_field_is_left_to_the_model():
    inputs = fields('<input type="text" aria-label="First"><input type="text" aria-label="Last">')
    assert destination_field("Enter Ada into the text field.", inputs) is None


def test_an_empty_field_named_as_a_date_gets_the_tasks_one_date():
    from companion.act.form import with_named
    from companion.act.named_fields import value_named_for

    form = fields('<input type="text" aria-label="From:"><input type="text" aria-label="To:">'
                  '<input type="text" aria-label="Departure Date">')
    task = "Book the shortest one-way flight from: Burlington, IA to: BIS on 11/15/2016."
    assert value_named_for(task, form[2]) == "11/15/2016"
    assert with_named(task, form, [0, 1]) == [0, 1, 2]  # the model left the date out: the task gives it
    assert value_named_for("Book a flight to BIS.", form[2]) is None


@pytest.mark.browser
async def test_the_text_area_the_task_copies_from_by_its_place_gives_the_value_without_a_call(
        browser, open_page, make_ctx, scripted_llm, llm_client_for):
    # The default model copied the first text area's text for "the 2nd text area", in two runs.
    open_page("copy_two_areas.html")
    server = scripted_llm(rules=[{"prompt": "form_review", "responses": [json.dumps({"reason": "ok", "index": 2})]}])
    llm_client_for(server)
    ctx = await make_ctx("Copy the text from the 2nd text area below and paste it into the text input, then press Submit.")
    await execute(ctx, candidate_for(ctx, "Submit"), "scripted")
    assert browser.driver.find_element(By.ID, "submitted").text == "sent Ut pretium congue dictum"
    assert not [r for r in server.requests if r.prompt == "field_value"]


def test_the_place_the_task_copies_from_picks_that_field_of_its_kind():
    from companion.act.named_fields import copied_value

    form = fields('<textarea>one</textarea><textarea>two</textarea><input type="text" aria-label="Answer">')
    assert copied_value("Copy the text from the 2nd text area and paste it into the text input.", form[2], form) == "two"
    assert copied_value("Copy the text from the last text area into the field.", form[2], form) == "two"
    assert copied_value("Copy the text from the first text area into the field.", form[2], form) == "one"
    assert copied_value("Copy the text from the 5th text area into the field.", form[2], form) is None  # no such one
    assert copied_value("Type the text into the field.", form[2], form) is None


def test_a_field_named_to_gets_the_one_name_the_task_sends_to():
    from companion.act.named_fields import recipient_for, value_named_for

    form = fields('<input type="text" aria-label="to"><input type="text" aria-label="Subject">')
    assert value_named_for("Find the email by Joni and forward that email to Mariya.", form[0]) == "Mariya"
    assert recipient_for("Find the email by Joni and forward that email to Mariya.", form[1]) is None  # not "to"
    assert recipient_for("Scroll to the bottom and forward it.", form[0]) is None  # no name after "to"
    # The default model typed "Malory" into the message body for "Forward Malory the latest email from Leta."
    assert recipient_for("Forward Malory the latest email from Leta.", form[0]) == "Malory"
    assert recipient_for("Send the report to Ann, and forward Bob the memo.", form[0]) is None  # two: the model's


def test_an_unquoted_value_right_after_a_word_naming_the_field_is_its_value():
    from companion.act.named_fields import value_named_for

    form = fields('<input type="text" aria-label="Movie Genre"><input type="text" aria-label="Released Date">'
                  '<input type="text" aria-label="Director Name">')
    task = "Search for adventure movies directed by Klein from year 2010."
    # The default model typed the genre into the director's field and left the year empty.
    assert [value_named_for(task, e) for e in form] == [None, "2010", "Klein"]
    assert value_named_for("Search for movies from year 2010 or 2011.", form[1]) is None  # two years: the model's


def test_a_value_in_the_next_clause_is_not_the_fields():
    from companion.act.named_fields import near_value_for

    form = fields('<input type="text" aria-label="Time">')
    assert near_value_for("Enter 5:37 PM as the time, select Ada and Di from the list.", form[0]) is None


@pytest.mark.browser
async def test_a_value_the_task_ties_to_another_field_is_typed_there(browser, open_page, make_ctx, scripted_llm,
                                                                    llm_client_for):
    # The default model typed "Mosley" ("directed by Mosley") into the genre's field.
    open_page("empty_fields.html")
    server = scripted_llm(rules=[{"prompt": "input_value", "responses": [json.dumps({"value": "Sullivan"})]}])
    llm_client_for(server)
    ctx = await make_ctx("Search for adventure movies directed by Sullivan from year 2015.")
    outcome = await execute(ctx, candidate_for(ctx, "Genre"), "scripted")
    assert outcome.actions == ['Typed "Sullivan" into textbox "Director"'], outcome.actions
    assert browser.driver.find_element(By.ID, "director").get_attribute("value") == "Sullivan"
    assert browser.driver.find_element(By.ID, "genre").get_attribute("value") == ""


def test_a_word_of_the_fields_own_label_is_no_value_for_it():
    from companion.act.named_fields import near_value_for

    form = fields('<input type="text" aria-label="Year of Birth">')
    # The default model's read-table field was labelled by the table's text: "Birth" had been typed.
    assert near_value_for("Enter the value of Year of Birth into the text field and press Submit.", form[0]) is None


def test_the_fields_own_label_is_taken_off_the_value():
    from companion.act.basic import without_own_label

    field = fields('<input type="text" aria-label="x =">')[0]
    assert without_own_label("x = 60", field) == "60" and without_own_label("60", field) == "60"
    assert without_own_label("x =", field) == "x ="  # nothing after the label: left as it is
    search = fields('<input type="text" aria-label="Search">')[0]
    assert without_own_label("Search for kettles", search) == "Search for kettles"  # no label written as one
    assert without_own_label("Search: kettles", search) == "kettles"


@pytest.mark.browser
async def test_a_label_the_task_points_at_takes_the_value_its_table_pairs_with_it(
        browser, open_page, make_ctx, scripted_llm, llm_client_for):
    # The default model typed the label "Religion" into the field "Religion"; the table beside it said "Buddhist".
    open_page("key_value_form.html")
    # The model chose one of the two fields; the other's value is the table's too, so it is filled as well.
    server = scripted_llm(rules=[{"prompt": "form_field_selection", "responses": ['{"indices": [0]}']},
                                 {"prompt": "form_review", "responses": [json.dumps({"reason": "ok", "index": 2})]}])
    llm_client_for(server)
    ctx = await make_ctx("Enter the value that corresponds with each label into the form and submit when done.")
    await execute(ctx, candidate_for(ctx, "Submit"), "scripted")
    assert browser.driver.find_element(By.ID, "sent").text == "Ada/Buddhist"
    assert not [r for r in server.requests if r.prompt in ("input_value", "field_value")]


def test_a_key_value_table_gives_one_value_per_key():
    from companion.observe.rows import key_value

    pm = divide_page(snapshot_from_html("<html><body><table><tr><td>Religion</td><td>Buddhist</td></tr>"
                                        "<tr><td>Country</td><td>Chile</td></tr></table></body></html>"))
    assert key_value(pm.sections, "Religion:") == "Buddhist" and key_value(pm.sections, "country") == "Chile"
    assert key_value(pm.sections, "Language") is None


def test_the_word_at_the_place_the_task_counts_in_the_paragraph_is_the_value():
    from companion.act.named_fields import nth_word_value

    task = 'Find the 3rd word in the paragraph, type that into the textbox and press "Submit".'
    pm = divide_page(snapshot_from_html(f"<html><body><div>{task}</div><p>Ante, sed gravida. Lorem ipsum.</p>"
                                        "<input type='text'><button>Submit</button></body></html>"))
    box = next(e for e in pm.all_elements() if e.role == "textbox")
    # The default model typed "The", the first word of the task's own sentence on the page.
    assert nth_word_value(task, box, pm.sections) == "gravida"
    assert nth_word_value(task.replace("3rd", "last"), box, pm.sections) == "ipsum"
    assert nth_word_value("Type the word Ante into the textbox.", box, pm.sections) is None



@pytest.mark.browser
async def test_the_one_text_area_the_task_copies_from_gives_its_text_exactly(browser, open_page, make_ctx, scripted_llm,
                                                                             llm_client_for):
    # The page compares the text exactly; the default model's copy had dropped its last space.
    open_page("copy_one_area.html")
    server = scripted_llm(rules=[{"prompt": "form_review", "responses": [json.dumps({"reason": "ok", "index": 2})]}])
    llm_client_for(server)
    ctx = await make_ctx("Copy the text in the textarea below, paste it into the textbox and press Submit.")
    await execute(ctx, candidate_for(ctx, "Submit"), "scripted")
    assert browser.driver.find_element(By.ID, "sent").text == "same"
    assert not [r for r in server.requests if r.prompt in ("input_value", "field_value")]


def test_which_of_two_text_areas_is_copied_from_is_the_models_unless_the_task_counts():
    from companion.act.named_fields import copied_value

    two = fields('<textarea>one</textarea><textarea>two</textarea><input type="text">')
    task = "Copy the text in the textarea below, paste it into the textbox and press Submit."
    assert copied_value(task, two[2], two) is None


def test_the_last_word_in_the_text_area_is_read_off_its_text():
    from companion.act.named_fields import nth_word_value

    pm = divide_page(snapshot_from_html("<html><body><form><textarea>Habitant vel molestie. Elit at nec ut.</textarea>"
                                        "<input type='text'><button>Submit</button></form></body></html>"))
    box = next(e for e in pm.all_elements() if e.tag == "input")
    # The default model typed the text area's last sentence.
    assert nth_word_value("Find the last word in the text area, enter it into the text field and hit Submit.", box,
                          pm.sections) == "ut"


def test_a_field_labelled_with_a_sum_takes_its_result():
    from companion.act.named_fields import arithmetic_value

    # The default model typed "1" for "2 - 3 =".
    assert arithmetic_value(fields('<label>2 - 3 = <input type="text"></label>')[0]) == "-1"
    assert arithmetic_value(fields('<label>7 × 4 = ? <input type="text"></label>')[0]) == "28"
    assert arithmetic_value(fields('<label>7 / 2 = <input type="text"></label>')[0]) == "3.5"
    assert arithmetic_value(fields('<label>1 / 0 = <input type="text"></label>')[0]) is None
    assert arithmetic_value(fields('<label>x = <input type="text"></label>')[0]) is None  # an equation to solve


def test_the_fields_a_task_counts_by_kind_replace_the_chosen_ones_of_that_kind():
    from companion.act.form import counted_fields

    form = fields('<input type="radio" name="r" value="1"><input type="radio" name="r" value="2">'
                  '<input type="radio" name="r" value="3"><input type="text"><input type="text"><input type="text">')
    task = 'Check the 3rd radio button and enter the number "10" into the 2nd textbox.'
    # The default model chose the 3rd radio and the 1st textbox.
    assert counted_fields(task, form, [2, 3]) == [2, 4]
    assert counted_fields("Enter 10 into the box.", form, [3]) == [3]  # nothing counted: the model's choice
    # A field the task reads from is not one to fill.
    assert counted_fields("Copy the text from the 2nd text area into the text input.", form, [3]) == [3]


@pytest.mark.browser
async def test_the_one_field_left_empty_while_words_of_the_task_are_in_none_is_filled_before_the_review(
        browser, open_page, make_ctx, scripted_llm, llm_client_for):
    # "Search for urban movies directed by Hammond from year 1994": the model chose Director and Year, and the form
    # went with the genre empty, on two layouts.
    open_page("movie_form.html")
    server = scripted_llm(rules=[
        {"prompt": "form_field_selection", "responses": ['{"indices": [0, 2]}']},
        {"prompt": "field_value", "pattern": "are in no field", "responses": [json.dumps({"value": "urban"})] * 3},
        {"prompt": "field_value", "responses": [json.dumps({"value": "1994"})] * 3},
        {"prompt": "form_review", "responses": [json.dumps({"reason": "ok", "index": 3})]}])
    llm_client_for(server)
    ctx = await make_ctx("Search for urban movies directed by Hammond from year 1994.")
    await execute(ctx, candidate_for(ctx, "Go!"), "scripted")
    assert browser.driver.find_element(By.ID, "sent").text == "Hammond|urban|1994"
    asked = [r for r in server.requests if r.prompt == "field_value" and "are in no field" in r.last_user]
    assert len(asked) == 1 and 'the task\'s words "urban' in asked[0].last_user
