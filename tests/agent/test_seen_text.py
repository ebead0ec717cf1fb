"""The grounding check: numbers an observation states must have been seen on a page (or in the task)."""

from companion.agent.seen_text import SeenText
from companion.observe.values import Problem
from companion.pagemem.model import PageMem, PageSection


def _page(details: str) -> PageMem:
    return PageMem(url="http://127.0.0.1:8000/kettles.html", title="Kettles",
                   sections=[PageSection(id="s1", kind="normal", roots=[], tag="main", details=details)])


def test_a_price_read_from_a_page_is_grounded():
    seen = SeenText("What is the price of the Blue kettle?")
    seen.add_page(_page("- row\n  - cell: Blue kettle\n  - cell: $24.50"))
    assert seen.ungrounded_numbers("The Blue kettle costs $24.50 (http://127.0.0.1:8000/kettles.html).") == []


def test_an_invented_price_is_not_grounded():
    seen = SeenText("What is the price of the Blue kettle?")
    seen.add_page(_page("- text: We sell kettles in every colour."))
    assert seen.ungrounded_numbers("The Blue kettle is priced at $15.") == ["15"]


def test_a_number_is_matched_whole_not_inside_another():
    seen = SeenText("task")
    seen.add_page(_page("- cell: $150.00\n- cell: 2015"))
    assert seen.ungrounded_numbers("It costs 15 or 150.00 since 2015") == ["15"]


def test_an_observation_loses_only_the_sentences_with_invented_numbers():
    seen = SeenText("What is the price of the Blue kettle?")
    seen.add_page(_page("- text: We sell kettles in every colour.\n- cell: Red kettle $19.99"))
    kept, dropped = seen.without_ungrounded_sentences(
        "The shop sells kettles. The Blue kettle is priced at $15. The Red kettle costs $19.99! The price list is elsewhere.")
    assert kept == "The shop sells kettles. The Red kettle costs $19.99! The price list is elsewhere."
    assert dropped == ["The Blue kettle is priced at $15."]


def test_where_seen_names_the_page_each_number_was_read_on():
    seen = SeenText("What is the price of the Blue kettle?")
    seen.add_page(_page("- cell: Blue kettle\n  - cell: $24.50"))
    assert seen.where_seen("The Blue kettle costs $24.50, not $15.") == ['24.50: on "Kettles"']


def test_where_seen_does_not_offer_the_url_as_evidence():
    seen = SeenText("task")
    seen.add_page(_page("- cell: $24.50"))
    assert seen.where_seen("Read $24.50 at http://127.0.0.1:8000/kettles.html") == ['24.50: on "Kettles"']
    assert seen.ungrounded_numbers("http://127.0.0.1:8000/kettles.html") == []


def test_an_element_number_is_not_page_content():
    seen = SeenText("What is the price of the Blue kettle?")
    seen.add_page(_page('- [3] link "About us"\n- heading "Kettles" [level=1]'))
    assert seen.ungrounded_numbers("The price of the Blue kettle is [3] dollars.") == ["3"]
    assert seen.where_seen("It costs 3 dollars.") == []


def test_a_copied_element_line_states_no_number():
    seen = SeenText("What is the price of the Blue kettle?")
    seen.add_page(_page('- [4] link "Browse all kettles"'))
    assert seen.ungrounded_numbers('The page links to [4] link "Browse all kettles".') == []


def test_a_page_outline_keeps_its_element_lines_and_their_numbers():
    # A page shown whole lists its elements as '[1] combobox value="Norway"': no number is stated there, and a
    # sentence dropped beside it takes nothing of the outline with it.
    seen = SeenText("Select Iceland and click Submit.")
    seen.add_page(_page('- [1] combobox value="Norway" options: Norway | Iceland\n- [2] button "Submit"'))
    outline = '- [1] combobox value="Norway" options: Norway | Iceland\n- [2] button "Submit"'
    assert seen.ungrounded_numbers(outline) == []
    kept, dropped = seen.without_ungrounded_sentences(f"{outline}. It costs 44.")
    assert kept == f"{outline}." and dropped == ["It costs 44."]


def _titled(title: str, details: str) -> PageMem:
    return PageMem(url=f"http://127.0.0.1:8000/{title.lower()}.html", title=title,
                   sections=[PageSection(id="s1", kind="normal", roots=[], tag="main", details=details)])


def _two_pages_read() -> SeenText:
    seen = SeenText("What do the Blue and the Red kettle cost together?")
    seen.add_page(_titled("Blue", "- text: Blue kettle $25.50"))
    seen.add_relevant("Blue kettle $25.50")  # the step's extraction
    seen.add_page(_titled("Red", "- text: Red kettle $30.00"))
    seen.add_relevant("Red kettle $30.00")
    return seen


