"""Sections whose structure says what they are (a table, a form, a search box, a navigation list, a pagination
bar, a filter panel) are described by rule, the same words every time; prose and mixed sections go to the model.
Pure: pages from tests/support/htmlsnap.py, the summary calls against the scripted server through the real client."""

from __future__ import annotations

from companion.memory.store import WebsiteMemStore
from companion.observe import Budget
from companion.observe.abstraction import abstract_sections
from companion.observe.calls import Accounting, Caller
from companion.observe.structure import controls_description, describe_structure, structural_kind
from companion.pagemem.divide import divide_page
from companion.pagemem.model import PageSection
from tests.support.htmlsnap import snapshot_from_html

ROWS = [("110", "Ann Lee", "Shipped", "$24.50"), ("111", "Bo Chen", "Pending", "$8.00"), ("112", "Cy Diaz", "Paid", "$13.10")]
ROWS += [(str(n), f"Customer {n}", "Paid", f"${n}.00") for n in range(113, 135)]
TABLE = ("<table><caption>Orders</caption><thead><tr><th>Number</th><th>Customer</th><th>Status</th><th>Total</th></tr>"
         "</thead><tbody>" + "".join(f"<tr><td><a href='/o/{a}'>{a}</a></td><td>{b}</td><td>{c}</td><td>{d}</td></tr>"
                                     for a, b, c, d in ROWS) + "</tbody></table>")
PROSE = ("<article><h2>About us</h2><p>We are a small shop that has sold running shoes since 1999, and our staff "
         "loves trails and everything about them.</p><p>Come and visit our store in the city centre on any weekday "
         "between nine and six, or write to us whenever you like.</p></article>")


def only_section(html: str, url: str = "http://127.0.0.1/orders/") -> PageSection:
    page = divide_page(snapshot_from_html(f"<html><body><main>{html}</main></body></html>", url=url))
    assert len(page.sections) == 1, [s.details for s in page.sections]
    return page.sections[0]


def test_a_table_is_described_by_its_caption_columns_row_count_and_first_row():
    assert describe_structure(only_section(TABLE)) == (
        "Table 'Orders'", "Table 'Orders': 25 rows; columns Number, Customer, Status, Total; "
                          "first: 110 | Ann Lee | Shipped | $24.50")


def test_a_form_is_described_by_its_field_labels_and_buttons():
    form = ("<form method='post'><h2>Sign in</h2><label for='u'>Username</label><input id='u' name='u'>"
            "<label for='p'>Password</label><input id='p' type='password' name='p'>"
            "<label><input type='checkbox' name='r'> Remember me</label><button type='submit'>Log in</button></form>")
    assert describe_structure(only_section(form)) == (
        "Form: Sign in", "Form 'Sign in': fields Username, Password, Remember me; buttons Log in")


def test_a_search_box_is_named_by_what_it_searches():
    box = "<form action='/orders/'><input type='text' name='q' placeholder='Search orders'><button>Search</button></form>"
    assert describe_structure(only_section(box)) == ("Search box", "search box (orders)")


def test_a_navigation_list_names_its_links_and_says_how_many_more_there_are():
    links = "".join(f"<li><a href='/section-{i}/'>Department number {i}</a></li>" for i in range(1, 31))
    purpose, summary = describe_structure(only_section(f"<nav aria-label='Main'><ul>{links}</ul></nav>"))
    assert purpose == "Navigation: Main"
    assert summary.startswith("Navigation: Main: links Department number 1, Department number 2, ")
    assert summary.endswith(" more") and " and " in summary and len(summary) < 300


def test_a_pagination_bar_is_its_page_range_and_next():
    bar = ("<p class='pages'><span>1</span> <a href='?p=2'>2</a> <a href='?p=3'>3</a> <a href='?p=4'>4</a> "
           "<a href='?p=5'>5</a> <a href='?p=2'>Next</a></p>")
    assert describe_structure(only_section(bar)) == ("Pagination", "pages 1–5, next")


def test_a_filter_panel_lists_each_filter_with_its_choices():
    panel = ("<div><h3>By status</h3><ul><li><a href='?'>All</a></li><li><a href='?status=shipped'>Shipped</a></li>"
             "<li><a href='?status=new'>New</a></li></ul><h3>By country</h3><ul><li><a href='?'>All</a></li>"
             "<li><a href='?country=fr'>France</a></li><li><a href='?country=it'>Italy</a></li></ul></div>")
    assert describe_structure(only_section(panel)) == (
        "Filters", "Filters: By status: All, Shipped, New; By country: All, France, Italy")


