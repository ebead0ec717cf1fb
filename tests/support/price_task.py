"""The suite's price task on the fixture shop (tests/fixtures/pages/agent_shop.html): what the user asks, how the
scripted model reads the answer off the kettles table, and how it gets there."""

from __future__ import annotations

import re

from tests.support.agent_llm import index_of

PRICE_TASK = "What is the price of the Blue kettle?"


def blue_price(text: str) -> str:
    # The table row as the page showed it ("cell: Blue kettle - cell: $24.50"), or as data with its headers
    # ("Name: Blue kettle | Price: $24.50", the rows the task names: observe/rows.py), or one row a line as an
    # extraction reads a table ("row: Blue kettle | $24.50": observe/outline.compact_rows).
    match = re.search(r"Blue kettle(?:\W+cell: | \| (?:\w+: )?)(\$\d+\.\d\d)", text)
    return match.group(1) if match else "not found"


def choose_kettles_then_end(text: str, labels: list[str]) -> int:
    if "agent_kettles.html" in text.split("Current page:", 1)[1].split("\n", 1)[0]:
        return index_of(labels, r"^end the task")
    return index_of(labels, r'link "Kettles"')
