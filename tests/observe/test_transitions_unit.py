"""PageDigest transitions on hand-built snapshots of one document changing (no browser), and errors."""

from __future__ import annotations

from companion.memory.store import WebsiteMemStore
from companion.observe import PageObserver
from companion.pagemem.divide import divide_page
from companion.pagemem.update import update_page_mem
from tests.support.observation_scripts import observation_rules
from tests.support.htmlsnap import ids_of, snapshot_from_html

PAGE = """<html><body><nav><a href="/">Home</a> <a href="/plans">Plans</a> <button id="del">Delete account</button></nav>
<main><h1>Your account</h1><p>Plan: Basic, renews on 1 May. Storage used: 3 of 10 GB.</p></main>
<div id="dlg" role="dialog" aria-modal="true" data-modal aria-label="Confirm" {hidden}><p>Delete your account and all files?</p>
<button id="yes">Yes, delete</button> <button id="no">Cancel</button></div></body></html>"""


async def test_a_dialog_opening_within_the_page_becomes_the_only_section_read_in_full(lexical):
    before = snapshot_from_html(PAGE.format(hidden="hidden"), title="Account")
    pm = divide_page(before)
    observer = PageObserver(client=lexical.client)
    first = await observer.observe("Delete my account", "", pm)
    assert not first.modal and first.new_page

    after = snapshot_from_html(PAGE.format(hidden=""), title="Account", ids=ids_of(before))
    update = update_page_mem(pm, after)
    mark = len(lexical.server.requests)
    obs = await observer.observe("Delete my account", "Step 1 clicked Delete account", pm, update)
    # This small page is one section, so the dialog's elements joined it: the block that appeared is the focus.
    host = pm.section_of(next(e for e in pm.all_elements() if e.name == "Yes, delete").ref)
    assert obs.modal and obs.selected == [host.id] and not obs.new_page
    prompts = [name for name, _ in lexical.prompts(mark)]
    assert "section_selection" not in prompts and "section_summary" not in prompts
    extraction = next(user for name, user in lexical.prompts(mark) if name == "detail_extraction")
    assert "Section: Dialog that opened on the page" in extraction
    assert 'button "Yes, delete"' in extraction and "Storage used" not in extraction
    assert obs.added_group is None


async def test_garbage_selection_output_selects_every_section_and_summaries_made_before_it_are_kept(
        scripted_llm, llm_client_for, tmp_path):
    pm = divide_page(snapshot_from_html(PAGE.format(hidden="hidden"), title="Account"))
    rules = [r for r in observation_rules() if r["prompt"] != "section_selection"]
    rules.append({"prompt": "section_selection", "responses": ["I think the second section looks best."]})
    server = scripted_llm(rules=rules)
    with WebsiteMemStore("garbage", directory=tmp_path) as store:
        obs = await PageObserver(store, client=llm_client_for(server)).observe("Delete my account", "", pm)
        assert obs.selected == [s.id for s in pm.sections]  # the stand-in of a selection with no valid answer
        assert [c.prompt for c in obs.usage.calls if c.fallback] == ["section_selection"]
        summarized = [s for s in pm.sections if s.summary and s.tokens > 24]
        assert summarized and all(store.cached_summary(s.content_hash) for s in summarized)


def test_images_of_at_least_50px_are_described_from_alt_text_and_file_name():
    from companion.observe.extraction import with_images

    details = '- heading "Kettles" [level=1]\n- img "Red kettle" src=http://127.0.0.1/img/red-kettle_2000w.jpg\n- img src=/i/steel_toaster-01.png'
    out = with_images(details)
    assert out.startswith(details) and "Images:" in out
    assert '"Red kettle"; file name: red kettle 2000w' in out and "file name: steel toaster" in out


async def test_a_new_pagemem_or_url_is_a_page_entry_and_a_fragment_change_is_not(lexical):
    observer = PageObserver(client=lexical.client)
    pm = divide_page(snapshot_from_html(PAGE.format(hidden="hidden"), url="http://127.0.0.1/account", title="Account"))
    assert (await observer.observe("Delete my account", "", pm)).new_page
    pm.url = "http://127.0.0.1/account#storage"  # an in-page anchor: the same page
    mark = len(lexical.server.requests)
    obs = await observer.observe("Delete my account", "", pm)
    assert not obs.new_page and [n for n, _ in lexical.prompts(mark)] == ["page_task_summary"]
    other = divide_page(snapshot_from_html(PAGE.format(hidden="hidden"), url="http://127.0.0.1/plans", title="Plans"))
    mark = len(lexical.server.requests)
    obs = await observer.observe("Delete my account", "", other)
    assert obs.new_page and "section_selection" in [n for n, _ in lexical.prompts(mark)]
