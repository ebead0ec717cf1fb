"""CheckModal believes the page, not aria-modal: a dialog is modal when the page behind it is really inert (the
browser's :modal, `inert` around it, a full-viewport overlay); otherwise it is an ordinary section and the page
stays in view (real Chromium, real extension, fixture page pm_dialogs.html)."""

from __future__ import annotations

import pytest

from benchmarks.divide_check import division_problems
from companion.pagemem.divide import divide_page
from tests.support.pagemem_served import section_with

pytestmark = pytest.mark.browser


@pytest.mark.parametrize(("variant", "modal"), [
    ("overlay", True), ("showmodal", True), ("inert", True),  # nothing behind the dialog can be used
    ("claim", False), ("show", False),  # aria-modal="true" or an open <dialog>, the page still usable
])
def test_a_dialog_is_modal_only_when_the_page_behind_it_is_inert(browser, open_page, variant, modal):
    open_page("pm_dialogs.html", query=f"v={variant}")
    snapshot = browser.run(browser.session.snapshot())
    pm = divide_page(snapshot)
    assert division_problems(snapshot, pm) == []
    dialog = section_with(pm, "Reject cookies")
    assert {e.name for e in dialog.all_elements()} == {"Accept cookies", "Reject cookies"}  # one section either way
    assert (dialog.kind == "modal") is modal
    assert (pm.modal() is not None) is modal
    assert section_with(pm, "Add to basket") is not dialog
