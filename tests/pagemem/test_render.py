"""The details string and the one-line element form."""

from __future__ import annotations

from companion.pagemem.divide import divide_page
from tests.support.htmlsnap import snapshot_from_html


def divide(body: str):
    return divide_page(snapshot_from_html(f"<html><body>{body}</body></html>"))


def test_element_line_has_index_role_and_name():
    pm = divide('<button>Add to cart</button>')
    (el,) = list(pm.all_elements())
    assert el.line() == f'[{el.index}] button "Add to cart"'


def test_states_and_values_are_rendered():
    pm = divide('<form><input type="checkbox" checked aria-label="Gift"><input name="q" value="boots" aria-label="Search">'
                '<button aria-expanded="false" disabled>More</button></form>')
    lines = [e.line() for e in pm.all_elements()]
    assert lines[0].endswith('checkbox "Gift" [checked]')
    assert 'textbox "Search" value="boots"' in lines[1]
    assert "[disabled]" in lines[2] and "[collapsed]" in lines[2]


def test_a_long_value_shows_its_start_and_its_end():
    words = " ".join(f"word{i}" for i in range(60))
    (area,) = divide(f'<textarea aria-label="Notes">{words}</textarea>').all_elements()
    line = area.line()
    assert 'value="word0 word1 ' in line and ' word58 word59"' in line and " … " in line
    assert "word30" not in line  # the middle is what is left out


def test_password_value_is_never_rendered_even_if_present():
    snap = snapshot_from_html('<html><body><form><input type="password" aria-label="Password"></form></body></html>')
    pw = next(e for e in snap.frames[0].elements if e.attrs.get("type") == "password")
    pw.value = "hunter2"  # a buggy snapshot must still not leak it
    pm = divide_page(snap)
    assert "hunter2" not in pm.sections[0].details
    assert all("hunter2" not in e.line() for e in pm.all_elements())


def test_outline_nests_structure_and_flattens_generic_wrappers():
    pm = divide('<nav aria-label="Main"><div><span><a href="/">Home</a></span></div></nav><h2>Deals</h2>')
    details = "\n".join(s.details for s in pm.sections)
    assert '- navigation "Main"\n  - [1] link "Home"' in details
    assert '- heading "Deals" [level=2]' in details


def test_select_shows_value_and_options():
    pm = divide('<select aria-label="Size"><option>S</option><option selected>M</option><option>L</option></select>')
    (el,) = list(pm.all_elements())
    assert el.line().endswith('combobox "Size" value="M" options: S | M | L')


def test_fingerprint_ignores_indices_and_typed_text_but_not_content():
    from companion.pagemem.render import content_fingerprint

    a = '- [3] link "Home"\n- [4] textbox "Search" value="red shoes"\n- [5] combobox "Size" value="M"'
    b = '- [17] link "Home"\n- [18] textbox "Search" value="blue boots"\n- [19] combobox "Size" value="M"'
    c = '- [17] link "Home"\n- [18] textbox "Search"\n- [19] combobox "Size" value="L"'
    assert content_fingerprint(a) == content_fingerprint(b)
    assert content_fingerprint(b) != content_fingerprint(c)