def test_a_total_of_prices_read_on_two_pages_is_kept_with_its_computation():
    out = _two_pages_read().grounded("The kettles cost $55.50 together.")
    assert out.dropped == []
    assert out.kept == 'The kettles cost $55.50 together. (Computed: $55.50 = $25.50 + $30.00 (seen on "Blue", "Red").)'


def test_the_computation_is_the_end_task_evidence_of_a_computed_value():
    assert _two_pages_read().where_seen("They cost $55.50; the Red one $30.00.") == [
        '55.50: computed, $55.50 = $30.00 + $25.50 (seen on "Red", "Blue")', '30.00: on "Red"']


def test_a_kept_computation_is_grounded_when_read_again():
    seen = _two_pages_read()
    observation = seen.grounded("The kettles cost $55.50 together.").kept
    assert seen.ungrounded_numbers(observation) == []


def test_a_total_needs_its_operands_in_task_relevant_text_not_anywhere_on_a_page():
    seen = SeenText("What do the Blue and the Red kettle cost together?")
    seen.add_page(_titled("Blue", "- text: Blue kettle $25.50\n- text: Red kettle $30.00"))
    assert seen.ungrounded_numbers("The kettles cost $55.50 together.") == ["55.50"]


def test_a_count_of_a_visited_lists_items_is_computed():
    items = [PageSection(id=f"i{n}", kind="normal", roots=[], tag="li", details=f"- text: {name} kettle")
             for n, name in enumerate(("Red", "Blue", "Green"))]
    page = PageMem(url="http://127.0.0.1:8000/kettles.html", title="Kettles",
                   sections=[PageSection(id="s1", kind="list", roots=[], tag="ul", details="list (3 items)", items=items)])
    seen = SeenText("How many kettles are there?")
    seen.add_page(page)
    assert seen.ungrounded_numbers("The shop has 3 kettles.") == []
    assert seen.ungrounded_numbers("The shop has 4 kettles.") == ["4"]


CUSTOMERS = """<html><body><h1>Customers</h1><table>
<thead><tr><th>Name</th><th>Email</th><th>Last order</th></tr></thead><tbody>
<tr><td>Ann Lee</td><td>ann@shop.test</td><td>#110</td></tr>
<tr><td>Bob Stone</td><td>bob@shop.test</td><td>#111</td></tr></tbody></table></body></html>"""


def _customers_seen() -> SeenText:
    from companion.pagemem.divide import divide_page
    from tests.support.htmlsnap import snapshot_from_html

    seen = SeenText("What is the email address of the customer who placed order #110?")
    seen.add_page(divide_page(snapshot_from_html(CUSTOMERS, title="Customers")))
    return seen


def test_an_observation_loses_the_sentence_giving_another_rows_email_and_notes_it():
    out = _customers_seen().grounded("The page lists customers. The customer who placed order #110 has the email "
                                     "bob@shop.test. Ann Lee placed order #110.")
    assert out.kept == "The page lists customers. Ann Lee placed order #110."
    assert out.notes == ["bob@shop.test was not found with 110 on this page"]


def test_a_not_found_note_is_not_read_back_as_a_claim():
    seen = _customers_seen()
    assert seen.unsupported("The page lists customers. (customer@example.com was not found on this page.)") == []
    assert seen.unsupported("Write to customer@example.com.") == [Problem("customer@example.com")]


def test_a_value_beside_a_name_the_tasks_row_held_is_kept_once_that_name_is_known():
    """Order #110's row named Ann Lee on an earlier page; the customer list holds her email in her row."""
    from companion.pagemem.divide import divide_page
    from tests.support.htmlsnap import snapshot_from_html

    task = "What is the email address of the customer who placed order #110?"
    customers = ("<html><body><h1>Customers</h1><table><thead><tr><th>Name</th><th>Email</th></tr></thead><tbody>"
                 "<tr><td>Ann Lee</td><td>ann@shop.test</td></tr><tr><td>Bob Stone</td><td>bob@shop.test</td></tr>"
                 "</tbody></table></body></html>")
    page = divide_page(snapshot_from_html(customers))
    page.url, page.title = "http://127.0.0.1:8000/customers", "Customers"
    claim = "The email address of the customer who placed order #110 is ann@shop.test."
    seen = SeenText(task)
    seen.add_page(page)
    assert seen.grounded(claim).dropped == [claim]  # nothing ties it to #110 yet

    seen.relate(["Ann Lee"])
    assert seen.grounded(claim).kept == claim
    assert seen.grounded(claim.replace("ann@", "bob@")).dropped  # another customer's email is still refused
