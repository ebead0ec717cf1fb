"""A table's rows reach an extraction one line each (outline.compact_rows): the header once, then each row's cells
as a person reads them, in half the tokens of the outline's line per cell. Pure functions on pages from
tests/support/htmlsnap.py, and the pipeline's calls against the lexical stand-in (the real client)."""

from __future__ import annotations

from companion.observe import PageObserver
from companion.observe.outline import compact_rows
from companion.pagemem.divide import divide_page
from companion.pagemem.tokens import count_tokens
from tests.support.htmlsnap import snapshot_from_html

ROWS = [(f"SO-{1000 + i}", ["Ann Lee", "Bo Chen", "Cy Diaz"][i % 3], ["Pending", "Paid"][i % 2], f"{20 + i}.50")
        for i in range(12)]
BODY = "".join(f"<tr><td><input type=checkbox aria-label='Select {n}'></td><th><a href='/o/{n}/'>{n}</a></th>"
               f"<td>{c}</td><td>{s}</td><td>{t}</td></tr>" for n, c, s, t in ROWS)
PAGE = ("<html><body><h1>Orders</h1><form><label>Action: <select><option>---</option><option>Delete</option>"
        "</select></label><button>Go</button><table><thead><tr><th><input type=checkbox aria-label='Select all'></th>"
        "<th><a href='?o=1'>Number</a></th><th>Customer</th><th>Status</th><th>Total</th></tr></thead>"
        f"<tbody>{BODY}</tbody></table></form></body></html>")


def table_section():
    pm = divide_page(snapshot_from_html(PAGE, url="http://127.0.0.1/o/", title="Orders"))
    return pm, next(s for s in pm.sections if "table" in s.details)


def test_each_row_is_one_line_under_one_header_line_without_the_select_boxes():
    _, section = table_section()
    text = compact_rows(section.details)
    assert "    - columnheader: Number | Customer | Status | Total" in text.splitlines()
    assert "  - row: SO-1001 | Bo Chen | Paid | 21.50" in text.splitlines()
    assert "cell" not in text and "Select SO-1001" not in text
    assert '[1] combobox "Action:"' in text and '[2] button "Go"' in text  # the rest of the section as it was
    assert count_tokens(text) * 2 < count_tokens(section.details)


def test_a_row_holding_more_than_cells_and_text_without_tables_are_kept_as_they_are():
    odd = '- table\n  - row\n    - cell: Ann Lee\n    - [3] button "Edit"\n  - row\n    - cell: Bo Chen\n    - cell: 4'
    assert compact_rows(odd) == '- table\n  - row\n    - cell: Ann Lee\n    - [3] button "Edit"\n  - row: Bo Chen | 4'
    plain = '- heading "Orders" [level=1]\n- text: 12 orders'
    assert compact_rows(plain) == plain


def test_a_cell_holding_a_link_reads_as_the_link_text_and_an_empty_cell_keeps_its_column():
    text = ('- table\n  - row\n    - columnheader: Name\n    - columnheader: Ship by\n    - columnheader: Total\n'
            '  - row\n    - cell\n      - [4] link "Kite"\n    - cell\n    - cell: 9.99\n'
            '  - row\n    - cell\n      - [5] link "Plush Bear"\n    - cell: May 2\n    - cell: 12.00')
    assert compact_rows(text).splitlines()[1:] == ["  - columnheader: Name | Ship by | Total",
                                                   "  - row: Kite |  | 9.99", "  - row: Plush Bear | May 2 | 12.00"]


async def test_the_extraction_call_reads_the_table_one_row_a_line(lexical):
    pm, section = table_section()
    obs = await PageObserver(client=lexical.client).observe("How many orders are pending?", "", pm)
    assert section.id in obs.selected
    read = [user for prompt, user in lexical.prompts() if prompt == "detail_extraction" and "SO-1000" in user]
    assert read, "the table was extracted by the model"
    assert all("- row: SO-1000 | Ann Lee | Pending | 20.50" in user and "- cell:" not in user for user in read)
