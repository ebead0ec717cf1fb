"""DividePage on hand-built snapshots (tests/support/htmlsnap.py): its rules, one per test."""

from __future__ import annotations

from collections import Counter

from companion.pagemem.divide import DivideOptions, divide_page
from tests.support.htmlsnap import snapshot_from_html


def page(body: str) -> str:
    # Enough filler that the page is not one small section as a whole.
    filler = "".join(f"<p>Paragraph {i} with a little text about shoes and laces.</p>" for i in range(12))
    return f"<html><body><div class='wrap'>{body}<div class='filler'>{filler}</div></div></body></html>"


def kinds(pm):
    return [s.kind for s in pm.sections]


def test_grid_of_repeated_cards_is_one_list_with_an_item_per_card():
    cards = "".join(f'<div class="card"><a href="/p/{i}">Shoe {i}</a><button>Add</button></div>' for i in range(6))
    pm = divide_page(snapshot_from_html(page(f'<div class="grid">{cards}</div>')))
    lists = [s for s in pm.sections if s.kind == "list"]
    assert len(lists) == 1
    assert [i.kind for i in lists[0].items] == ["list_item"] * 6
    assert [e.name for e in lists[0].items[2].elements] == ["Shoe 2", "Add"]


def test_three_repeated_siblings_are_not_a_list():
    cards = "".join(f'<div class="card"><a href="/p/{i}">Shoe {i}</a></div>' for i in range(3))
    pm = divide_page(snapshot_from_html(page(f'<div class="grid">{cards}</div>')))
    assert "list" not in kinds(pm)


def test_table_rows_become_items_and_header_stays_in_the_list_section():
    rows = "".join(f'<tr class="r"><td><a href="/o/{i}">Order {i}</a></td><td>{i}.00</td></tr>' for i in range(5))
    html = page(f'<table><thead><tr><th><a href="?sort=name">Name</a></th><th>Total</th></tr></thead><tbody>{rows}</tbody></table>')
    pm = divide_page(snapshot_from_html(html))
    (table,) = [s for s in pm.sections if s.kind == "list"]
    assert table.tag == "table" and len(table.items) == 5
    assert [e.name for e in table.elements] == ["Name"]
    assert "item 5:" in table.details and "Order 4" in table.details


def test_form_is_a_form_section():
    html = page('<form><label for="q">Query</label><input id="q" name="q"><button type="submit">Search</button></form>')
    pm = divide_page(snapshot_from_html(html))
    (form,) = [s for s in pm.sections if s.kind == "form"]
    assert [e.role for e in form.elements] == ["textbox", "button"]
    assert form.elements[0].name == "Query"


def test_modal_is_its_own_section_even_inside_other_content():
    html = page('<div class="main"><p>text</p><div role="dialog" aria-modal="true" data-modal><p>Accept?</p><button>OK</button></div></div>')
    pm = divide_page(snapshot_from_html(html))
    modal = pm.modal()
    assert modal is not None and [e.name for e in modal.elements] == ["OK"]


def test_hidden_subtrees_are_dropped_with_their_elements():
    html = page('<nav><a href="/a">A</a><div style="display:none"><a href="/secret">Secret</a></div></nav>')
    pm = divide_page(snapshot_from_html(html))
    names = [e.name for e in pm.all_elements()]
    assert "A" in names and "Secret" not in names


def test_every_interactive_element_is_in_exactly_one_section():
    cards = "".join(f'<li class="c"><a href="/p/{i}">P{i}</a></li>' for i in range(7))
    html = page(f'<header><a href="/">Home</a></header><ul>{cards}</ul><form><input name="x"><button>Go</button></form>'
                f'<footer><a href="/about">About</a></footer>')
    snap = snapshot_from_html(html)
    pm = divide_page(snap)
    seen = Counter(e.key for e in pm.all_elements())
    expected = {(0, el.id) for el in snap.frames[0].elements if el.interactive and el.visible}
    assert set(seen) == expected and max(seen.values()) == 1


def test_normal_sections_stay_within_the_token_bound():
    body = "".join(f"<div class='block{i}'>" + "".join(f"<p>Sentence {j} of block {i} is about nothing much at all.</p>" for j in range(30)) + "</div>" for i in range(6))
    options = DivideOptions(max_tokens=300)
    pm = divide_page(snapshot_from_html(page(body)), options)
    normal = [s for s in pm.sections if s.kind in ("normal", "form")]
    assert len(normal) > 3
    assert max(s.tokens for s in normal) <= 300


def test_division_is_deterministic():
    cards = "".join(f'<div class="card"><a href="/p/{i}">Shoe {i}</a></div>' for i in range(9))
    snap = snapshot_from_html(page(f'<nav><a href="/">Home</a></nav><div class="grid">{cards}</div>'))
    a, b = divide_page(snap), divide_page(snap)
    assert a.model_dump() == b.model_dump()


def test_iframe_content_belongs_to_the_iframe_section():
    from companion.protocol import Box, FrameSnapshot, SnapshotElement

    snap = snapshot_from_html(page('<div class="embed"><iframe id="f"></iframe></div>'))
    top = snap.frames[0]
    iframe = next(e for e in top.elements if e.tag == "iframe")
    iframe.child_frame = 7
    iframe.box = Box(x=0, y=0, w=600, h=300)
    iframe.visible = True
    child = FrameSnapshot(frame=7, parent_frame=0, url="http://127.0.0.1/child", elements=[
        SnapshotElement(id=1, tag="html", box=Box(x=0, y=0, w=600, h=300), visible=True),
        SnapshotElement(id=2, parent=1, tag="button", text="Inside", box=Box(x=5, y=5, w=80, h=20), visible=True, interactive=True),
    ])
    snap.frames.append(child)
    pm = divide_page(snap)
    el = next(e for e in pm.all_elements() if e.name == "Inside")
    assert el.ref.frame == 7
    section = pm.section_of(el.ref)
    assert any(r.id == iframe.id or r.frame == 0 for r in section.roots)


def test_division_is_identical_across_processes_with_different_hash_seeds(tmp_path):
    import os
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    cards = "".join(f'<div class="card c{i % 2}"><a href="/p/{i}">Shoe {i}</a></div>' for i in range(9))
    snap = snapshot_from_html(page(f'<nav><a href="/">Home</a></nav><div class="grid">{cards}</div>'))
    path = tmp_path / "snap.json"
    path.write_text(snap.model_dump_json())
    code = ("import sys; from companion.protocol import Snapshot; from companion.pagemem.divide import divide_page; "
            "print(divide_page(Snapshot.model_validate_json(open(sys.argv[1]).read())).model_dump_json())")
    outs = [subprocess.run([sys.executable, "-c", code, str(path)], cwd=root, capture_output=True, text=True, check=True,
                           env={**os.environ, "PYTHONHASHSEED": seed, "PYTHONPATH": str(root)}).stdout
            for seed in ("1", "2")]
    assert outs[0] == outs[1] and '"sections"' in outs[0]
