"""A compound task is split into ordered parts by rule, and a part is ticked done only by evidence: an element
it names was used and the page became another document (companion/act/task_parts.py). Pure functions."""

from __future__ import annotations

from companion.act.task_parts import TaskParts, request_before, split_task

LOGIN_TASK = ("Log in to the shop admin (username: admin, password: s3cret!). "
              "What is the current stock of the product with SKU KT-1002?")


def test_sentences_are_parts_but_a_full_stop_inside_brackets_quotes_or_after_an_abbreviation_is_not_an_end():
    assert split_task(LOGIN_TASK) == ["Log in to the shop admin (username: admin, password: s3cret!).",
                                      "What is the current stock of the product with SKU KT-1002?"]
    assert split_task('Post "Great kettle. Works well." as a review.') == ['Post "Great kettle. Works well." as a review.']
    assert split_task("Ask Mr. Smith, e.g. Bob, for the key.") == ["Ask Mr. Smith, e.g. Bob, for the key."]


def test_sequence_words_cut_a_sentence_and_are_left_out_of_the_parts():
    assert split_task("Open the orders page and then count the pending ones.") == ["Open the orders page",
                                                                                    "count the pending ones."]
    assert split_task("First log in, then open the orders, next count them, finally say the count.") == [
        "First log in", "open the orders", "count them", "say the count."]
    assert split_task("Open the orders. Then count them.") == ["Open the orders.", "count them."]
    assert split_task('Type "first, then last" into the box.') == ['Type "first, then last" into the box.']


def test_a_sequence_word_inside_single_quotes_is_part_of_the_value():
    assert split_task("Type 'first, then last' into the box.") == ["Type 'first, then last' into the box."]


def test_a_full_stop_inside_single_quotes_ends_no_sentence():
    assert split_task("Post 'Great kettle. Works well.' as a review.") == ["Post 'Great kettle. Works well.' as a review."]


def test_numbered_steps_are_parts_in_their_order():
    assert split_task("Do this: 1. Open the orders 2) Count the pending ones") == [
        "Do this:", "Open the orders", "Count the pending ones"]
    assert split_task("Buy 2. Then pay.") == ["Buy 2.", "pay."]  # one number is no list of steps


def test_a_task_of_one_part_is_not_compound_and_lists_nothing():
    parts = TaskParts.of("What is the price of the Blue kettle on the next page?")
    assert not parts.compound and parts.listed() == []


def test_a_part_is_ticked_when_the_element_it_names_was_used_and_a_question_never_is():
    parts = TaskParts.of(LOGIN_TASK)
    assert parts.listed() == ["[ ] 1. Log in to the shop admin (username: admin, password: s3cret!).",
                              "[ ] 2. What is the current stock of the product with SKU KT-1002?"]
    assert parts.tick(["Log out"]) is None  # not what the part names
    assert parts.tick(["Login"]) == 0  # the same letters as "Log in"
    assert parts.listed()[0].startswith("[x] 1. Log in")
    assert parts.tick(["Log in"]) is None  # done already; the question names no element
    assert parts.serving(["Search"]) is None


def test_the_part_a_form_serves_is_the_first_not_done_that_names_its_button():
    parts = TaskParts.of("Search for kettles, then search for teapots and save the cheaper one.")
    assert parts.serving(["Search"]) == 0
    parts.tick(["Search"])
    assert parts.serving(["Search"]) == 1
    assert parts.serving(["Save"]) == 1


def test_an_in_page_click_ticks_the_first_part_not_done_that_names_its_element():
    parts = TaskParts.of("Click button ONE, then click button TWO")
    assert parts.tick_action('Clicked button "ONE"') == 0
    assert parts.listed() == ["[x] 1. Click button ONE", "[ ] 2. click button TWO"]
    assert parts.tick_action('Clicked button "TWO"') == 1


def test_a_typed_value_and_a_checked_box_tick_the_parts_that_name_them():
    parts = TaskParts.of('Type "Bob" into the name field. Then check the red box.')
    assert parts.tick_action('Checked checkbox "red"') == 1
    assert parts.tick_action('Typed "Bob" into textbox "Your name"') == 0


