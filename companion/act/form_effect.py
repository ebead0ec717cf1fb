"""What a form does when submitted, read from the snapshot: method, action, the kinds of fields it holds, and
the origin of the frame it lives in. A pure function of the snapshot (no labels, no LLM): confirmation.py
decides by these facts, never by what the page calls its form, so a payment form labelled "Search" is still
a payment form and a German "Jetzt kaufen" is still a click inside a checkout.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from urllib.parse import urlsplit

from companion.protocol import FrameSnapshot, Snapshot, SnapshotElement

Key = tuple[int, int]

# Input types that carry no typed text (they are set, chosen or hidden, not typed into).
_UNTYPED_INPUTS = frozenset({"checkbox", "radio", "submit", "button", "reset", "image", "file", "range", "color"})
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


def sensitive_field(el: SnapshotElement) -> str | None:
    """Why this field makes its form a payment, account or checkout form (None: it does not)."""
    if el.tag == "input" and el.attrs.get("type", "").lower() == "password":
        return "a password field"
    tokens = autocomplete_tokens(el)
    if any(t.startswith("cc-") for t in tokens):
        return "a payment card field"
    if tokens & SECRET_TOKENS:
        return "a password or one-time-code field"
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


@dataclass
class FormFacts:
    """One <form> (or a field-holding scope without one, method "")."""

    key: Key | None
    frame_url: str
    method: str  # "get", "post", "dialog"; "" when there is no <form> (a scripted box)
    action: str  # the action attribute as written ("" when absent)
    in_search_landmark: bool  # role=search on the form or an ancestor, or inside <search>
    fields: list[FieldFacts] = field(default_factory=list)

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
        field, declared as search (role=search) or with an action URL. POST, a password or a card field,
        two text fields, or a script-only box (no <form>) are no real search, whatever the labels say."""
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
        return self.in_search_landmark or bool(action)


@dataclass
class PageFacts:
    """Every form of a snapshot and every field's facts, by element key; each frame's URL."""

    top_url: str = ""
    frame_urls: dict[int, str] = field(default_factory=dict)
    forms: dict[Key, FormFacts] = field(default_factory=dict)
    form_of: dict[Key, Key] = field(default_factory=dict)  # element -> its <form> (the enclosing or the form= one)
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


def _is_typed(el: SnapshotElement) -> bool:
    if el.tag == "textarea":
        return True
    if el.attrs.get("contenteditable", "false").lower() not in ("false",):
        return True
    return el.tag == "input" and el.attrs.get("type", "").lower() not in _UNTYPED_INPUTS | {"hidden"}


def _field_facts(frame: int, el: SnapshotElement) -> FieldFacts | None:
    if el.tag not in ("input", "textarea", "select") and not _is_typed(el) and el.attrs.get("role") not in ("textbox", "searchbox"):
        return None
    kind = el.attrs.get("type", "").lower() if el.tag == "input" else ""
    return FieldFacts(key=(frame, el.id), tag=el.tag, type=kind, hidden=el.tag == "input" and kind == "hidden",
                      typed=_is_typed(el) or el.attrs.get("role") in ("textbox", "searchbox"), sensitive=sensitive_field(el))


def _read_frame(frame: FrameSnapshot, facts: PageFacts) -> None:
    by_id = {e.id: e for e in frame.elements}
    enclosing: dict[int, int | None] = {}  # element id -> id of its enclosing <form>
    landmark: dict[int, bool] = {}  # element id -> inside role=search / <search>

    def walk_up(el: SnapshotElement) -> tuple[int | None, bool]:
        chain: list[SnapshotElement] = []
        node: SnapshotElement | None = el
        form, search = None, False
        while node is not None and node.id not in enclosing:
            chain.append(node)
            node = by_id.get(node.parent) if node.parent is not None else None
        if node is not None:
            form, search = enclosing[node.id], landmark[node.id]
        for n in reversed(chain):  # from the top down: a node inherits its parent's answer
            if n.tag == "form" and form is None:
                form = n.id
            search = search or n.attrs.get("role", "").lower() == "search" or n.tag == "search"
            enclosing[n.id], landmark[n.id] = form, search
        return enclosing[el.id], landmark[el.id]

    by_name = {e.attrs["id"]: e.id for e in frame.elements if e.tag == "form" and e.attrs.get("id")}
    for el in frame.elements:
        form_id, search = walk_up(el)
        if el.tag == "form":
            key = (frame.frame, el.id)
            facts.forms.setdefault(key, FormFacts(key=key, frame_url=frame.url, method="", action="", in_search_landmark=False))
            form = facts.forms[key]
            form.method = (el.attrs.get("method") or "get").lower()
            form.action = el.attrs.get("action", "")
            form.in_search_landmark = search
            continue
        owner = by_name.get(el.attrs.get("form", "")) if el.attrs.get("form") else form_id
        key = (frame.frame, el.id)
        if owner is not None:
            facts.form_of[key] = (frame.frame, owner)
        f = _field_facts(frame.frame, el)
        if f is not None:
            facts.fields[key] = f
            if owner is not None:
                facts.forms.setdefault((frame.frame, owner), FormFacts(key=(frame.frame, owner), frame_url=frame.url, method="get",
                                                                       action="", in_search_landmark=False)).fields.append(f)
        if "formmethod" in el.attrs:
            facts.button_method[key] = el.attrs["formmethod"].lower()


def read_page_facts(snapshot: Snapshot) -> PageFacts:
    facts = PageFacts(top_url=snapshot.url, frame_urls={f.frame: f.url for f in snapshot.frames})
    for frame in snapshot.frames:
        _read_frame(frame, facts)
    return facts


def scope_facts(facts: PageFacts, keys: list[Key], frame_url: str) -> FormFacts:
    """A field-holding scope without a <form> (a div-built checkout, a scripted search box): its fields, no method."""
    fields = [facts.fields[k] for k in keys if k in facts.fields]
    return FormFacts(key=None, frame_url=frame_url, method="", action="", in_search_landmark=False, fields=fields)
