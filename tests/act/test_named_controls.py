"""Time, date, number and range inputs, lists that keep several options and radio groups count as fields the task
names (companion/act/named_fields.py unset_named): unset, they hold back a Submit or the end once. Pure functions
over pages divided by the real PageMem pipeline from HTML (tests/support/htmlsnap.py)."""

from __future__ import annotations

from companion.act.named_fields import quoted_not_control, unset_named, value_named_for
from companion.pagemem.divide import divide_page
from tests.support.htmlsnap import snapshot_from_html


def fields(body: str):
    return list(divide_page(snapshot_from_html(f"<html><body>{body}<button>Submit</button></body></html>")).all_elements())


def only(body: str, kind: str):
    return next(e for e in fields(body) if e.tag == kind)


def test_an_empty_time_input_is_unset_while_the_task_gives_a_time():
    left = unset_named("Enter 5:37 PM as the time and press submit.", fields('<input type="time" id="t">'))
    assert left == ['"5:37 PM" is not typed into a field yet']


def test_a_filled_time_input_is_set():
    assert unset_named("Enter 5:37 PM as the time and press submit.", fields('<input type="time" value="17:37">')) == []


def test_the_tasks_one_time_is_the_time_inputs_value():
    assert value_named_for("Enter 5:37 PM as the time and press submit.", only('<input type="time">', "input")) == "5:37 PM"


def test_an_empty_number_input_is_unset_while_the_task_gives_one_number():
    assert unset_named("Set the quantity to 3 and click Submit.", fields('<input type="number" id="q">')) == [
        '"3" is not typed into a field yet']


def test_a_range_input_holding_another_number_is_unset():
    left = unset_named("Move the slider to 70 and click Submit.", fields('<input type="range" value="50" aria-label="Level">'))
    assert left == ['slider "Level" is not set to 70']
    assert unset_named("Move the slider to 70 and click Submit.", fields('<input type="range" value="70" aria-label="Level">')) == []


def test_a_task_with_several_numbers_names_no_number_for_an_input():
    assert unset_named("Set the quantity to 3 for order 4451.", fields('<input type="number" value="1" aria-label="Qty">')) == []


def test_each_option_the_task_names_in_a_multiple_select_must_be_selected():
    body = ('<select multiple aria-label="Names"><option>Ada</option><option selected>Bo</option>'
            '<option>Cy</option><option>Di</option></select>')
    assert unset_named("Select Ada, Bo and Di from the list and click Submit.", fields(body)) == [
        '"Ada", "Di" of listbox "Names" not selected']


def test_a_multiple_select_with_every_named_option_selected_is_set():
    body = ('<select multiple aria-label="Names"><option selected>Ada</option><option>Bo</option>'
            '<option selected>Di</option></select>')
    assert unset_named("Select Ada and Di from the list and click Submit.", fields(body)) == []


def test_a_radio_of_a_group_the_task_names_is_unset_while_another_is_checked():
    body = ('<label><input type="radio" name="size" checked>Small</label>'
            '<label><input type="radio" name="size">Large</label>')
    assert unset_named("Choose Large and click Submit.", fields(body)) == ['radio "Large" is not checked']


def test_a_script_spinner_holding_another_number_is_unset_and_takes_the_tasks_number():
    # "Select 3 with the spinner and hit Submit": one click on its arrow, then Submit.
    body = '<input type="text" role="spinbutton" aria-label="Amount" value="1" aria-valuenow="1">'
    assert unset_named("Select 3 with the spinner and hit Submit.", fields(body)) == ['spinbutton "Amount" is not set to 3']
    assert value_named_for("Select 3 with the spinner and hit Submit.", only(body, "input")) == "3"


def test_of_two_quoted_phrases_the_one_no_control_bears_is_the_fields_value():
    # 'enter "Augus" and press "Search"': the default model typed "Search" into the search box.
    task = 'Use the textbox to enter "Augus" and press "Search", then find and click the 9th search result.'
    elements = fields('<input id="search-text"><button>Search</button>')
    box = next(e for e in elements if e.tag == "input")
    assert quoted_not_control(task, box, elements) == "Augus"
    assert quoted_not_control('Enter "Augus" and "Bo"', box, elements) is None  # neither is a control: ambiguous
    two = fields('<input id="a"><input id="b"><button>Search</button>')
    assert quoted_not_control(task, two[0], two) is None  # which field is the model's call
