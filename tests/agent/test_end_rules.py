"""The end-task rules as functions (companion/agent/finish.py), on pages divided by the real PageMem pipeline from
HTML (tests/support/htmlsnap.py): missing_action refuses an end before an action the task asks for could have
run; hollow_answer refuses an answer that found nothing while a place the answer could be was not looked at."""

from __future__ import annotations

from urllib.parse import urljoin

from companion.agent.finish import (
    hollow_answer, missing_action, typed_unsent, unacted_at_last_step, unclicked_named, unpressed_verb, unsent,
    wrong_kind_answer,
)
from companion.pagemem.divide import divide_page
from tests.support.htmlsnap import snapshot_from_html

SHOP = "http://127.0.0.1/shop.html"
SEARCH_PAGE = """<html><body><h1>Shop</h1>
<form role="search"><input type="search" name="q" aria-label="Search"><button>Go</button></form>
<p>Welcome to the shop.</p></body></html>"""
LINK_PAGE = """<html><body><h1>Shop</h1>
<nav><a href="/kettles.html">Kettles</a> <a href="/about.html">About us</a></nav>
<p>Welcome to the shop.</p></body></html>"""
NOT_THERE = "The price is not provided on this page."


def page(html: str):
    snapshot = snapshot_from_html(html, url=SHOP, title="Shop")
    for element in snapshot.frames[0].elements:  # a link's url, as the browser resolves its href
        if "href" in element.attrs:
            element.url = urljoin(SHOP, element.attrs["href"])
    return divide_page(snapshot)


def test_a_question_asks_for_no_action():
    assert missing_action("What is the price of the Blue kettle?", []) is None


def test_a_task_asking_to_click_is_not_done_before_any_action():
    why = missing_action("Click the Submit button", [])
    assert why is not None and '"click"' in why


def test_a_click_does_what_a_task_asking_to_click_asks():
    assert missing_action("Click the Submit button", ['Clicked button "Submit"']) is None


def test_typing_does_not_do_a_click_the_task_asks_for():
    why = missing_action("Click the Submit button", ['Typed "Bob" into textbox "Name"'])
    assert why is not None and '"click"' in why


def test_only_the_verbs_without_an_action_are_named():
    why = missing_action("Type Bob into the name box and click Submit", ['Typed "Bob" into textbox "Name"'])
    assert why is not None and '"click"' in why and '"type"' not in why


def test_the_everyday_verbs_of_web_apps_ask_for_an_action():
    for task in ("Forward the email from Ann to Bob", "Create a tag named Sale", "Mark the order as shipped",
                 "Open the inbox, then archive the first message"):
        why = missing_action(task, [])
        assert why is not None and '"change"' in why, task
    assert missing_action("Create a tag named Sale", ['Typed "Sale" into textbox "Name"']) is None
    assert missing_action("Which orders were marked as shipped?", []) is None  # a past participle asks nothing


def test_a_check_that_asks_to_look_asks_for_no_action():
    assert missing_action("Check whether the Blue kettle is in stock", []) is None


def test_an_answer_that_gives_a_value_is_not_hollow():
    assert hollow_answer("The Blue kettle costs $24.50.", "What does the Blue kettle cost?", page(SEARCH_PAGE), [], [SHOP]) is None


def test_not_there_is_hollow_while_the_sites_search_was_not_tried():
    why = hollow_answer(NOT_THERE, "What does the Blue kettle cost?", page(SEARCH_PAGE), [], [SHOP])
    assert why is not None and "search the site" in why


def test_not_there_is_an_answer_once_the_search_was_tried():
    searched = ['Typed "Blue kettle" into searchbox "Search"']
    assert hollow_answer(NOT_THERE, "What does the Blue kettle cost?", page(SEARCH_PAGE), searched, [SHOP]) is None


def test_not_there_is_hollow_while_a_link_the_task_names_was_not_opened():
    why = hollow_answer(NOT_THERE, "What do the kettles cost?", page(LINK_PAGE), [], [SHOP])
    assert why is not None and "Kettles" in why and "About us" not in why


def test_not_there_is_an_answer_once_the_link_the_task_names_was_opened():
    visited = [SHOP, "http://127.0.0.1/kettles.html"]
    assert hollow_answer(NOT_THERE, "What do the kettles cost?", page(LINK_PAGE), [], visited) is None


def test_not_there_is_an_answer_when_there_is_no_page_to_look_at():
    assert hollow_answer(NOT_THERE, "What does the Blue kettle cost?", None, [], []) is None


def test_the_last_step_of_a_task_that_did_nothing_cannot_end_it():
    why = unacted_at_last_step("Like the second post", [], last_step=True)
    assert why is not None and "no action" in why


def test_an_end_before_the_last_step_is_left_to_the_other_rules():
    assert unacted_at_last_step("Like the second post", [], last_step=False) is None


def test_a_task_that_acted_may_end_on_its_last_step():
    assert unacted_at_last_step("Like the second post", ['Clicked button "Like"'], last_step=True) is None


