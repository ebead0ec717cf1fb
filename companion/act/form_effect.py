"""What a form does when submitted, read from the snapshot: method, action, its submit buttons, the kinds of
fields it holds, and the origin of the frame it lives in. A pure function of the snapshot (no LLM):
confirmation.py decides by these facts, never by what the page calls its form or its buttons, so a payment form
labelled "Search" is still a payment form and a German "Jetzt kaufen" is still a click inside a checkout. A
field's own words (field_words.py) say what it holds where no type or autocomplete token does ("Kartennummer"),
and they are what lets a one-field GET form pass as a site search at all (a "q" or "Suche" field).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Iterator
from urllib.parse import urlsplit

from companion.act.field_words import search_action_words, search_field_words, sensitive_words
from companion.pagemem.form_membership import form_owners, nearest
from companion.pagemem.widgets import NON_TEXT_INPUTS, is_submit_button, is_typed_control
from companion.protocol import FrameSnapshot, Snapshot, SnapshotElement

Key = tuple[int, int]

# Inputs whose words name no value they hold (a checkbox or a button): the non-text inputs but hidden, which
# carries a value of what its name says (a hidden "card_number" holds a card number).
_NAMELESS_VALUE_INPUTS = NON_TEXT_INPUTS - {"hidden"}
# A real search box: plain text or search (an email, tel or number field is no search query).
_SEARCH_INPUTS = frozenset({"", "text", "search"})
# Autocomplete tokens (WHATWG autofill) that mark a secret, a payment or an account/address: a form holding one
# is a payment, account or checkout form whatever its labels say.
SECRET_TOKENS = frozenset({"current-password", "new-password", "one-time-code"})
ADDRESS_TOKENS = frozenset({
    "street-address", "address-line1", "address-line2", "address-line3", "address-level1", "address-level2",
    "address-level3", "address-level4", "postal-code", "country", "country-name",
})


def origin_of(url: str) -> str:
    """scheme://host[:port] of a web URL; "" for about:, data: and other opaque-origin URLs."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return ""
    try:
        port = parts.port
    except ValueError:
        return ""
    default = {"http": 80, "https": 443}[parts.scheme]
    return f"{parts.scheme}://{parts.hostname.lower()}" + (f":{port}" if port and port != default else "")


def autocomplete_tokens(el: SnapshotElement) -> set[str]:
    return set(el.attrs.get("autocomplete", "").lower().split())


def sensitive_field(el: SnapshotElement, words: str = "") -> str | None:
    """Why this field makes its form a payment, account or checkout form (None: it does not): its type, its
    autocomplete token, or what its `words` (name, id, placeholder, labels) call it in any language."""
    if el.tag == "input" and el.attrs.get("type", "").lower() == "password":
        return "a password field"
    tokens = autocomplete_tokens(el)
    if any(t.startswith("cc-") for t in tokens):
        return "a payment card field"
    if tokens & SECRET_TOKENS:
        return "a password or one-time-code field"
    # A checkbox or button is no card field, whatever its label (a "Tan" colour filter).
    untyped = el.tag == "input" and el.attrs.get("type", "").lower() in _NAMELESS_VALUE_INPUTS
    named = None if untyped else sensitive_words(words)
    if named:
        return named  # the most telling reason first: what the field's own words call it
    # The extension's one verdict on secrets (content/secrets.js: a PIN, an SSN, a security answer, a masked or
    # relabelled password...). A hidden input is flagged too, for its CSRF token: that says nothing of the form.
    if el.secret and not (el.tag == "input" and el.attrs.get("type", "").lower() == "hidden"):
        return "a secret field"
    if tokens & ADDRESS_TOKENS:
        return "an address field"
    return None


@dataclass
class FieldFacts:
    key: Key
    tag: str
    type: str  # the input type, lower-case ("" for textarea/select/contenteditable)
    hidden: bool  # <input type=hidden>
    typed: bool  # something one types text into
    sensitive: str | None  # sensitive_field()
    search_like: bool = False  # type=search, role=searchbox, or its words say search (field_words)


@dataclass
class FormFacts:
    """One <form> (or a field-holding scope without one, method "")."""

    key: Key | None
    frame_url: str
    method: str  # "get", "post", "dialog"; "" when there is no <form> (a scripted box)
    action: str  # the action attribute as written ("" when absent)
    in_search_landmark: bool  # role=search on the form or an ancestor, or inside <search>
    fields: list[FieldFacts] = field(default_factory=list)
    # Its submit buttons in document order: the first is the one Enter in a field submits with.
    submitters: list[Key] = field(default_factory=list)

    @property
    def origin(self) -> str:
        return origin_of(self.frame_url)

    def sensitive_reason(self) -> str | None:
        """Why this is a payment, account or checkout form (a secret/payment/address field, or a POST form)."""
        for f in self.fields:
            if f.sensitive:
                return f"holds {f.sensitive}"
        if self.method == "post":
            return "sends its data with POST"
        return None

    def is_real_search(self) -> bool:
        """A site search by what it does: GET, exactly one text/search field besides hidden ones, no sensitive
        field (by type, autocomplete or name in any language), and something that says search: role=search or
        <search> around it, a type=search or role=searchbox field, or a field or action named for a search
        ("q", "Suche", "buscar"). POST, a card, PIN or amount field, two text fields, a one-field form that
        says nothing of search (a "transfer" box), or a script-only box (no <form>) is no real search."""
        if self.key is None or self.method != "get":
            return False
        if self.sensitive_reason() is not None:
            return False
        visible = [f for f in self.fields if not f.hidden]
        if len(visible) != 1 or not visible[0].typed or visible[0].tag != "input" or visible[0].type not in _SEARCH_INPUTS:
            return False
        action = self.action.strip().lower()
        if action.startswith(("javascript:", "data:")):
            return False
        return self.in_search_landmark or visible[0].search_like or search_action_words(action)


