"""Tables and lists as data: the rows a task names by a value they hold (an order number, an email, a name) are
found by rule and shown with their column headers, with no item selection or extraction call for that table.
Pure: pages from tests/support/htmlsnap.py, the pipeline's calls against the lexical stand-in (the real client)."""

from __future__ import annotations

import pytest

from companion.observe import PageObserver
from companion.observe.rows import identifiers, matching
from companion.observe.values import Value
from companion.observe.values import identifiers as values_of_task
from companion.pagemem.divide import divide_page
from companion.pagemem.model import PageSection
from tests.support.htmlsnap import snapshot_from_html

PEOPLE = [("Ann Lee", "ann.lee@example.com"), ("Bo Chen", "bo.chen@example.com"), ("Cy Diaz", "cy@example.com")]
ROWS = [(str(109 + i), *PEOPLE[i % 3], ["Shipped", "Pending", "Paid"][i % 3], f"${i + 20}.50") for i in range(30)]
HEAD = "<tr><th>Number</th><th>Customer</th><th>Email</th><th>Status</th><th>Total</th></tr>"
BODY = "".join(f"<tr><td><a href='/orders/{n}/'>{n}</a></td><td>{c}</td><td>{e}</td><td>{s}</td><td>{t}</td></tr>"
               for n, c, e, s, t in ROWS)
PAGE = (f"<html><body><h1>Orders</h1><table><thead>{HEAD}</thead><tbody>{BODY}</tbody></table>"
        "<p>Orders are shipped within two working days of payment, and every parcel is tracked until it "
        "reaches the customer.</p></body></html>")


async def observe(lexical, task: str):
    pm = divide_page(snapshot_from_html(PAGE, url="http://127.0.0.1/orders/", title="Orders"))
    table = next(s for s in pm.sections if s.kind == "list")
    obs = await PageObserver(client=lexical.client).observe(task, "", pm)
    return pm, table, obs


async def test_a_task_naming_an_order_number_sees_exactly_that_row_with_its_headers(lexical):
    pm, table, obs = await observe(lexical, "What is the email address of the customer who placed order #110?")
    assert table.id in obs.selected
    assert obs.extractions[table.id] == ("Row matching the task (1 of 30):\n- row 2: Number: 110 | Customer: Bo Chen | "
                                         "Email: bo.chen@example.com | Status: Pending | Total: $21.50")
    assert obs.list_items[table.id] == [table.items[1].id] and obs.list_scans[table.id].by_rule
    asked = [prompt for prompt, user in lexical.prompts() if "bo.chen@example.com" in user and "Number: 110" not in user]
    assert not [p for p in asked if p in ("list_item_selection", "list_early_stop", "detail_extraction")]


async def test_a_task_naming_an_email_or_a_person_sees_their_rows(lexical):
    _, table, obs = await observe(lexical, "List the orders of cy@example.com")
    assert obs.extractions[table.id].startswith("Rows matching the task (10 of 30):\n- row 3: Number: 111 | Customer: Cy Diaz")
    _, table, obs = await observe(lexical, "Which orders did Ann Lee place?")
    rows = obs.extractions[table.id].splitlines()[1:]
    assert len(rows) == 10 and all("Customer: Ann Lee" in row for row in rows)
    assert not any(p == "list_item_selection" for p, _ in lexical.prompts())


async def test_a_value_most_rows_share_or_a_small_count_names_no_row(lexical):
    assert identifiers("Show the 5 latest orders") == []
    _, table, obs = await observe(lexical, 'Which orders have an email address at "example.com"?')  # every row
    assert not obs.list_scans[table.id].by_rule and not obs.extractions[table.id].startswith("Row")
    assert any(p == "list_item_selection" for p, _ in lexical.prompts())


def test_a_name_split_over_last_and_first_name_columns_still_names_its_row():
    rows = [["Bernard", "Felix", "felix@example.com"], ["Lee", "Ann", "ann@example.com"], ["Diaz", "Cy", "cy@example.com"]]
    assert matching("What is the email address of Felix Bernard?", rows) == [0]


