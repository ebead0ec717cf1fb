"""Every kind of secret stays in the page, in real headless Chromium with the real extension
(tests/fixtures/pages/secret_kinds.html): fields known only by their name, label or accessible name (in several
languages), one-time codes in a textarea or split over one-character boxes, masked or secret contenteditable
regions, a password the page repeats in other elements' text and attributes, and card numbers in any text or
attribute. None of these values is anywhere in the serialized snapshot, the PageMem text prompts are made of, or
a --record file. Ordinary fields (a search box, a name, a discount code, a postal code, ...) keep their values."""

from __future__ import annotations

import pytest

from companion.bridge.recorder import Recorder
from companion.pagemem.divide import divide_page

pytestmark = pytest.mark.browser

PAGE = "secret_kinds.html"

# A field the page says holds a secret (by name, label, placeholder, aria-label, aria-labelledby; shown in clear
# or never masked at all): element id -> its value.
NAMED = {
    "label-password-shown-in-clear-name-pw": ("a1", "kind-a1-clear-pw"),
    "wrapping-label-passwort": ("a2", "kind-a2-passwort"),
    "placeholder-mot-de-passe": ("a3", "kind-a3-motdepasse"),
    "aria-label-contrasena": ("a4", "kind-a4-contrasena"),
    "name-ssn": ("a5", "kind-a5-ssn-078-05-1120"),
    "labelledby-security-answer": ("a6", "kind-a6-answer"),
    "label-geheimzahl": ("a7", "kind-a7-geheimzahl"),
    "camel-case-name-userpass": ("a8", "kind-a8-userpass"),
    "label-client-secret": ("a9", "kind-a9-client-secret"),
}
# One-time codes: the field(s) holding it, and the code.
CODES = {
    "textarea-autocomplete": (["b1"], "kind-b1-582039"),
    "textarea-labelled": (["b2"], "kind-b2-typed-code"),
    "split-boxes-next-to-an-otp-box": ([f"b3-{i}" for i in range(1, 7)], "391726"),
    "split-boxes-in-a-named-group": ([f"b4-{i}" for i in range(1, 5)], "8054"),
}
# Editable regions: CSS-masked, or named as a secret.
REGIONS = {
    "masked-div": ("c1", "kind-c1-masked-615204"),
    "aria-label-pin": ("c2", "kind-c2-pin-290573"),
    "masked-inline-span-in-a-sentence": ("c3", "kind-c3-inline-836141"),
    "labelledby-recovery-code-nested-markup": ("c4", "kind-c4-recovery"),
}
# Where the page repeats a password field's value.
MIRRORS = {
    "its-own-title": "kind-d1-own-title",
    "its-own-aria-valuetext": "kind-d2-own-valuetext",
    "another-elements-title": "kind-d3-other-title",
    "a-meters-aria-valuetext": "kind-d4-meter",
    "another-fields-value": "kind-d5-copy-field",
    "another-elements-text": "kind-d6-text",
    "the-document-title": "kind-d7-doc-title",
    "a-buttons-aria-label": "kind-d8-label",
}
# Card numbers (Luhn-valid) as the page writes them.
CARDS = {
    "aria-label": "4111 1111 1111 1111",
    "text-with-dashes": "5555-5555-5555-4444",
    "img-alt": "378282246310005",
    "ordinary-textarea-value": "4012888888881881",
    "link-href": "6011111111111117",
    "inside-a-longer-digit-run": "3530 1113 3330 0000",
    "title-13-digits": "4222222222222",
}
# Ordinary fields and text the agent must still read: element id -> the value (or text) it shows.
ORDINARY = {
    "search-box": ("f1", "blue kettle"),
    "full-name": ("f2", "Ada Lovelace"),
    "email": ("f3", "ada@example.org"),
    "discount-code": ("f4", "SPRING25"),
    "postal-code": ("f5", "10115"),
    "pincode-is-a-postal-code": ("f6", "560001"),
    "passenger-name": ("f7", "Grace Hopper"),
    "gift-message-textarea": ("f9", "Happy birthday, Alan!"),
    "numbers-that-are-no-card": ("f10", "Order 1733250000002 placed; ISBN 9780306406156; tracking 4111111111111112."),
    "comment-contenteditable": ("f11", "A comment about the order"),
}
# Every value above long enough not to turn up by chance in a recording's numbers (a split code's digits are not).
ALL_SECRETS = ([v for _, v in NAMED.values()] + [c for _, c in CODES.values() if len(c) > 8]
               + [v for _, v in REGIONS.values()] + list(MIRRORS.values()) + list(CARDS.values())
               + [c.replace(" ", "").replace("-", "") for c in CARDS.values()])