def test_typing_a_value_does_not_tick_a_part_that_asks_to_submit():
    parts = TaskParts.of(LOGIN_TASK)
    assert parts.tick_action('Typed "admin" into textbox "Username"') is None
    assert parts.tick_action('Clicked button "Log in"') == 0


def test_an_action_no_part_names_ticks_nothing():
    parts = TaskParts.of("Click button ONE, then click button TWO")
    assert parts.tick_action('Clicked button "THREE"') is None
    assert not any(p.done for p in parts.parts)


def test_an_element_of_a_later_part_waits_for_an_earlier_part_that_names_an_element_of_the_page():
    parts = TaskParts.of("Click button ONE, then click button TWO")
    assert parts.first_pending("TWO", ["ONE", "TWO"]) == 0
    assert parts.first_pending("ONE", ["ONE", "TWO"]) is None
    parts.tick_action('Clicked button "ONE"')
    assert parts.first_pending("TWO", ["ONE", "TWO"]) is None


def test_an_earlier_part_naming_nothing_on_the_page_does_not_hold_a_later_one():
    parts = TaskParts.of("Log in to the shop, then click button TWO")
    assert parts.first_pending("TWO", ["TWO", "Cancel"]) is None


def test_a_request_in_a_clause_before_the_one_that_clicks_a_button_comes_first():
    assert request_before("Expand the section below and click submit.", "Submit") == "Expand the section below"
    assert request_before("Mark the numbers below as odd or even and press submit when done.", "Submit") == \
        "Mark the numbers below as odd or even"
    assert request_before("Select Iceland, then press Search", "Search") == "Select Iceland"


def test_the_clause_that_clicks_the_button_itself_or_one_without_a_request_verb_asks_nothing_first():
    assert request_before("Click on the Submit button.", "Submit") is None
    assert request_before("Find the email by Bob and click the trash icon", "trash") is None  # reading is no action
    assert request_before("Expand the section below and click submit.", "Cancel") is None    # not named at all
    assert request_before("Select nothing and click Submit.", "Submit") is None  # a request to do nothing


def test_a_bare_then_before_a_verb_of_acting_cuts_the_task():
    assert split_task('Enter the name "Karrie" then press "Cancel"') == ['Enter the name "Karrie"', 'press "Cancel"']
    assert split_task("Say when then is too late.") == ["Say when then is too late."]  # no verb of acting after it


def test_what_the_task_asks_only_to_find_the_named_element_is_not_asked_before_it():
    assert request_before('Switch between the tabs to find and click on the link "enim".', "enim") is None
    assert request_before('Expand the sections below, to find and click on the link "enim".', "enim") is None
    assert request_before("Expand the section below and click submit.", "Submit") == "Expand the section below"


def test_a_comma_before_a_verb_of_acting_cuts_but_not_inside_quotes_or_brackets():
    assert split_task('Scroll to the bottom of the textarea, enter the name "Rex" then press "Agree"') == [
        "Scroll to the bottom of the textarea", 'enter the name "Rex"', 'press "Agree"']
    assert split_task("Select quQ, c4W0m7m and click Submit.") == ["Select quQ, c4W0m7m and click Submit."]
    assert split_task('Type "red, click blue" into the box.') == ['Type "red, click blue" into the box.']
    assert split_task("Log in (user: admin, enter it lower-case) and open the orders.") == [
        "Log in (user: admin, enter it lower-case) and open the orders."]


def test_a_scroll_ticks_the_part_that_asks_to_scroll():
    parts = TaskParts.of('Scroll to the bottom of the textarea, enter the name "Rex" then press "Agree"')
    assert parts.tick_action('Clicked button "Agree"') == 2  # names nothing of part 1 or 2
    assert parts.tick_action('Scrolled the text area "Ut. Iaculis …" to the bottom') == 0
    assert parts.tick_action('Typed "Rex" into textbox "Name"') == 1


def test_a_part_that_asks_to_scroll_comes_first_until_a_scroll_ticks_it():
    parts = TaskParts.of('Scroll to the bottom of the textarea, enter the name "Rex" then press "Agree"')
    assert parts.first_pending("Agree", ["Name", "Agree", "Cancel"]) == 0
    parts.tick_action('Scrolled the text area "Ut. Iaculis …" to the bottom')
    assert parts.first_pending("Agree", ["Name", "Agree", "Cancel"]) == 1
