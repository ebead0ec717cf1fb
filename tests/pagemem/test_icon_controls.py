"""Controls a person knows by sight are named by what they show, and controls inside one clickable container
stay controls of their own (real Chromium, real extension, fixture pages pm_icon_toolbar.html and
pm_control_bar.html)."""

from __future__ import annotations

import pytest

from benchmarks.divide_check import division_problems
from tests.support.pagemem_served import divided

pytestmark = pytest.mark.browser


def _by_id(pm):
    return {e.attrs["id"]: e for e in pm.all_elements() if e.attrs.get("id")}


def test_glyph_buttons_are_named_by_their_glyph_and_its_meaning(browser, pages):
    snapshot, pm = divided(browser, pages, "pm_icon_toolbar.html")
    assert division_problems(snapshot, pm) == []
    named = {i: e.name for i, e in _by_id(pm).items()}
    assert named["menu"] == "☰ (menu)" and named["more"] == "⋮ (more)" and named["edit"] == "✎ (edit)"
    assert named["send"] == "Send"  # a name with words is left as it was


def test_the_dialog_close_glyph_reads_as_close_in_the_rendered_line(browser, pages):
    _, pm = divided(browser, pages, "pm_icon_toolbar.html")
    dialog = next(s for s in pm.sections if "Newsletter" in s.details)
    close = _by_id(pm)["close"]
    assert f'[{close.index}] button "× (close)"' in dialog.details
    assert close.line() == f'[{close.index}] button "× (close)"'


def test_icon_buttons_are_named_by_their_icon_class_file_or_inner_title(browser, pages):
    _, pm = divided(browser, pages, "pm_icon_toolbar.html")
    by_id = _by_id(pm)
    named = {i: e.name for i, e in by_id.items()}
    assert named["reply"] == "reply"            # <i class="fa fa-reply">
    assert named["star"] == "star"              # <span class="glyphicon glyphicon-star">
    assert named["forward"] == "forward"        # <a class="icon-forward">
    assert named["trash"] == "trash can"        # <img src="icons/trash-can.svg"> without alt
    assert named["archive"] == "Archive"        # the icon's own title
    assert named["download"] == "Download"      # the svg's <title>
    assert "img=trash-can.svg" in by_id["trash"].line()  # the picture it had as a hint is still shown


def test_controls_drawing_their_icon_by_style_are_named_by_its_file(browser, pages):
    _, pm = divided(browser, pages, "pm_icon_toolbar.html")
    named = {i: e.name for i, e in _by_id(pm).items()}
    assert named["bin"] == "recycle bin"        # background-image: url(icons/recycle-bin.png)
    assert named["back"] == "left arrow"        # content: url(icons/left-arrow-white.png)
    # Drawn by an element inside, beside a closed menu whose entries (no box) are no text of the control.
    assert named["postmenu"] == "more"


def _named(pm, name):
    found = [e for e in pm.all_elements() if e.name == name]
    assert len(found) == 1, (name, [e.line() for e in pm.all_elements()])
    return found[0]


def _fired(browser):
    snapshot = browser.run(browser.session.snapshot())
    log = next(e for e in snapshot.frames[0].elements if e.attrs.get("id") == "log")
    return log.text or ""


def test_icon_pieces_of_a_clickable_bar_are_two_controls_and_the_bar_none(browser, pages):
    _, pm = divided(browser, pages, "pm_control_bar.html")
    names = [e.name for e in pm.all_elements()]
    assert "Reply Forward" not in names
    for name, fired in (("Reply", "bar reply;"), ("Forward", "bar forward;")):
        _, pm = divided(browser, pages, "pm_control_bar.html")
        assert browser.run(browser.session.click(_named(pm, name).ref)).ok
        assert _fired(browser) == fired


def test_a_clickable_card_keeps_its_own_name_and_its_two_icon_buttons_are_reached(browser, pages):
    _, pm = divided(browser, pages, "pm_control_bar.html")
    _named(pm, "Quarterly report")  # the card is named by its own text, not its buttons
    for name, fired in (("reply", "reply;"), ("share", "forward;")):
        _, pm = divided(browser, pages, "pm_control_bar.html")
        assert browser.run(browser.session.click(_named(pm, name).ref)).ok
        assert _fired(browser) == fired


def test_a_button_that_only_wraps_two_buttons_is_no_element_of_its_own(browser, pages):
    _, pm = divided(browser, pages, "pm_control_bar.html")
    names = [e.name for e in pm.all_elements()]
    assert "Accept Decline" not in names
    assert names.count("Accept") == 1 and names.count("Decline") == 1


def test_a_closed_menu_inside_an_icon_button_does_not_name_it(browser, pages):
    _, pm = divided(browser, pages, "pm_icon_toolbar.html")
    assert _by_id(pm)["options"].name == "☰ (menu)"
