"""A block that wraps one <form> with its heading (the common "Contact us" section) is one form section, with
the form as its reference (real Chromium, real extension, fixture page pm_contact.html)."""

from __future__ import annotations

import pytest

from benchmarks.divide_check import division_problems
from tests.support.pagemem_served import divided as divided_page, section_with

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def divided(browser, pages):
    return divided_page(browser, pages, "pm_contact.html")


def _form_id(snapshot, dom_id: str) -> int:
    return next(e.id for f in snapshot.frames for e in f.elements if e.attrs.get("id") == dom_id)


@pytest.mark.parametrize(("field", "heading", "form_id"), [
    ("Your email", "Contact us", "contact-form"),     # a <section> around heading, prose and form
    ("Phone number", "Ask for a call back", "callback-form"),  # a plain <div> around heading and form
])
def test_a_block_wrapping_one_form_and_its_heading_is_that_form_section(divided, field, heading, form_id):
    snapshot, pm = divided
    assert division_problems(snapshot, pm) == []
    section = section_with(pm, field)
    assert section.kind == "form"
    assert section.form is not None and section.form.id == _form_id(snapshot, form_id)
    assert f'heading "{heading}"' in section.details  # the heading travels with its form
    assert sum(1 for s in pm.sections if heading in s.details) == 1
