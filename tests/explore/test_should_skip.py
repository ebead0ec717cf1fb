"""ShouldSkip: what exploration never clicks (pure: elements as DividePage makes them)."""

from __future__ import annotations

import pytest

from companion.explore.should_skip import should_skip
from companion.pagemem.model import Element
from companion.protocol import ElementRef

PAGE = "http://127.0.0.1:8000/admin/shop/order/3/change/"


def el(tag: str, role: str, label: str = "", **attrs: str) -> Element:
    return Element(ref=ElementRef(frame=0, id=1), index=1, tag=tag, role=role, name=label, text=label, attrs=attrs)


@pytest.mark.parametrize("element, in_form, reason", [
    (el("input", "button", "Save and add another", type="submit", name="_addanother"), True, "submit control"),
    (el("input", "button", "Save", type="submit", name="_save"), True, "submit control"),
    (el("a", "link", "Delete", href="/admin/shop/order/3/delete/", **{"class": "deletelink"}), False, "may change what the site stores"),
    (el("a", "link", "Remove", href="/admin/shop/order/3/remove/"), False, "may change what the site stores"),
    (el("button", "button", "Log out", type="submit"), True, "log-in, sign-up or log-out"),
    (el("a", "link", "Sign up", href="/join"), False, "log-in, sign-up or log-out"),
    (el("a", "link", "Account", href="/accounts/login/?next=/"), False, "log-in, sign-up or log-out"),
    (el("button", "button", "Registrieren", type="button"), False, "log-in, sign-up or log-out"),
    (el("a", "link", "Se déconnecter", href="/bye"), False, "log-in, sign-up or log-out"),
    (el("a", "link", "Call us", href="tel:+441234567"), False, "tel: link"),
    (el("a", "link", "Mail us", href="mailto:shop@example.com"), False, "mailto: link"),
    (el("a", "link", "Print", href="javascript:print()"), False, "javascript: link"),
    (el("button", "button", "Print", type="button"), False, "print"),
    (el("a", "link", "Partner", href="https://example.org/x"), False, "off-site link"),
    (el("a", "link", "Same host, other port", href="http://127.0.0.1:9000/"), False, "off-site link"),
    (el("button", "button", "Go"), True, "submit control"),  # a <button> in a form submits it
    (el("button", "button", "Go", type="sbumit"), True, "submit control"),  # so does one of a misspelt type
    (el("button", "button", "Add to cart", type="button"), False, "may change what the site stores"),
    (el("button", "button", "Löschen", type="button"), False, "may change what the site stores"),
    (el("button", "button", "Enregistrer", type="button"), False, "may change what the site stores"),
    (el("button", "button", "Send message", type="button"), False, "may change what the site stores"),
    (el("a", "link", "Export", href="/export.csv", download=""), False, "download"),
    (el("input", "textbox", "Search", type="text", name="q"), True, "text field (exploration never types)"),
    (el("textarea", "textbox", "Notes", name="notes"), True, "text field (exploration never types)"),
    (el("input", "button", "Upload", type="file"), True, "file input"),
])
def test_should_skip_names_why(element, in_form, reason):
    assert should_skip(element, PAGE, in_form=in_form) == reason


@pytest.mark.parametrize("element, in_form", [
    (el("a", "link", "Orders", href="/admin/shop/order/"), False),
    (el("a", "link", "Add order", href="/admin/shop/order/add/", **{"class": "addlink"}), False),  # opens an empty form
    (el("a", "link", "History", href="/admin/shop/order/3/history/"), False),
    (el("a", "link", "Post a review", href="/reviews/"), False),  # a link's GET: only destroying verbs skip links
    (el("button", "button", "Account menu", type="button", **{"aria-haspopup": "true"}), False),
    (el("button", "button", "Toggle theme", type="button"), True),
    (el("summary", "button", "By status"), False),
    (el("input", "checkbox", "Select this object for an action", type="checkbox", name="_selected_action"), True),
    (el("select", "combobox", "Action", name="action"), True),  # its options are recorded, not clicked
    (el("a", "link", "Menu", href="javascript:void(0)"), False),
])
def test_should_skip_allows_harmless_controls(element, in_form):
    assert should_skip(element, PAGE, in_form=in_form) is None