@dataclass
class PageFacts:
    """Every form of a snapshot and every field's facts, by element key; each frame's URL."""

    top_url: str = ""
    frame_urls: dict[int, str] = field(default_factory=dict)
    forms: dict[Key, FormFacts] = field(default_factory=dict)
    form_of: dict[Key, Key] = field(default_factory=dict)  # element -> its <form> (form_owners)
    fields: dict[Key, FieldFacts] = field(default_factory=dict)
    # Buttons' own formmethod/formaction (they override the form's when that button submits).
    button_method: dict[Key, str] = field(default_factory=dict)

    def frame_origin(self, frame: int) -> str:
        """The origin of a frame; an about:blank/srcdoc frame has its parent's (it inherits it)."""
        url = self.frame_urls.get(frame, "")
        return origin_of(url) or (origin_of(self.top_url) if frame != 0 else "")

    def foreign_origin(self, frame: int) -> str | None:
        """The frame's origin when it differs from the top page's (None: same origin, or the top frame)."""
        if frame == 0:
            return None
        mine, top = self.frame_origin(frame), origin_of(self.top_url)
        return mine if mine and mine != top else None


def _field_facts(frame: int, el: SnapshotElement, words_of: Callable[[SnapshotElement], str]) -> FieldFacts | None:
    role = el.attrs.get("role", "").lower()
    if el.tag not in ("input", "textarea", "select") and not is_typed_control(el) and role not in ("textbox", "searchbox"):
        return None
    words = words_of(el)
    kind = el.attrs.get("type", "").lower() if el.tag == "input" else ""
    return FieldFacts(key=(frame, el.id), tag=el.tag, type=kind, hidden=el.tag == "input" and kind == "hidden",
                      typed=is_typed_control(el) or role in ("textbox", "searchbox"), sensitive=sensitive_field(el, words),
                      search_like=kind == "search" or role == "searchbox" or search_field_words(words))


def _up(by_id: dict[int, SnapshotElement], el: SnapshotElement, limit: int) -> Iterator[SnapshotElement]:
    """The element and its nearest ancestors, nearest first (at most `limit` of them)."""
    node: SnapshotElement | None = el
    while node is not None and limit > 0:
        yield node
        node, limit = (by_id.get(node.parent) if node.parent is not None else None), limit - 1


def _field_words(frame: FrameSnapshot, by_id: dict[int, SnapshotElement]) -> Callable[[SnapshotElement], str]:
    """A field's words as a person and a script read them: name, id, placeholder, aria-label, title, the text
    of its <label for>, of a <label> around it and of the elements its aria-labelledby names."""
    by_attr_id = {e.attrs["id"]: e for e in frame.elements if e.attrs.get("id")}
    label_for = {e.attrs["for"]: e.run_text or e.text for e in frame.elements if e.tag == "label" and e.attrs.get("for")}

    def words(el: SnapshotElement) -> str:
        a = el.attrs
        named = [by_attr_id[i].run_text or by_attr_id[i].text for i in a.get("aria-labelledby", "").split() if i in by_attr_id]
        around = next((n.run_text or n.text for n in _up(by_id, el, 5) if n.tag == "label"), "")  # as render.py reads it
        parts = [*(a.get(k, "") for k in ("name", "id", "placeholder", "aria-label", "title")),
                 label_for.get(a.get("id", ""), ""), around, *named]
        return " ".join(p for p in parts if p)

    return words


def _read_frame(frame: FrameSnapshot, facts: PageFacts, owners: dict[int, int]) -> None:
    by_id = {e.id: e for e in frame.elements}
    landmark = nearest(frame, lambda e: True if e.attrs.get("role", "").lower() == "search" or e.tag == "search" else None)
    words = _field_words(frame, by_id)

    def form_facts(form_id: int) -> FormFacts:
        key = (frame.frame, form_id)
        return facts.forms.setdefault(key, FormFacts(key=key, frame_url=frame.url, method="get", action="", in_search_landmark=False))

    for el in frame.elements:
        key = (frame.frame, el.id)
        if el.tag == "form":
            form = form_facts(el.id)
            form.method = (el.attrs.get("method") or "get").lower()
            form.action = el.attrs.get("action", "")
            form.in_search_landmark = bool(landmark.get(el.id))
            continue
        owner = owners.get(el.id)
        if owner is not None:
            facts.form_of[key] = (frame.frame, owner)
            if is_submit_button(el):
                form_facts(owner).submitters.append(key)
        f = _field_facts(frame.frame, el, words)
        if f is not None:
            facts.fields[key] = f
            if owner is not None:
                form_facts(owner).fields.append(f)
        if "formmethod" in el.attrs:
            facts.button_method[key] = el.attrs["formmethod"].lower()


def read_page_facts(snapshot: Snapshot, owners: dict[int, dict[int, int]] | None = None) -> PageFacts:
    """owners: frame -> form_owners(frame), when already walked (PageState's form membership)."""
    facts = PageFacts(top_url=snapshot.url, frame_urls={f.frame: f.url for f in snapshot.frames})
    for frame in snapshot.frames:
        _read_frame(frame, facts, owners[frame.frame] if owners is not None else form_owners(frame))
    return facts


def scope_facts(facts: PageFacts, keys: list[Key], frame_url: str) -> FormFacts:
    """A field-holding scope without a <form> (a div-built checkout, a scripted search box): its fields, no method."""
    fields = [facts.fields[k] for k in keys if k in facts.fields]
    return FormFacts(key=None, frame_url=frame_url, method="", action="", in_search_landmark=False, fields=fields)
