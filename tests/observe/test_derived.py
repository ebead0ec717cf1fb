"""The derivation rule (companion/observe/derived.py, through grounding.py): a number no page states word for
word is let through when it is computed from numbers that were seen (a reformatting, a sum, a difference, a
product, a count of listed items), and refused otherwise, near misses included."""

from __future__ import annotations

from decimal import Decimal

from companion.observe.derived import groups_of, parse_value
from companion.observe.grounding import check_numbers, grounded_sentences

TWO_PRICES = "- text: Blue kettle $25.50\n- text: Red kettle $30.00"
TABLE = """- table "Kettles":
  - row:
    - columnheader: Kettle
    - columnheader: Price
  - row:
    - cell: Red kettle
    - cell: $19.99
  - row:
    - cell: Blue kettle
    - cell: $24.50
  - row:
    - cell: Green teapot
    - cell: $31.00"""


def _derived(claim: str, reference: str, context: str | None = None) -> list[str]:
    check = check_numbers(claim, reference, reference if context is None else context)
    assert not check.unseen, check
    return [str(d) for d in check.derived]


def _unseen(claim: str, reference: str, context: str | None = None) -> list[str]:
    return check_numbers(claim, reference, reference if context is None else context).unseen


def test_a_sum_of_two_seen_prices_is_kept_with_its_computation():
    assert _derived("Together they cost $55.50.", TWO_PRICES) == ["$55.50 = $25.50 + $30.00"]


def test_a_sum_the_sentence_shows_needs_no_context():
    assert _derived("$25.50 and $30.00 make $55.50.", TWO_PRICES, context="") == ["$55.50 = $25.50 + $30.00"]


def test_a_sum_of_three_values_from_a_small_pool():
    assert _derived("The basket totals $75.49.", TABLE) == ["$75.49 = $19.99 + $24.50 + $31.00"]


def test_a_difference_of_two_seen_prices():
    assert _derived("The Red kettle is $4.50 cheaper.", TWO_PRICES) == ["$4.50 = $30.00 − $25.50"]


def test_a_product_of_a_price_and_a_seen_quantity():
    page = "- text: Blue kettle $25.50\n- spinbutton \"Quantity\" value=\"3\""
    assert _derived("Three of them cost $76.50.", page) == ["$76.50 = $25.50 × 3"]


def test_a_percentage_of_a_seen_price():
    page = "- text: Blue kettle $30.00\n- text: 20% off this week"
    assert _derived("You save $6.00 this week.", page) == ["$6.00 = $30.00 × 20%"]


def test_the_same_value_reformatted_is_kept():
    page = "- cell: $55.50\n- cell: 1,200 visitors\n- cell: 0.25 of all orders"
    assert [d.split(" = ")[0] for d in _derived("It costs $55.5, with 1200 visitors, 25% of orders.", page)] == \
        ["$55.5", "1200", "25%"]


def test_numbers_are_parsed_as_pages_write_them():
    assert parse_value("1,200.50") == parse_value("1.200,50") == Decimal("1200.50")
    assert parse_value("3,5") == Decimal("3.5") and parse_value("1,200") == Decimal("1200")


def test_a_count_of_the_rows_the_claim_names():
    assert _derived("The shop lists 3 items.", TABLE) == ["3 items = counted: red kettle | $19.99; blue kettle | $24.50; "
                                                          "green teapot | $31.00 (3 rows)"]


def test_a_count_of_the_rows_mentioning_the_counted_noun():
    (computation,) = _derived("There are 2 kettles.", TABLE)
    assert computation.startswith("2 kettles = counted: red kettle") and "teapot" not in computation


def test_the_header_row_is_not_counted():
    assert _unseen("There are 4 rows.", TABLE) == ["4"]


def test_an_invented_price_is_refused():
    assert _unseen("The Blue kettle costs $15.", TWO_PRICES) == ["15"]


