"""The grounding check: numbers an observation states must have been seen on a page (or in the task)."""

from companion.agent.grounding import SeenText
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
