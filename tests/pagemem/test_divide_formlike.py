"""A form built without a <form> tag becomes a form section (real Chromium, real extension, fixture page
pm_divform.html); a search box, a newsletter box and a product grid do not."""

from __future__ import annotations

import pytest

from benchmarks.divide_check import division_problems
from tests.support.pagemem_served import divided as divided_page, section_with

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def divided(browser, pages):
    return divided_page(browser, pages, "pm_divform.html")


def test_the_division_satisfies_the_invariants(divided):
    snapshot, pm = divided
    assert division_problems(snapshot, pm) == []


def test_a_sign_in_box_of_divs_is_a_form_section_of_its_own(divided):
    snapshot, pm = divided
    form = section_with(pm, "Username")
    assert form.kind == "form" and form.form is not None
    box = next(e for f in snapshot.frames for e in f.elements if e.attrs.get("id") == "signin")
    assert (form.form.frame, form.form.id) == (0, box.id)  # the box is the form, not the page around it
    names = [e.name for e in form.all_elements()]
    assert {"Username", "Password", "Keep me signed in", "Sign in", "Forgot password?"} <= set(names)
    assert "Your account" not in form.details  # the heading and prose around the box stay outside it


def test_a_search_box_a_newsletter_box_and_a_product_grid_are_not_forms(divided):
    _, pm = divided
    for name in ("Search the shop", "Email", "Kettle"):
        section = section_with(pm, name)
        assert section.kind != "form" and section.form is None, (name, section.kind)
    assert section_with(pm, "Kettle").kind == "list"
    assert sum(1 for s in pm.sections if s.form is not None) == 2  # the sign-in box and the dialog


def test_a_dialog_holding_a_sign_up_box_is_a_modal_section_with_that_form(divided):
    snapshot, pm = divided
    dialog = section_with(pm, "Create account")
    assert dialog.kind == "modal" and dialog.form is not None
    box = next(e for f in snapshot.frames for e in f.elements if "signup" in e.attrs.get("class", ""))
    assert dialog.form.id == box.id


def test_the_agent_routes_a_field_of_the_div_form_to_submit_form(divided, browser, tmp_path):
    from companion.act.context import AgentContext
    from companion.act.elements import is_search_form
    from companion.act.routing import form_section_for

    snapshot, pm = divided
    ctx = AgentContext(session=browser.session, task="sign in", files_dir=tmp_path, pagemem=pm)
    user = next(e for e in pm.all_elements() if e.name == "Username")
    found = form_section_for(ctx, user, pm.section_of(user.ref))
    assert found is not None and found[0].kind == "form" and not is_search_form(found[0])
    search = next(e for e in pm.all_elements() if e.name == "Search the shop")
    assert form_section_for(ctx, search, pm.section_of(search.ref)) is None  # the search workflow's, not a form
