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


@pytest.mark.whole_pages  # the product's default bounds: a short extraction is the observation itself
async def test_a_named_row_short_enough_is_the_observation_with_no_task_summary_call(lexical):
    page = f"<html><body><table><thead>{HEAD}</thead><tbody>{BODY}</tbody></table></body></html>"
    pm = divide_page(snapshot_from_html(page, url="http://127.0.0.1/orders/", title="Orders"))
    obs = await PageObserver(client=lexical.client).observe("Who placed order #117?", "", pm)

    assert not obs.whole and not obs.small  # the pipeline's path, not a page shown whole
    assert "Number: 117 | Customer: Cy Diaz | Email: cy@example.com" in obs.summary and "\n" not in obs.summary
    assert [p for p, _ in lexical.prompts() if p == "page_task_summary"] == []