def test_controls_only_are_described_when_the_description_loses_no_text():
    links = "".join(f"<li><a href='/section-{i}/'>Department {i}</a></li>" for i in range(1, 9))
    assert controls_description(only_section(f"<nav aria-label='Main'><ul>{links}</ul></nav>"))[0] == "Navigation: Main"
    bar = "<p><a href='?p=1'>1</a> <a href='?p=2'>2</a> <a href='?p=3'>3</a> 60 orders</p>"
    assert controls_description(only_section(bar)) == ("Pagination", "pages 1–3, 60 orders")  # its counts kept
    welcome = f"<nav aria-label='Main'>Welcome, Ada. <ul>{links}</ul></nav>"
    assert controls_description(only_section(welcome)) is None  # "Welcome, Ada." is a fact a list of links drops
    assert controls_description(only_section(TABLE)) is None  # a table holds facts


def test_groups_of_links_to_other_pages_are_navigation_not_filters():
    footer = ("<div><h3>Company</h3><ul><li><a href='/about'>About</a></li><li><a href='/jobs'>Jobs</a></li></ul>"
              "<h3>Help</h3><ul><li><a href='/faq'>FAQ</a></li><li><a href='/contact'>Contact</a></li></ul></div>")
    assert structural_kind(only_section(footer)) == "navigation"


def test_prose_and_a_table_with_prose_around_it_go_to_the_model():
    assert describe_structure(only_section(PROSE)) is None
    mixed = PROSE.replace("</article>", TABLE.replace("<caption>Orders</caption>", "") + "</article>")
    assert structural_kind(only_section(mixed)) is None


def test_the_description_is_the_same_on_every_visit():
    first, again = only_section(TABLE), only_section(TABLE)
    assert describe_structure(first) == describe_structure(again)


def summary_reply() -> str:
    return '{"purpose": "About the shop", "summary": "Who runs the shop.", "state": "Static text."}'


async def test_a_table_costs_no_summary_call_and_a_prose_section_one(scripted_llm, llm_client_for):
    server = scripted_llm(rules=[{"prompt": "section_summary", "responses": [summary_reply()] * 5}])
    page = divide_page(snapshot_from_html(f"<html><body><main>{TABLE}</main><aside>{PROSE}</aside></body></html>",
                                          url="http://127.0.0.1/orders/"))
    table, prose = page.sections
    caller = Caller(llm_client_for(server), Budget(), Accounting())
    made = await abstract_sections(caller, page.sections, page, None, Budget())
    assert made == 1 and [r.prompt for r in server.requests] == ["section_summary"]
    assert "About us" in server.requests[0].last_user and "Ann Lee" not in server.requests[0].last_user
    assert table.summary.startswith("Table 'Orders': 25 rows") and prose.summary == "Who runs the shop."


async def test_a_summary_remembered_for_the_content_is_still_served_from_memory(tmp_path, scripted_llm, llm_client_for):
    server = scripted_llm(rules=[{"prompt": "section_summary", "responses": [summary_reply()] * 5}])
    page = divide_page(snapshot_from_html(f"<html><body><main>{TABLE}</main></body></html>", url="http://127.0.0.1/orders/"))
    with WebsiteMemStore("shop", directory=tmp_path) as store:
        store.store_abstractions([(page.sections[0].content_hash, "Remembered summary", "Remembered state")], [])
        store.apply_cached(page)
        await abstract_sections(Caller(llm_client_for(server), Budget(), Accounting()), page.sections, page, store, Budget())
    assert page.sections[0].summary == "Remembered summary" and server.requests == []



def test_a_selection_line_says_a_described_sections_purpose_once():
    from companion.observe.abstraction import section_line

    table = only_section(TABLE)
    table.purpose, table.summary = describe_structure(table)
    assert section_line(table) == table.summary and section_line(table).count("Table 'Orders'") == 1
    prose = only_section(PROSE)
    prose.purpose, prose.summary = "About the shop", "Who runs the shop and when it opens."
    assert section_line(prose) == "About the shop: Who runs the shop and when it opens."