@pytest.mark.whole_pages  # the product's default bounds (a short list is the small-page idea for one list)
async def test_a_list_of_a_few_links_is_shown_whole_without_an_item_selection_call(lexical):
    # Long enough that the page goes through selection; the menu itself is a few short items.
    names = ["Orders", "Customers", "Products", "Categories", "Tags", "Users"]
    menu = "<nav><ul>" + "".join(f"<li><a href='/{n.lower()}/'>{n}</a></li>" for n in names) + "</ul></nav>"
    pm = divide_page(snapshot_from_html(PAGE.replace("<h1>Orders</h1>", menu + "<h1>Orders</h1>"),
                                        url="http://127.0.0.1/orders/", title="Orders"))
    nav = next(s for s in pm.sections if s.kind == "list" and "Customers" in s.details)
    obs = await PageObserver(client=lexical.client).observe("Which products are out of stock?", "", pm)
    assert nav.id in obs.selected  # the lexical stand-in selects what shares words with the task ("products")
    assert obs.list_scans[nav.id].whole and obs.list_items[nav.id] == [it.id for it in nav.items]
    asked = [user for prompt, user in lexical.prompts() if prompt == "list_item_selection"]
    assert not any("Customers" in user and "Products" in user and "Number" not in user for user in asked)


@pytest.mark.whole_pages
async def test_a_navigation_list_and_a_filter_panel_cost_no_extraction_call(lexical):
    links = "".join(f"<li><a href='/{n}/'>{n.title()} of the shop</a></li>" for n in
                    ("orders", "customers", "products", "categories", "tags", "users", "groups", "reports"))
    filters = ("<nav aria-label='Filter'><h3>By status</h3><ul><li><a href='/orders/?'>All</a></li>"
               "<li><a href='/orders/?status=shipped'>Shipped</a></li><li><a href='/orders/?status=pending'>Pending</a></li>"
               "<li><a href='/orders/?status=paid'>Paid</a></li></ul><h3>By method</h3><ul><li><a href='/orders/?'>All</a>"
               "</li><li><a href='/orders/?m=standard'>Standard</a></li><li><a href='/orders/?m=express'>Express</a></li>"
               "<li><a href='/orders/?m=pickup'>Store pickup</a></li></ul></nav>")
    html = PAGE.replace("<h1>Orders</h1>", f"<nav aria-label='Sidebar'><ul>{links}</ul></nav><h1>Orders</h1>{filters}")
    pm = divide_page(snapshot_from_html(html, url="http://127.0.0.1/orders/", title="Orders"))
    obs = await PageObserver(client=lexical.client).observe("Which orders of the shop are shipped?", "", pm)

    controls = [s for s in pm.sections if s.purpose in ("Navigation: Sidebar", "Filters")]
    assert len(controls) == 2 and all(s.id in obs.selected and obs.extractions[s.id] == "" for s in controls)
    asked = [user for prompt, user in lexical.prompts() if prompt in ("detail_extraction", "list_item_selection")]
    assert not any("Store pickup" in user or "Reports of the shop" in user for user in asked)


async def test_a_code_no_row_holds_is_said_absent_and_no_row_is_picked(lexical):
    # Rows 109-138 are shown; the order asked for is on another page of the list.
    pm, table, obs = await observe(lexical, "What is the email address of the customer who placed order #150?")
    assert obs.extractions[table.id] == "No row holds 150 (30 rows shown, 109 … 138)"
    assert obs.list_items[table.id] == [] and obs.list_scans[table.id].by_rule
    assert not any(p == "list_item_selection" for p, _ in lexical.prompts())


async def test_a_person_no_row_shows_is_said_absent_and_no_call_reads_the_table(lexical):
    pm, table, obs = await observe(lexical, "What is the email address of Dana Park?")
    assert obs.extractions[table.id] == "No row holds Dana Park (30 rows shown)"
    assert obs.list_items[table.id] == [] and obs.list_scans[table.id].by_rule
    assert not any(p in ("list_item_selection", "detail_extraction") and "Ann Lee" in text for p, text in lexical.prompts())


def test_a_value_of_another_shape_or_a_held_code_is_not_said_absent():
    from companion.observe.rows import absent
    rows = [["SO-1050", "Nico Romano", "631.95"], ["SO-1049", "Ann Lee", "24.50"], ["SO-1048", "Bo Chen", "8.00"]]
    assert absent("Who placed order SO-1010?", rows) == [("SO-1010", ["SO-1050", "SO-1049", "SO-1048"])]
    assert absent("Who placed order SO-1049?", rows) == []
    assert absent("Which customer has the SKU KT-22?", rows) == []  # no row holds a code of that shape


