"""The PageMem data model (WebChallenger, Appendix A.1), read top-down:

WebsiteMem  — everything known about one site: PageMems by normalized URL, page templates, the global
              set of explored elements, bookmarks.
PageMem     — one page: URL, title, ordered sections, page summary, template id.
PageSection — a subtree region of the page: DOM-derived attributes (tag, class, box, elements, kind,
              list items as sub-sections) plus model-written metadata (summary, purpose, state summary)
              and a cache of task extractions keyed by the details string that produced them.
Element     — one interactive widget: DOM attributes for selectors and rendering, plus agent-side
              mutable state (current value, clicked, explored, dropdown elements).

Naming follows the paper: alpha = DOM-derived (immutable per snapshot), mu = mutable agent state,
sigma = model-written summaries.
"""

from __future__ import annotations

from typing import Iterator, Literal

from pydantic import BaseModel, ConfigDict, Field

from companion.pagemem.hashing import hash_text
from companion.pagemem.render import element_line
from companion.protocol import Box, ElementRef

SectionKind = Literal["normal", "list", "list_item", "modal", "form"]


class PageMemModel(BaseModel):
    # Unknown fields are refused so an old or hand-edited memory file fails loudly, not silently.
    model_config = ConfigDict(extra="forbid")


def ref_key(ref: ElementRef) -> tuple[int, int]:
    return (ref.frame, ref.id)


class Element(PageMemModel):
    """One interactive element. `index` is the number shown to the LLM, e.g. `[12] button "Add to cart"`."""

    # alpha: DOM-derived
    ref: ElementRef
    index: int = Field(description="page-wide number in document order; stable for the life of the PageMem")
    tag: str
    role: str = Field(description="ARIA role, explicit or implied by the tag")
    name: str = Field("", description="accessible name: aria-label, label, alt, title, placeholder or text")
    hint: str = Field("", description="for an element without a name: its picture's file name and where it links "
                                      "('img=gear.svg href=/settings', Region4Web App. D), shown in its place")
    attrs: dict[str, str] = Field(default_factory=dict, description="selector-defining attributes (id, class, name, type, href, ...)")
    text: str = Field("", description="visible text of the element's subtree, collapsed and truncated")
    box: Box | None = None
    checked: bool | None = None
    selected: bool | None = None
    disabled: bool = False
    expanded: bool | None = None
    required: bool = False
    options: list[str] = Field(default_factory=list, description="for selects: option labels in order")
    selected_option: str | None = Field(None, description="for selects: the label of the selected option (a select's "
                                        "value is its option's value attribute, often empty: '---------')")
    selected_options: list[str] = Field(default_factory=list, description="for a select that allows several: the "
                                        "labels of every selected option, in order")
    secret: bool = Field(False, description="its value never leaves the page (protocol.SnapshotElement.secret)")
    has_value: bool = Field(False, description="a secret field that holds a value")
    url: str | None = Field(None, description="where it navigates, as the browser resolved it (links, forms, formaction)")
    url_truncated: bool = Field(False, description="`url` was cut by the extension: never followed")
    drag: bool = Field(False, description="it can be dragged (protocol.SnapshotElement.drag)")
    resize: bool = Field(False, description="a resize handle (protocol.SnapshotElement.resize)")
    swatch: str | None = Field(None, description="the colour a swatch shows, #rrggbb (protocol.SnapshotElement.swatch)")
    column_header: bool = Field(False, description="it sits in a table's column header (a <thead> or an ARIA "
                                "columnheader): a link there reorders the table, it leads to no row")
    name_beside: bool = Field(False, description="its name is the text beside it (no label, title or placeholder of its "
                              "own): a field named so may well be meant to take that text (act/basic.names_the_field)")
    context: str = Field("", description="for a control whose role and name others on the page share: the text of "
                         "its row or card, which tells it apart ('3' for the 'Odd' beside 3; pagemem/tell_apart.py)")
    card: str = Field("", description="for a control named like others but for a number ('Book for $420'): its card's "
                      "text, longer than `context` and never shown, which a superlative ranks (observe/ranked.py)")
    # mu: mutable agent state
    value: str | None = Field(None, description="current value; never persisted for typed fields")
    clicked: bool = Field(False, description="the agent used it on this page: clicked, checked, chose from it or typed into it")
    explored: bool = False
    dropdown_elements: list[ElementRef] = Field(default_factory=list, description="revealed by clicking this element, in this "
                                                "document (memory keeps them by stable key: memory/records.py DropdownRecord)")

    @property
    def key(self) -> tuple[int, int]:
        return ref_key(self.ref)

    @property
    def input_type(self) -> str:
        return self.attrs.get("type", "").lower()

    @property
    def is_password(self) -> bool:
        """A password or any other secret field (card number, one-time code, masked PIN, hidden token):
        its value is never read, shown or logged."""
        return self.secret or (self.tag == "input" and self.input_type == "password")

    @property
    def is_typed_field(self) -> bool:
        """A field whose value the user (or agent) types: it must never be persisted."""
        if self.tag == "textarea" or self.attrs.get("contenteditable") not in (None, "false"):
            return True
        return self.tag == "input" and self.input_type not in ("checkbox", "radio", "submit", "button", "reset", "image", "hidden", "file", "range", "color")

    def content_key(self) -> tuple:
        """What the element shows and is; used to detect modification and to re-pair re-rendered nodes."""
        return (self.tag, self.role, self.name, self.hint, self.text, self.value, self.has_value, self.checked, self.selected,
                self.disabled, self.expanded, tuple(sorted(self.attrs.items())), tuple(self.options), self.selected_option, tuple(self.selected_options))

    def identity_key(self) -> tuple:
        """What the element is, ignoring its current state: pairs a node the page re-created under a new id."""
        return (self.tag, self.role, self.name, tuple(sorted((k, v) for k, v in self.attrs.items() if k != "value")))

    def line(self) -> str:
        """The one-line candidate form: `[12] button "Add to cart"`."""
        return element_line(self)


