"""The companion takes the extension's `secret: true` as the one verdict on which fields hold a secret, also
for fields known only by their label or name (a PIN, a security answer): such a field makes its form a
sensitive one (confirmation before submitting), and its value is never rendered into the text prompts are
made of, even when a sender included it."""

from __future__ import annotations

from companion.act.form_effect import read_page_facts
from companion.pagemem.divide import divide_page
from tests.support.htmlsnap import snapshot_from_html

FORM = """<html><body><form id="f" method="get" action="/find" role="search">
  <input type="hidden" name="csrf" value="t0k3n-4471">
  <label for="r1">Reply</label> <input id="r1" name="f1" value="{value}">
</form></body></html>"""


def flagged(html: str, *ids: str):
    """The snapshot as the extension sends it: the named elements carry `secret: true`."""
    snapshot = snapshot_from_html(html)
    for el in snapshot.frames[0].elements:
        if el.attrs.get("id") in ids or el.attrs.get("type") == "hidden":
            el.secret = True
    return snapshot


SEARCH_FORM = """<html><body><form id="f" method="get" action="/find" role="search">
  <input type="hidden" name="csrf" value="t0k3n-4471">
  <label for="q">Search</label> <input id="q" name="q">
</form></body></html>"""


def form_of(snapshot):
    facts = read_page_facts(snapshot)
    return next(iter(facts.forms.values()))


def test_a_field_the_extension_calls_secret_makes_its_form_sensitive():
    """A field the extension flagged (by a label or masking the companion cannot see) is as sensitive as a password
    field: the form is no plain search."""
    form = form_of(flagged(FORM.format(value=""), "r1"))
    assert form.sensitive_reason() == "holds a secret field"
    assert not form.is_real_search()


def test_a_hidden_token_alone_makes_no_form_sensitive():
    """Hidden inputs are flagged secret for their tokens; that says nothing of what the form does."""
    form = form_of(flagged(SEARCH_FORM, "nothing-else"))
    assert form.sensitive_reason() is None and form.is_real_search()


def test_a_secret_fields_value_is_never_rendered_even_if_sent():
    """Whatever a sender put in `value`, a field flagged secret renders without it."""
    snapshot = flagged(FORM.format(value="leaked-pin-73012"), "r1")
    pin = next(e for e in snapshot.frames[0].elements if e.attrs.get("id") == "r1")
    assert pin.value == "leaked-pin-73012"  # the sender included it
    pm = divide_page(snapshot)
    text = "\n".join(s.details for s in pm.sections) + "\n" + "\n".join(e.line() for e in pm.all_elements())
    assert "leaked-pin-73012" not in text
