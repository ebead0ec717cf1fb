"""Which of the elements a click revealed are offered to pick (act/dropdown.py): a send under an empty message box is
not, and nothing is asked when the task quotes a name that none of them bears. Pure functions over elements divided
by the real PageMem pipeline from HTML (tests/support/htmlsnap.py); the tab case runs in Chromium in
test_refused_once.py."""

from __future__ import annotations

from companion.act.dropdown import quoted_elsewhere, sends_empty
from companion.pagemem.divide import divide_page
from tests.support.htmlsnap import snapshot_from_html


def revealed(body: str):
    return list(divide_page(snapshot_from_html(f"<html><body>{body}</body></html>")).all_elements())


def test_a_send_under_an_empty_message_box_is_not_offered():
    els = revealed('<textarea aria-label="Message"></textarea><button>Send</button>')
    send = next(e for e in els if e.name == "Send")
    assert sends_empty(send, els, set())


def test_a_send_under_a_filled_message_box_is_offered():
    els = revealed('<textarea aria-label="Message">See you at noon.</textarea><button>Send</button>')
    send = next(e for e in els if e.name == "Send")
    assert not sends_empty(send, els, set())


def test_nothing_is_picked_when_no_revealed_element_bears_the_quoted_name():
    els = revealed('<a href="#a">posuere</a><a href="#b">commodo</a>')
    assert quoted_elsewhere('Switch between the tabs to find and click on the link "Dui".', els)
    assert not quoted_elsewhere('Open the menu and click "commodo".', els)
    assert not quoted_elsewhere("Open the menu and click commodo.", els)  # nothing quoted: the model picks