@pytest.mark.whole_pages
async def test_a_filter_panel_of_groups_is_shown_whole_without_an_item_selection_call(lexical):
    groups = "".join(f"<details open><summary>By {g}</summary><ul>" + "".join(
        f"<li><a href='/orders/?{g}={c}'>{c}</a></li>" for c in ("All", "Open", "Closed", "Archived")) + "</ul></details>"
        for g in ("status", "method", "tag", "date"))
    html = PAGE.replace("<h1>Orders</h1>", f"<h1>Orders</h1><nav aria-label='Filter'>{groups}</nav>")
    pm = divide_page(snapshot_from_html(html, url="http://127.0.0.1/orders/", title="Orders"))
    panel = next(s for s in pm.sections if s.kind == "list" and len(s.items) == 4)
    obs = await PageObserver(client=lexical.client).observe("Show the archived orders by date", "", pm)

    assert panel.id in obs.selected and obs.list_scans[panel.id].whole
    assert obs.list_items[panel.id] == [it.id for it in panel.items]
    assert not any("By method" in user for prompt, user in lexical.prompts() if prompt == "list_item_selection")


async def test_the_item_selection_call_reads_a_tables_rows_as_their_values(lexical):
    _, table, obs = await observe(lexical, "Which orders have an email address at example.com?")  # names no row
    asked = [user for prompt, user in lexical.prompts() if prompt == "list_item_selection"]
    assert asked and "110 | Bo Chen | bo.chen@example.com | Pending | $21.50" in asked[0]
    assert "cell:" not in asked[0] and "row |" not in asked[0]


@pytest.mark.whole_pages
async def test_the_rows_the_item_selection_picked_are_the_tables_extraction_with_their_headers(lexical):
    _, table, obs = await observe(lexical, "Which orders are pending?")  # names no row: the model picks
    picked = obs.list_items[table.id]
    assert picked and len(picked) < len(table.items)
    lines = obs.extractions[table.id].splitlines()
    assert lines[0] == f"Rows relevant to the task ({len(picked)} of 30):" if len(picked) > 1 else lines[0].startswith("Row ")
    assert all(" | Status: " in line and line.startswith("- row ") for line in lines[1:])
    assert not any("Number" in user for prompt, user in lexical.prompts() if prompt == "detail_extraction")


def test_one_capitalised_word_inside_the_task_names_rows_the_first_word_does_not():
    assert identifiers("What is the price of the Turntable?") == ["Turntable"]
    assert identifiers("Turntable price?") == [] and identifiers("Show the 5 latest orders") == []
    rows = [["Turntable", "249.00"], ["French Press", "39.00"], ["Kettle", "25.00"]]
    assert matching("What is the price of the Turntable?", rows) == [0]


def test_the_rows_a_task_names_in_a_table_inside_a_form_are_found_by_rule():
    # A list's bulk-action form around its table, not divided into items: a mixed section (the held-out admin's
    # product list). The named rows are still data; with none named, the extraction call reads the section.
    from companion.observe.observer import _rows_as_data
    from companion.pagemem.model import PageSection

    rows = "".join(f"    - row\n      - cell\n        - [{n}] checkbox \"Select {name}\"\n      - columnheader\n"
                   f"        - [{n + 1}] link \"{name}\"\n      - cell: {price}\n"
                   for n, (name, price) in zip(range(10, 40, 2), [("Turntable", "249.00"), ("Kettle", "25.00"), ("Desk Lamp", "39.90")]))
    details = ("- form\n  - text: Action:\n    - [1] combobox \"Action:\" value=\"---------\"\n  - [2] button \"Run the selected action\"\n"
               "  - text: 0 of 3 selected\n  - table\n    - row\n      - columnheader\n        - [3] checkbox \"Select all\"\n"
               "      - columnheader\n        - [4] link \"Name\"\n      - columnheader\n        - [5] link \"Price\"\n" + rows)
    section = PageSection(id="s2", kind="normal", roots=[], tag="div", details=details)
    assert _rows_as_data("What is the price of the Turntable?", section) == (
        "Row matching the task (1 of 3):\n- row 1: Name: Turntable | Price: 249.00")
    # A superlative is read by rule too (observe/ranked.py); a question naming no row and asking no extreme is not.
    assert _rows_as_data("Which product is the cheapest?", section) == (
        "Lowest Price (of the 3 rows shown):\n- row 2: Name: Kettle | Price: 25.00")
    assert _rows_as_data("Which products are lamps?", section) is None
    assert _rows_as_data("Who bought order #150?", section) is None  # no absent-code note for a mixed section