def test_a_near_miss_of_a_sum_is_refused():
    assert _unseen("Together they cost $55.55.", TWO_PRICES) == ["55.55"]
    assert _unseen("Together they cost $55.", TWO_PRICES) == ["55"]


def test_a_near_miss_of_a_reformatting_is_refused():
    assert _unseen("It costs $55.05.", "- cell: $55.50") == ["55.05"]


def test_operands_must_share_the_claims_unit():
    page = "- text: Blue kettle $25.50\n- text: 30 reviews"
    assert _unseen("Together they cost $55.50.", page) == ["55.50"]


def test_a_bare_small_integer_is_not_a_sum_of_numbers_elsewhere():
    page = "- text: Rated 4 stars\n- text: 2 reviews"
    assert _unseen("The shop has 6 branches.", page) == ["6"]


def test_a_count_needs_the_counted_items():
    assert _unseen("There are 3 teapots.", TABLE) == ["3"]
    assert _unseen("There are 5 items.", TABLE) == ["5"]


def test_the_larger_the_pool_the_fewer_operands_are_searched():
    twenty = "\n".join(f"- cell: ${p}.{p:02d}" for p in range(10, 30))  # $10.10 ... $29.29
    assert _derived("Those two cost $57.57.", twenty) == ["$57.57 = $28.28 + $29.29"]
    assert _unseen("Those three cost $84.84.", twenty) == ["84.84"]  # 27.27 + 28.28 + 29.29
    forty = "\n".join(f"- cell: ${p}.{p:02d}" for p in range(10, 50))
    assert _unseen("Those two cost $97.97.", forty) == ["97.97"]  # 48.48 + 49.49


def test_only_sentences_with_unsupported_numbers_are_dropped():
    out = grounded_sentences("The Blue kettle costs $25.50. Together they cost $55.50. The Green one costs $15.",
                             TWO_PRICES, TWO_PRICES)
    assert out.kept == "The Blue kettle costs $25.50. Together they cost $55.50."
    assert out.dropped == ["The Green one costs $15."]
    assert [str(d) for d in out.derived] == ["$55.50 = $25.50 + $30.00"]


def test_outline_groups_are_sibling_lines_of_one_role():
    (rows,) = [g for g in groups_of(TABLE) if g.role == "row"]
    assert len(rows.members) == 3 and "kettle" in rows.heading


def test_the_lines_a_total_names_give_its_operands_without_context():
    # No extraction quoted the prices: the sentence names the two kettles, whose lines hold them.
    claim = "The total price of the Blue kettle and the Red kettle together is $55.50."
    assert _derived(claim, TWO_PRICES, context="") == ["$55.50 = $25.50 + $30.00"]


def test_a_table_row_the_claim_names_gives_its_operand():
    claim = "The Red kettle and the Blue kettle cost $44.49 together."
    assert _derived(claim, TABLE, context="") == ["$44.49 = $19.99 + $24.50"]


def test_a_total_of_an_item_the_page_does_not_list_is_refused():
    # The Green kettle is not on the page: only the Red kettle's line is named, and one price sums to nothing.
    assert _unseen("The Green kettle and the Red kettle together cost $57.50.", TWO_PRICES, context="") == ["57.50"]


def test_lines_the_claim_does_not_name_give_no_operands():
    page = TWO_PRICES + "\n- text: Free delivery over $50.00\n- text: Gift card $5.50"
    assert _unseen("The delivery costs $35.50 in all.", page, context="") == ["35.50"]


def test_our_own_tallies_of_what_a_rendering_left_out_are_no_claims():
    # A table described by rule ("... and 6 more" columns, "(15 rows shown"), then what the model read.
    page = "- columnheader: Name\n- cell: Kettle\n- text: 3 inactive customers"
    summary = "Table of Name, Email and 6 more: No row holds Turntable (15 rows shown). There are 3 inactive customers."
    out = grounded_sentences(summary, page)
    assert out.dropped == [] and out.derived == [] and out.kept == summary
    assert _unseen("The table has 6 more columns.", page) == ["6"]  # the model's own words are still checked
