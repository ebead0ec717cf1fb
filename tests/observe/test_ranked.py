"""A superlative over a table is read by rule (observe/ranked.py): the row holding the largest or smallest number
in the column the task names, with its headers, and what the rows' order says of the rest of the list. Pure: pages
from tests/support/htmlsnap.py, the pipeline's calls against the lexical stand-in (the real client)."""

from __future__ import annotations

from companion.observe import PageObserver
from companion.observe.ranked import number, off_extreme, ranked_controls, ranked_rows
from companion.pagemem.divide import divide_page
from tests.support.htmlsnap import snapshot_from_html

PRODUCTS = [("Seed Kit", "$1,204.99", "51"), ("Candle", "$197.99", "28"), ("Webcam", "$190.99", "5"),
            ("Novel", "$189.99", "56"), ("Press", "$182.99", "33"), ("Soundbar", "$175.99", "10")]


def page(rows) -> str:
    body = "".join(f"<tr><th><a href='/p/{n}/'>{n}</a></th><td>{p}</td><td>{s}</td></tr>" for n, p, s in rows)
    return ("<html><body><h1>Products</h1><table><thead><tr><th>Name</th><th>Price</th><th>Stock</th></tr></thead>"
            f"<tbody>{body}</tbody></table><p>Prices include tax; stock is counted every night at the warehouse, "
            "and a product out of stock stays listed until it is discontinued.</p></body></html>")


def table(rows):
    pm = divide_page(snapshot_from_html(page(rows), url="http://127.0.0.1/p/", title="Products"))
    return pm, next(s for s in pm.sections if s.kind == "list")


def test_numbers_are_read_with_currency_and_thousands_separators():
    assert number("$1,204.99") == 1204.99 and number("12 kg") == 12 and number("-3") == -3
    assert number("Seed Kit") is None and number("SKU-142") is None


def test_the_highest_of_a_column_the_task_names_is_its_row_with_headers_and_the_sort_said():
    _, section = table(PRODUCTS)
    ranked = ranked_rows("Which product has the highest price?", section)
    assert ranked.positions == [0]
    assert ranked.text == ("Highest Price (the rows are sorted by Price, highest first: the first row is the list's "
                           "highest):\n- row 1: Name: Seed Kit | Price: $1,204.99 | Stock: 51")


def test_rows_sorted_the_other_way_say_a_later_page_may_hold_the_extreme():
    _, section = table(list(reversed(PRODUCTS)))
    ranked = ranked_rows("Which product is the most expensive?", section)  # a cost superlative ranks the prices
    assert ranked.positions == [5] and "sorted by Price, lowest first: a later page" in ranked.text


def test_unsorted_rows_give_the_extreme_of_the_rows_shown_and_the_lowest_works_too():
    _, section = table(PRODUCTS[2:] + PRODUCTS[:2])
    ranked = ranked_rows("Which product has the lowest stock?", section)
    assert ranked.positions == [0] and ranked.text.startswith("Lowest Stock (of the 6 rows shown):\n- row 1: Name: Webcam")


def test_no_superlative_or_no_named_numeric_column_ranks_nothing():
    _, section = table(PRODUCTS)
    assert ranked_rows("What is the price of the Candle?", section) is None
    assert ranked_rows("Which product has the highest rating?", section) is None  # no such column
    assert ranked_rows("Which name is the highest?", section) is None  # a column of words


async def test_the_observation_states_the_ranked_row_with_no_item_selection_or_extraction_call(lexical):
    pm, section = table(PRODUCTS)
    obs = await PageObserver(client=lexical.client).observe("Which product has the highest price?", "", pm)
    assert obs.extractions[section.id].startswith("Highest Price (the rows are sorted by Price, highest first")
    assert obs.list_scans[section.id].by_rule
    assert not [p for p, user in lexical.prompts() if p in ("list_item_selection", "detail_extraction") and "Seed" in user]


def test_a_superlative_of_time_ranks_no_column_of_numbers():
    # "the latest order's total" asks for the newest row's total, not the largest total.
    _, section = table(PRODUCTS)
    assert ranked_rows("What is the price of the latest product?", section) is None


def test_an_answer_off_the_first_row_of_a_list_sorted_as_asked_gives_that_row():
    _, section = table(PRODUCTS)
    row = off_extreme("Which product has the highest price?", [section], "The Throw Pillow, at 71.99")
    assert row is not None and "Seed Kit" in row and "1,204.99" in row, row


def test_an_answer_holding_a_cell_of_the_first_row_passes_whatever_its_currency():
    _, section = table(PRODUCTS)
    ask = "Which product has the highest price?"
    assert off_extreme(ask, [section], "Seed Kit") is None
    assert off_extreme(ask, [section], "It costs 1,204.99") is None


def test_no_row_is_held_on_a_list_sorted_the_other_way_or_not_at_all():
    ask = "Which product has the highest price?"
    _, reverse = table(list(reversed(PRODUCTS)))
    _, shuffled = table([PRODUCTS[2], PRODUCTS[0], PRODUCTS[4], PRODUCTS[1], PRODUCTS[5], PRODUCTS[3]])
    assert off_extreme(ask, [reverse], "Candle") is None and off_extreme(ask, [shuffled], "Candle") is None


# ---------------------------------------------------------------- alike controls, one per card


def test_the_longest_duration_is_read_in_hours_and_minutes_or_minutes_alone():
    cards = ["Flight 1 · 95 min Book for $300", "Flight 2 · 1 hour 50 minutes Book for $120", "Flight 3 · 2h Book for $80"]
    ranked = ranked_controls("Pick the longest flight", cards)
    assert ranked.best == [2] and ranked.values == ["95 min", "1 hour 50 minutes", "2h"] and ranked.said == "the longest duration"


def test_the_highest_number_under_the_label_the_task_names():
    ranked = ranked_controls("Open the hotel with the highest rating", ["Rating: 4.1 Reviews: 900 View", "Rating: 4.7 Reviews: 12 View"])
    assert ranked.best == [1] and ranked.values == ["4.1", "4.7"] and ranked.said == "the highest rating"


def test_no_ranking_when_a_card_holds_no_single_such_value():
    assert ranked_controls("Buy the cheapest", ["Book for $5", "Book for $6 or $7"]) is None
    assert ranked_controls("Buy the cheapest", ["Book for $5", "Book now"]) is None
    assert ranked_controls("Buy the cheapest", ["Book for $5", "Book for $5"]) is None  # nothing to tell apart
    assert ranked_controls("Buy a ticket", ["Book for $5", "Book for $6"]) is None