class PageSection(PageMemModel):
    """A region of the page mapped to one or more consecutive sibling subtrees of the DOM."""

    # alpha: DOM-derived
    id: str = Field(description="'s3' for top-level sections, 's3.2' for the 2nd item of list section s3")
    kind: SectionKind
    roots: list[ElementRef] = Field(description="the sibling subtree roots this section covers, in order")
    shallow_roots: list[ElementRef] = Field(default_factory=list, description="roots covered without their subtree (a split node's own line)")
    container: ElementRef | None = Field(None, description="for list sections: the parent of the repeated items")
    form: ElementRef | None = Field(None, description="the enclosing <form> (or form-like root) when the section is part of one")
    tag: str
    classes: str = ""
    attrs: dict[str, str] = Field(default_factory=dict, description="selector-defining attributes of the root")
    item_tag: str = Field("", description="for list sections: the tag of every item")
    item_classes: str = ""
    box: Box | None = None
    elements: list[Element] = Field(default_factory=list, description="interactive elements; for lists, only those outside every item")
    items: list["PageSection"] = Field(default_factory=list, description="list sections: one list_item sub-section per item")
    signature: str = Field("", description="structural signature (template.py); content does not change it")
    details: str = Field("", description="the rendered details string (render.py), the content the LLM sees")
    tokens: int = 0
    content_hash: str = Field("", description="render.content_fingerprint(details): the key of the summary/purpose caches")
    # sigma: model-written
    summary: str | None = None
    purpose: str | None = Field(None, description="what the section is for; stable across visits")
    state_summary: str | None = Field(None, description="what the section shows now")
    needs_summary: bool = True
    stood_in: bool = Field(False, exclude=True, description="summary, state and purpose are a stand-in for a call with "
                           "no valid answer (llm/fallback.py), not the model's: never persisted (asked again next visit)")
    extractions: dict[str, str] = Field(default_factory=dict, description="task extraction by sha256(details string)")

    def all_elements(self) -> Iterator[Element]:
        """This section's elements followed by those of its items, in document order of the items."""
        yield from self.elements
        for item in self.items:
            yield from item.all_elements()

    def cached_extraction(self, details: str) -> str | None:
        return self.extractions.get(hash_text(details))

    def store_extraction(self, details: str, extraction: str) -> None:
        self.extractions[hash_text(details)] = extraction


class PageMem(PageMemModel):
    url: str
    title: str = ""
    sections: list[PageSection] = Field(default_factory=list)
    summary: str | None = Field(None, description="page-level summary")
    summary_stood_in: bool = Field(False, exclude=True, description="the summary is a stand-in (llm/fallback.py): "
                                   "never persisted")
    template_id: str = Field("", description="hash of the ordered section signatures")
    next_index: int = Field(1, description="index given to the next element that appears")

    def all_elements(self) -> Iterator[Element]:
        for section in self.sections:
            yield from section.all_elements()

    def element(self, index: int) -> Element | None:
        for el in self.all_elements():
            if el.index == index:
                return el
        return None

    def element_by_ref(self, ref: ElementRef) -> Element | None:
        key = ref_key(ref)
        for el in self.all_elements():
            if el.key == key:
                return el
        return None

    def section(self, section_id: str) -> PageSection | None:
        for s in self.sections:
            if s.id == section_id:
                return s
            for item in s.items:
                if item.id == section_id:
                    return item
        return None

    def section_of(self, ref: ElementRef) -> PageSection | None:
        """The innermost section (list item if any) holding the element."""
        key = ref_key(ref)
        for s in self.sections:
            for item in s.items:
                if any(e.key == key for e in item.elements):
                    return item
            if any(e.key == key for e in s.elements):
                return s
        return None

    def modal(self) -> PageSection | None:
        """CheckModal: the open modal section, if the page has one."""
        for s in self.sections:
            if s.kind == "modal":
                return s
        return None


class Template(PageMemModel):
    id: str
    signatures: list[str]
    example_url: str


class Bookmark(PageMemModel):
    url: str
    title: str = ""
    note: str = ""
    learned: bool = Field(False, description="made by memory/learn.py's rule (else by the user); replaced as it learns")
    score: int = Field(0, description="learned: pages linking here plus visits (learn.py)")
    rank: int = Field(0, ge=0, description="learned: its place in the bookmark rule's order, best first (memory/bookmarks.py)")


class WebsiteMem(PageMemModel):
    site: str = Field(description="site key, e.g. 'shop.example.com'")
    pages: dict[str, PageMem] = Field(default_factory=dict, description="by normalized URL")
    templates: list[Template] = Field(default_factory=list)
    explored: set[str] = Field(default_factory=set, description="element keys explored anywhere on the site (E_w)")
    bookmarks: list[Bookmark] = Field(default_factory=list)

