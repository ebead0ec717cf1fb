"""How long an open modal stays the only section (CheckModal within a page), on hand-built snapshots of one
document changing (no browser): view_all shows the whole page even with a modal open; a modal a step left as
it was lets the page back in; one that changes (a value typed into it) stays the focus."""

from __future__ import annotations

from companion.observe import PageObserver
from companion.pagemem.divide import divide_page
from companion.pagemem.update import update_page_mem
from tests.support.htmlsnap import ids_of, snapshot_from_html

PAGE = """<html><body><nav><a href="/">Home</a> <a href="/kettles">Kettles</a></nav>
<main><h1>Blue kettle</h1><p>Price: $24.50. In stock.</p><button id="add">Add to basket</button></main>
<div id="dlg" role="dialog" aria-modal="true" data-modal aria-label="Sign up"><p>Get our news letter</p>
<input id="mail" aria-label="Email" {value}> <button id="no">No thanks</button></div></body></html>"""
TASK = "What is the price of the Blue kettle?"


def _page(value: str = ""):
    return snapshot_from_html(PAGE.format(value=f'value="{value}"' if value else ""), title="Kettle")


async def test_view_all_shows_the_whole_page_while_a_modal_is_open(lexical):
    pm = divide_page(_page())
    observer = PageObserver(client=lexical.client)
    assert (await observer.observe(TASK, "", pm)).modal
    observer.view_all()
    obs = await observer.observe(TASK, "", pm)
    assert not obs.modal and obs.view_all
    assert obs.selected == [s.id for s in pm.sections] and obs.unselected == []
    assert "$24.50" in obs.summary  # what the actor reads


async def test_a_modal_a_step_left_as_it_was_lets_the_page_back_in_and_one_that_changed_does_not(lexical):
    before = _page()
    pm = divide_page(before)
    observer = PageObserver(client=lexical.client)
    assert (await observer.observe(TASK, "", pm)).modal
    # A value typed into the dialog: it is being worked on, it stays the focus.
    update = update_page_mem(pm, snapshot_from_html(PAGE.format(value='value="a@b.c"'), title="Kettle", ids=ids_of(before)))
    obs = await observer.observe(TASK, "Step 1 typed a@b.c", pm, update)
    assert obs.modal and obs.selected == [pm.modal().id]
    # "No thanks" changed nothing: the page behind the dialog is read again, the dialog one section among them.
    update = update_page_mem(pm, snapshot_from_html(PAGE.format(value='value="a@b.c"'), title="Kettle", ids=ids_of(before)))
    obs = await observer.observe(TASK, "Step 2 clicked No thanks", pm, update)
    assert not obs.modal and pm.modal() is not None
    assert len(obs.selected) + len(obs.unselected) == len(pm.sections) and len(pm.sections) > 1
    assert "$24.50" in obs.summary  # what the actor reads