@pytest.fixture(scope="module")
def snapshot(browser, pages):
    browser.open(pages.url(PAGE))
    return browser.run(browser.session.snapshot())


def element(snapshot, element_id: str):
    return next(e for f in snapshot.frames for e in f.elements if e.attrs.get("id") == element_id)


@pytest.mark.parametrize("element_id, value", NAMED.values(), ids=NAMED.keys())
def test_a_field_named_or_labelled_as_a_secret_keeps_its_value(snapshot, element_id, value):
    """Its name, label, placeholder or accessible name says it holds a password, PIN, SSN, security answer or
    secret (in one of several languages): the value is nowhere in the snapshot, only that there is one."""
    assert value not in snapshot.model_dump_json()
    field = element(snapshot, element_id)
    assert field.secret and field.has_value and field.value is None


@pytest.mark.parametrize("element_ids, code", CODES.values(), ids=CODES.keys())
def test_a_one_time_code_keeps_its_value_in_a_textarea_or_split_over_boxes(snapshot, element_ids, code):
    """A textarea is a field too (its default text is its value), and every one-character box of a split code
    grouped with a recognised one-time-code box (or in a group named as a code) is secret."""
    assert code not in snapshot.model_dump_json()
    for element_id in element_ids:
        box = element(snapshot, element_id)
        assert box.secret and box.has_value and box.value is None and box.text == "", element_id


@pytest.mark.parametrize("element_id, text", REGIONS.values(), ids=REGIONS.keys())
def test_a_masked_or_secret_editable_region_keeps_its_text(snapshot, element_id, text):
    """A contenteditable region masked by -webkit-text-security or named as a PIN or code is a secret field:
    neither its text nor its descendants' (nor the sentence it sits in) is sent."""
    assert text not in snapshot.model_dump_json()
    region = element(snapshot, element_id)
    assert region.secret and region.has_value and region.text == ""


@pytest.mark.parametrize("value", MIRRORS.values(), ids=MIRRORS.keys())
def test_a_secret_the_page_repeats_elsewhere_is_masked_there(snapshot, value):
    """A page that copies a password into a title, aria-valuetext, aria-label, another field, text or the
    document title does not get it into the snapshot that way."""
    assert value not in snapshot.model_dump_json()


@pytest.mark.parametrize("number", CARDS.values(), ids=CARDS.keys())
def test_a_card_number_is_masked_in_any_text_or_attribute(snapshot, number):
    """A Luhn-valid card number (13-19 digits, spaces or dashes allowed) is masked wherever it is: an
    aria-label, text, an alt, an ordinary field's value, a link, a title."""
    wire = snapshot.model_dump_json()
    assert number not in wire
    assert number.replace(" ", "").replace("-", "") not in wire


@pytest.mark.parametrize("element_id, shown", ORDINARY.values(), ids=ORDINARY.keys())
def test_ordinary_fields_and_numbers_keep_their_values(snapshot, element_id, shown):
    """The agent still reads what it needs: a search box, a name, a discount or postal code (a 'code' that is
    no secret), a passenger name, a message, a comment, and numbers that are no card (a timestamp, an ISBN,
    a number failing the Luhn check)."""
    el = element(snapshot, element_id)
    assert not el.secret
    assert shown in (el.value or el.text)


def test_a_show_password_checkbox_is_no_secret_field(snapshot):
    """What a name says decides only fields one types into: a checkbox named show_password keeps its state and
    is not taken for a password."""
    box = element(snapshot, "f8")
    assert not box.secret and box.checked


def test_no_secret_kind_reaches_what_prompts_are_made_of_or_a_recording(browser, pages, tmp_path):
    """The PageMem text (what prompts are rendered from) and a --record session file hold none of them."""
    recording = tmp_path / "records" / "session.jsonl"
    browser.hub.recorder = Recorder(recording)
    try:
        browser.open(pages.url(PAGE))
        snapshot = browser.run(browser.session.snapshot())
    finally:
        browser.hub.recorder.close()
        browser.hub.recorder = None
    pm = divide_page(snapshot)
    prompt_text = "\n".join(s.details for s in pm.sections) + "\n" + "\n".join(e.line() for e in pm.all_elements())
    recorded = recording.read_text()
    assert "Ada Lovelace" in prompt_text and "Ada Lovelace" in recorded
    assert [s for s in ALL_SECRETS if s in prompt_text] == []
    assert [s for s in ALL_SECRETS if s in recorded] == []