async def test_the_observation_says_when_a_row_the_task_names_is_in_it(lexical):
    assert (await observe(lexical, "What is the status of order 110?"))[2].named_rows
    assert not (await observe(lexical, "How many orders are pending?"))[2].named_rows


def _form_around_a_table(names: list[str]) -> PageSection:
    # A list's bulk-action form around its table: a mixed section, not divided into items.
    rows = "".join(f"    - row\n      - columnheader\n        - [{n}] link \"{name}\"\n      - cell: {n}.50\n"
                   for n, name in zip(range(10, 40), names))
    details = ("- form\n  - [1] combobox \"Action:\" value=\"---------\"\n  - [2] button \"Run the selected action\"\n"
               "  - table\n    - row\n      - columnheader: Name\n      - columnheader: Price\n" + rows)
    return PageSection(id="s2", kind="normal", roots=[], tag="div", details=details)


def test_a_question_about_a_thing_the_table_shows_nowhere_is_answered_by_rule():
    from companion.observe.observer import _rows_as_data

    section = _form_around_a_table(["Kettle", "Desk Lamp", "French Press", "Soundbar"])
    assert _rows_as_data("What is the price of the Metronome?", section) == "No row holds Metronome (4 rows shown)"
    assert _rows_as_data("What is the price of the Kettles?", section) is None  # a plural of a row's name is there


def test_an_errand_or_a_count_about_a_thing_the_table_does_not_show_is_left_to_the_extraction():
    from companion.observe.observer import _rows_as_data

    section = _form_around_a_table(["Kettle", "Desk Lamp", "French Press", "Soundbar"])
    assert _rows_as_data("Buy the Metronome.", section) is None  # an errand: a row not named may be the one
    assert _rows_as_data("How many Metronomes are in stock?", section) is None  # a narrowed list holds the count
    assert _rows_as_data("What is the price of the Metronome?", _form_around_a_table(["Kettle", "Soundbar"])) is None


def test_a_single_capitalised_word_inside_a_sentence_is_a_name_and_a_code_is_no_part_of_one():
    assert values_of_task("Log in first. What is the stock of the product with SKU SKU-142?") == [Value("number", "SKU-142")]
    assert values_of_task("Select Leonanie from the list and click Submit.", one_word=True) == [
        Value("name", "Leonanie"), Value("name", "Submit")]
    assert values_of_task("Find Ann Lee's phone", one_word=True) == [Value("name", "Ann Lee")]
    # The grounding checks take names of two words or more: "Blue" of "the Blue kettle" anchors no price.
    assert values_of_task("What is the price of the Blue kettle?") == []


@pytest.mark.whole_pages  # the product's default bounds: a short extraction is the observation itself
async def test_a_named_row_short_enough_is_the_observation_with_no_task_summary_call(lexical):
    page = f"<html><body><table><thead>{HEAD}</thead><tbody>{BODY}</tbody></table></body></html>"
    pm = divide_page(snapshot_from_html(page, url="http://127.0.0.1/orders/", title="Orders"))
    obs = await PageObserver(client=lexical.client).observe("Who placed order #117?", "", pm)

    assert not obs.whole and not obs.small  # the pipeline's path, not a page shown whole
    assert "Number: 117 | Customer: Cy Diaz | Email: cy@example.com" in obs.summary and "\n" not in obs.summary
    assert [p for p, _ in lexical.prompts() if p == "page_task_summary"] == []


def test_an_answer_whose_values_are_outside_the_named_row_is_said_so():
    from companion.observe.rows import off_named_row

    pm = divide_page(snapshot_from_html(PAGE, url="http://127.0.0.1/orders/", title="Orders"))
    task = "What is the total quantity of items in order #110?"
    assert off_named_row(task, pm.sections, "Order 110 has 1 item.") == (["1"], "110")
    assert off_named_row("What is the total of order #110?", pm.sections, "It is $21.50.") is None  # in the row
    assert off_named_row(task, pm.sections, "Bo Chen") is None  # no value a row could hold: not judged
    assert off_named_row("What is the total of order #999?", pm.sections, "5") is None  # no row named in sight


async def test_the_names_a_named_row_holds_under_a_column_the_task_speaks_of_are_kept_to_search_for(lexical):
    # "the customer who placed order #110": the row's customer joins the task to the customer list.
    _, _, obs = await observe(lexical, "What is the phone number of the customer who placed order #110?")
    assert obs.related == ["Bo Chen"]
    _, _, obs = await observe(lexical, "What is the status of order #110?")
    assert obs.related == []  # a status is no name to search for