def test_a_question_may_end_on_its_last_step_without_an_action():
    assert unacted_at_last_step("What is the price of the Blue kettle?", [], last_step=True) is None


def test_a_question_that_asks_to_act_too_may_not_end_without_one():
    assert unacted_at_last_step("Click the Blue kettle. What does it cost?", [], last_step=True) is not None


def test_an_answer_without_the_email_the_question_asks_for_is_refused_while_the_search_is_untried():
    why = wrong_kind_answer("The customer who placed order SO-1010 is Nico Romano.",
                            "What is the email address of the customer who placed order SO-1010?", page(SEARCH_PAGE), [], [SHOP])
    assert why is not None and why.startswith("the task asks for an email address and the answer gives none")
    assert "search" in why.lower()


def test_an_answer_with_an_email_gives_what_the_question_asks_for():
    assert wrong_kind_answer("It is nico@example.com.", "What is the email address of the customer?",
                             page(SEARCH_PAGE), [], [SHOP]) is None


def test_a_how_many_answer_needs_a_number():
    task = "How many orders are pending?"
    assert wrong_kind_answer("Some orders are pending.", task, page(SEARCH_PAGE), [], [SHOP]) is not None
    assert wrong_kind_answer("3 orders are pending.", task, page(SEARCH_PAGE), [], [SHOP]) is None


def test_the_wrong_kind_is_given_when_nowhere_is_left_to_look():
    plain = page("<html><body><h1>Shop</h1><p>Welcome to the shop.</p></body></html>")
    assert wrong_kind_answer("Nico Romano", "What is the email address of the customer?", plain, [], [SHOP]) is None


def test_a_control_verb_is_not_done_before_a_control_of_that_name_was_used():
    task = "Find the email by Tildie and reply to them with the text \"Non\"."
    # The default model typed into the inbox's search and ended, its answer a description of the search.
    assert unpressed_verb(task, ['Typed "Non" into textbox "Search"', 'Pressed Enter in textbox "Search"']) == "reply"
    assert unpressed_verb(task, ['Clicked generic "Tildie Sapien."', 'Clicked generic "Reply"']) is None
    assert unpressed_verb("The mail by Brandea should be forwarded to Elisabetta.", []) == "forward"  # said passively
    assert unpressed_verb("Delete the customer Bruno Smith.", ['Selected "Delete selected customers" in combobox "Action"']) is None
    assert unpressed_verb("Start the timer.", []) is None and unpressed_verb("What is the star rating?", []) is None


def test_a_forward_whose_form_shows_an_unpressed_send_is_not_complete():
    compose = page('<html><body><span style="cursor:pointer" onclick="1">send</span>'
                   '<input type="text" aria-label="to"><textarea>body</textarea></body></html>')
    task = "Forward to Fredia the email that Anni sent to me today."
    # The default model clicked "Forward" and ended with the forward's form open.
    assert unsent(task, compose, ['Clicked generic "Anni Mauris."', 'Clicked generic "Forward"']) == 'generic "send"'
    assert unsent(task, compose, ['Clicked generic "Forward"', 'Typed "Fredia" into textbox "to"',
                                  'Clicked generic "send"']) is None
    assert unsent("What did Anni send me?", compose, []) is None  # a question sends nothing


def test_a_quoted_name_the_task_asks_to_click_shown_and_never_clicked_holds_back_the_end():
    # The default model opened the section holding "enim," and ended with "Clicked tab 'Section #1'".
    section = page('<html><body><div role="tab" aria-expanded="true" tabindex="0">Section #1</div>'
                   '<p>Sit aliquam id <span onclick="go()">enim,</span> quam.</p></body></html>')
    task = 'Expand the sections below, to find and click on the link "enim,".'
    quote, ref = unclicked_named(task, section, ['Clicked tab "Section #1"'])
    assert quote == "enim," and section.element_by_ref(ref).text == "enim,"
    assert unclicked_named(task, section, ['Clicked tab "Section #1"', 'Clicked generic "enim,"']) is None
    assert unclicked_named('Type "enim," into the box.', section, []) is None  # not asked to click
    assert unclicked_named('What does the link "enim," say?', section, []) is None  # a question


FILLED_FORM = """<html><body><div id="form">
<input aria-label="Director" value="Hurley"><input aria-label="Genre" value="Political"><input aria-label="Year">
<div class="final" tabindex="0">Submit</div></div><p>Find a movie.</p></body></html>"""


def test_fields_typed_and_never_sent_name_the_pages_one_send_control():
    task = "Search for political movies directed by Hurley from year 1985."
    typed = ['Typed "Hurley" into textbox "Director"', 'Typed "Political" into textbox "Genre"']
    send = typed_unsent(task, page(FILLED_FORM), typed)
    assert send is not None and send.name == "Submit"
    assert typed_unsent(task, page(FILLED_FORM), [*typed, 'Clicked generic "Submit"']) is None  # sent
    assert typed_unsent(task, page(FILLED_FORM), []) is None  # nothing typed by the agent
    assert typed_unsent("Which movie did Hurley direct?", page(FILLED_FORM), typed) is None  # a question
