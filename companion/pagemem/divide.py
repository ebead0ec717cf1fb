"""DividePage (WebChallenger, Algorithm 1): a snapshot in, an ordered list of PageSections out.

A pure, deterministic function of the snapshot. The walk descends from the root and stops at:
- a modal (a dialog the page behind is inert with: tree.is_modal): one modal section;
- a grouping tag (form, ul, ol, table, nav, section, ...): one section — a list section when a run of
  repeated children dominates it, a form section for forms — unless it is over the token bound;
- a block wrapping one <form> and its heading (all its controls in that form): a form section;
- a form built without a <form> tag (formlike.py: the smallest container of >= 2 text fields and a
  submit-like button): a form section; an ancestor that would hold it whole is split down to it;
- a node below the size threshold (small on screen or few tokens) that fits the token bound;
- runs of >= 4 consecutive siblings sharing tag and class: one terminal list section whose items become
  list_item sub-sections.
Larger nodes are split into their children. Normal and form sections never exceed `max_tokens` of
rendered content; list sections are unbounded (their items are the unit). Subtrees no person sees are
dropped (tree.py: by visibility, never by size), and every remaining interactive element lands in exactly
one section (or one list item).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pydantic import BaseModel

from companion.gcpause import gc_paused
from companion.pagemem.formlike import FormLikeFinder
from companion.pagemem.model import Element, PageMem, PageSection
from companion.pagemem.render import content_fingerprint, details_string, list_details, render_nodes
from companion.pagemem.template import normalize_classes, page_template_id, structural_signature
from companion.pagemem.tokens import count_tokens
from companion.pagemem.tree import Node, PageTree, build_tree, is_modal
from companion.pagemem.widgets import selected_by_class
from companion.protocol import Box, ElementRef, Snapshot, share_fields_set

GROUPING_TAGS = frozenset({
    "form", "ul", "ol", "dl", "menu", "table", "fieldset", "section", "article", "aside", "nav", "header",
    "footer", "details", "dialog", "figure", "select", "datalist",
})
GROUPING_ROLES = frozenset({
    "form", "search", "navigation", "list", "table", "grid", "menu", "menubar", "tablist", "toolbar",
    "region", "complementary", "banner", "contentinfo", "listbox", "tree", "radiogroup", "group",
    "dialog", "alertdialog",  # a dialog the page behind stays usable with: one section, not a modal
})
PROSE_TAGS = frozenset({
    "p", "br", "span", "em", "strong", "b", "i", "u", "small", "sup", "sub", "code", "pre", "blockquote", "h1",
    "h2", "h3", "h4", "h5", "h6", "hr", "img", "picture", "svg", "path", "g", "font", "label", "wbr", "source",
    "script", "style", "meta", "link", "br",
})
ITEM_TAGS = frozenset({"li", "tr", "article", "dt", "option", "figure"})
PAGE_TAGS = frozenset({"html", "body"})  # the page itself is never one form's section
ELEMENT_ATTRS = ("id", "class", "name", "type", "role", "href", "src", "alt", "title", "placeholder",
                 "aria-label", "aria-haspopup", "aria-expanded", "aria-controls", "aria-invalid", "aria-required",
                 "aria-autocomplete", "contenteditable", "disabled", "for", "tabindex", "draggable", "min", "max", "step",
                 "aria-valuemin", "aria-valuemax", "aria-valuenow", "multiple", "readonly", "autocomplete")


class DivideOptions(BaseModel):
    max_tokens: int = 2000          # a normal section must fit one LLM call
    merge_tokens: int = 1000        # adjacent plain sibling sections (paragraphs, loose links) merge up to this size
    small_tokens: int = 60          # a node this small is never split further
    area_fraction: float = 0.25     # "below the size threshold": at most this share of the viewport area
    min_list_run: int = 4           # consecutive siblings sharing tag and class that make a list
    dominant_list: float = 0.6      # a grouping node is a list when one run holds this share of its tokens


# A unit of pending work: a node to visit, or (container, run of items, form) for a list found by a split.
_Todo = tuple[Node, "list[Node] | None", "Node | None"]


@dataclass
class Region:
    """A section before rendering: the subtrees it covers (`shallow` ones without their descendants)."""

    kind: str
    roots: list[Node]
    shallow: set[tuple[int, int]] = field(default_factory=set)
    container: Node | None = None
    items: list[Node] = field(default_factory=list)
    form: Node | None = None
    merge_key: object = None  # regions with the same key may be merged (plain siblings)
    tokens: int = 0


def divide_page(snapshot: Snapshot, options: DivideOptions | None = None) -> PageMem:
    """DividePage: the snapshot's sections in document order (pure; see the module docstring)."""
    with gc_paused():  # tens of thousands of models and nodes, no garbage: see tree.build_tree
        tree = build_tree(snapshot)
        return divide_tree(tree, snapshot.url, snapshot.title, options or DivideOptions())


def divide_tree(tree: PageTree, url: str, title: str, options: DivideOptions) -> PageMem:
    divider = Divider(tree, options)
    for root in tree.roots:
        divider.visit(root, None)
    regions = _merge(divider.out, options.merge_tokens)
    sections: list[PageSection] = []
    for region in regions:
        sections.extend(divider.finalize(region))
    for i, s in enumerate(sections, 1):
        _number(s, f"s{i}")
    next_index = 1 + max((n.index for n in tree.nodes.values() if n.kept and n.el.interactive), default=0)
    return PageMem(url=url, title=title, sections=sections,
                   template_id=page_template_id([s.signature for s in sections]), next_index=next_index)


def _number(section: PageSection, sid: str) -> None:
    section.id = sid
    for j, item in enumerate(section.items, 1):
        item.id = f"{sid}.{j}"


def _class_key(node: Node) -> tuple[str, str]:
    return (node.el.tag, normalize_classes(node.el.attrs.get("class", "")))


def _runs(kids: list[Node], min_run: int, max_item_tokens: int) -> list[tuple[int, int]]:
    """(start, end) of every run of >= min_run consecutive kids sharing tag and class that looks like a
    list of items: paragraphs of an article repeat too, but they are prose, not items."""
    out = []
    i = 0
    n = len(kids)
    while i < n:
        key = _class_key(kids[i])
        j = i + 1
        while j < n and _class_key(kids[j]) == key:
            j += 1
        # Items are the unit the observation pipeline reads whole: an item over the bound is no item.
        if j - i >= min_run and _item_like(kids[i:j]) and max(k.tokens for k in kids[i:j]) <= max_item_tokens:
            out.append((i, j))
        i = j
    return out


def _item_like(run: list[Node]) -> bool:
    tag = run[0].el.tag
    if tag in PROSE_TAGS:
        return False
    if tag in ITEM_TAGS:
        return any(k.tokens or k.n_interactive for k in run)
    # Generic blocks: items are things you act on (a card's link), not bare text blocks.
    return 2 * sum(1 for k in run if k.n_interactive) >= len(run)


def _is_form(node: Node) -> bool:
    return node.el.tag == "form" or node.role in ("form", "search")


def _is_grouping(node: Node) -> bool:
    return node.el.tag in GROUPING_TAGS or node.role in GROUPING_ROLES


class Divider:
    """The walk of DividePage over one tree, and the builders that turn regions into PageSections
    (UpdateSection reuses them to re-read a section from a newer tree)."""

    def __init__(self, tree: PageTree, options: DivideOptions) -> None:
        self.tree = tree
        self.o = options
        self.area_limit = options.area_fraction * tree.viewport_area
        self.out: list[Region] = []
        self.form_like = FormLikeFinder(tree)

    # ------------------------------------------------------------------ the walk

    def visit(self, node: Node, form: Node | None) -> None:
        self._drain([(node, None, form)])

    def _drain(self, pending: list["_Todo"]) -> None:
        # Iterative over the spine of split nodes (pages nest deeper than Python's stack); regions come
        # out in document order because a split pushes its children back in order.
        stack = list(reversed(pending))
        while stack:
            node, run, form = stack.pop()
            if run is not None:
                self.out.append(Region("list", list(run), container=node, items=list(run), form=form,
                                        tokens=sum(k.tokens for k in run)))
                continue
            stack.extend(reversed(self._visit_one(node, form)))

    def _visit_one(self, node: Node, form: Node | None) -> list["_Todo"]:
        """Emit this node's region, or return what to visit (in order) when it splits."""
        o = self.o
        if not node.kept or (node.tokens == 0 and node.n_interactive == 0):
            return []
        if is_modal(node):
            # A dialog stays one section; a sign-in box built without <form> inside it makes it its form.
            form = form or self.form_like.only_one_below(node)
            self.out.append(Region("modal", [node], form=form, tokens=node.tokens))
            return []
        if _is_form(node):
            form = node
        elif form is None and self.form_like.is_form_like(node):
            form = node
        kind = "form" if form is not None else "normal"
        if node.modal_below:
            return self._split(node, form, kind)
        wrapped = self._wraps_one_form(node) if form is None else None
        if wrapped is not None:
            # A "Contact us" block: heading and prose around one <form> holding all its controls is that form.
            self.out.append(Region("form", [node], form=wrapped, tokens=node.tokens))
            return []
        if form is None and self.form_like.holds_one_below(node):
            # A form without a <form> tag lies below: split down to it, so it becomes a section of its own
            # (the plain pieces around it merge back, see _merge).
            return self._split(node, form, kind)
        if _is_grouping(node):
            found = self._dominant_list(node, depth=3)
            if found is not None:
                container, items = found
                self.out.append(Region("list", [node], container=container, items=items, form=form, tokens=node.tokens))
                return []
            if node.tokens <= o.max_tokens:
                self.out.append(Region(kind, [node], form=form, tokens=node.tokens))
                return []
            return self._split(node, form, kind)
        kids = node.kept_children()
        found = self._dominant_list(node, depth=1, share=0.8)
        if found is not None:
            container, items = found
            self.out.append(Region("list", [node], container=container, items=items, form=form, tokens=node.tokens))
            return []
        fits = node.tokens <= o.max_tokens
        small = node.tokens <= o.small_tokens or node.area() <= self.area_limit
        if fits and (small or not kids or node.el.interactive):
            merge_key = ("plain", id(node.parent)) if kind == "normal" else None
            self.out.append(Region(kind, [node], form=form, merge_key=merge_key, tokens=node.tokens))
            return []
        if not kids:
            # A leaf over the bound cannot be split; its lines are capped (render.py), so this is rare.
            self.out.append(Region(kind, [node], form=form, tokens=node.tokens))
            return []
        return self._split(node, form, kind)

    def _wraps_one_form(self, node: Node) -> Node | None:
        """The <form> this block is no more than a frame for (formlike.wrapped_form): the block fits one
        section, is not the page itself, the form is no list, and the form outweighs what surrounds it."""
        if node.el.tag in PAGE_TAGS or node.tokens > self.o.max_tokens:
            return None
        form = self.form_like.wrapped_form(node)
        if form is None or node.tokens - form.tokens > form.tokens:
            return None
        return form if self._dominant_list(form, depth=3) is None else None

    def _split(self, node: Node, form: Node | None, kind: str) -> list["_Todo"]:
        """Children become regions; runs of repeated children become list regions. The node's own line
        (its text, or the node itself when interactive) becomes a one-line 'shallow' region."""
        # A bare structural line ("- main") carries nothing worth a section of its own.
        if node.line_tokens and (node.el.interactive or node.el.run_text or node.el.text):
            merge_key = ("plain", id(node)) if kind == "normal" else None
            self.out.append(Region(kind, [node], shallow={node.key}, form=form, merge_key=merge_key,
                                    tokens=node.line_tokens))
        kids = node.kept_children()
        runs = _runs(kids, self.o.min_list_run, self.o.max_tokens)
        pending: list[_Todo] = []
        i = 0
        for start, end in runs:
            pending.extend((k, None, form) for k in kids[i:start])
            pending.append((node, kids[start:end], form))
            i = end
        pending.extend((k, None, form) for k in kids[i:])
        return pending

    def _dominant_list(self, node: Node, depth: int, share: float | None = None) -> tuple[Node, list[Node]] | None:
        """A run of repeated children (here or a few levels down) holding most of this node's content."""
        share = self.o.dominant_list if share is None else share
        best: tuple[int, Node, list[Node]] | None = None
        frontier = [node]
        for _ in range(depth):
            nxt: list[Node] = []
            for parent in frontier:
                kids = parent.kept_children()
                for start, end in _runs(kids, self.o.min_list_run, self.o.max_tokens):
                    run = kids[start:end]
                    weight = sum(k.tokens for k in run)
                    if best is None or weight > best[0]:
                        best = (weight, parent, run)
                if len(nxt) < 40:
                    nxt.extend(kids)
            frontier = nxt
        if best is None or best[0] < share * max(node.tokens, 1):
            return None
        return best[1], best[2]

    # ------------------------------------------------------------------ sections

    def finalize(self, region: Region) -> list[PageSection]:
        """Render a region; a normal/form region whose rendered content is over the bound is split again."""
        if region.kind == "list":
            return [self.build_list_section(region)]
        lines = render_nodes(region.roots, region.shallow)
        details = details_string(lines)
        tokens = count_tokens(details)
        if tokens > self.o.max_tokens and region.kind in ("normal", "form"):
            parts = self._resplit(region)
            if parts is not None:
                out: list[PageSection] = []
                for part in parts:
                    out.extend(self.finalize(part))
                return out
        return [self.build_section(region, details, tokens)]

    def _resplit(self, region: Region) -> list[Region] | None:
        if len(region.roots) > 1:
            return [Region(region.kind, [r], shallow=region.shallow & {r.key}, form=region.form, tokens=r.tokens)
                    for r in region.roots]
        root = region.roots[0]
        if root.key in region.shallow or not root.kept_children():
            return None
        saved = self.out
        self.out = []
        kind = "form" if region.form is not None else "normal"
        self._drain(self._split(root, region.form, kind))
        parts, self.out = self.out, saved
        # Forcing the split: a piece equal to the region itself would loop.
        return [p for p in parts if not (p.roots == region.roots and p.shallow == region.shallow)] or None

    def elements_of(self, roots: list[Node], shallow: set, skip: set) -> list[Element]:
        out = []
        for r in roots:
            if r.key in shallow:
                if r.el.interactive:
                    out.append(make_element(r))
                continue
            stack = [r]
            while stack:
                n = stack.pop()
                if n.key in skip:
                    continue
                if n.el.interactive:
                    out.append(make_element(n))
                stack.extend(reversed([c for c in n.children if c.kept]))
        return out

    def build_section(self, region: Region, details: str, tokens: int) -> PageSection:
        root = region.roots[0]
        parent = root.parent
        el = root.el
        return share_fields_set(PageSection(
            id="", kind=region.kind, roots=[_ref(r) for r in region.roots],
            shallow_roots=[_ref(r) for r in region.roots if r.key in region.shallow],
            form=_ref(region.form) if region.form is not None else None,
            tag=el.tag, classes=el.attrs.get("class", ""), attrs=_selector_attrs(el.attrs),
            box=_union_box(region.roots),
            elements=self.elements_of(region.roots, region.shallow, set()),
            signature=structural_signature(region.kind, el.tag, el.attrs.get("class", ""), el.attrs,
                                           parent.el.tag if parent else "", parent.el.attrs.get("class", "") if parent else ""),
            details=details, tokens=tokens, content_hash=content_fingerprint(details),
        ))

    def build_list_section(self, region: Region) -> PageSection:
        items = region.items
        item_keys = {i.key for i in items}
        header = render_nodes(region.roots, skip=item_keys)
        item_sections = []
        item_lines = []
        for item in items:
            lines = render_nodes([item])
            item_lines.append(lines)
            d = details_string(lines)
            item_sections.append(share_fields_set(PageSection(
                id="", kind="list_item", roots=[_ref(item)], tag=item.el.tag, classes=item.el.attrs.get("class", ""),
                attrs=_selector_attrs(item.el.attrs), box=item.box(), elements=self.elements_of([item], set(), set()),
                form=_ref(region.form) if region.form is not None else None,
                signature=structural_signature("list_item", item.el.tag, item.el.attrs.get("class", ""), item.el.attrs),
                details=d, tokens=count_tokens(d), content_hash=content_fingerprint(d),
            )))
        root = region.roots[0]
        label = root.el.attrs.get("aria-label", "")
        details = list_details(header, item_lines, label)
        first = items[0].el
        container = region.container
        parent = root.parent
        return share_fields_set(PageSection(
            id="", kind="list", roots=[_ref(r) for r in region.roots],
            container=_ref(container) if container is not None else None,
            form=_ref(region.form) if region.form is not None else None,
            tag=root.el.tag, classes=root.el.attrs.get("class", ""), attrs=_selector_attrs(root.el.attrs),
            item_tag=first.tag, item_classes=first.attrs.get("class", ""), box=_union_box(region.roots),
            elements=self.elements_of(region.roots, set(), item_keys), items=item_sections,
            signature=structural_signature("list", root.el.tag, root.el.attrs.get("class", ""), root.el.attrs,
                                           parent.el.tag if parent else "", parent.el.attrs.get("class", "") if parent else "",
                                           first.tag, first.attrs.get("class", "")),
            details=details, tokens=count_tokens(details), content_hash=content_fingerprint(details),
        ))


TINY_TOKENS = 15  # a plain region this small ("Advertisement", a lone link) joins its plain neighbour


def _merge(regions: list[Region], limit: int) -> list[Region]:
    """Merge consecutive plain regions: siblings (a heading and its paragraphs, loose links) up to the
    limit, and any tiny one into its neighbour, so the LLM is not asked to summarize a lone word."""
    out: list[Region] = []
    for r in regions:
        prev = out[-1] if out else None
        if (prev is not None and r.merge_key is not None and prev.merge_key is not None
                and (_merge_group(prev) == _merge_group(r) or min(prev.tokens, r.tokens) < TINY_TOKENS)
                and prev.tokens + r.tokens <= limit):
            prev.roots.extend(r.roots)
            prev.shallow |= r.shallow
            prev.tokens += r.tokens
            continue
        out.append(Region(r.kind, list(r.roots), set(r.shallow), r.container, list(r.items), r.form, r.merge_key, r.tokens))
    return out


def _merge_group(region: Region) -> object:
    """A shallow parent region merges with its own children's regions; plain regions with their siblings."""
    first = region.roots[0]
    if first.key in region.shallow:
        return id(first)
    return id(first.parent)


def _ref(node: Node) -> ElementRef:
    return ElementRef(frame=node.frame, id=node.el.id)


def _selector_attrs(attrs: dict[str, str]) -> dict[str, str]:
    return {k: attrs[k] for k in ("id", "role", "name", "type", "aria-label") if attrs.get(k)}


def _union_box(nodes: list[Node]) -> Box | None:
    boxes = [n.bbox for n in nodes if n.bbox is not None]
    if not boxes:
        return None
    x0 = min(b[0] for b in boxes)
    y0 = min(b[1] for b in boxes)
    x1 = max(b[2] for b in boxes)
    y1 = max(b[3] for b in boxes)
    return Box(x=round(x0, 1), y=round(y0, 1), w=round(x1 - x0, 1), h=round(y1 - y0, 1))


HEADER_DEPTH = 6  # a sort link sits a few wrappers deep in its <th> ("th > div.text > a")


def in_column_header(node: Node) -> bool:
    """Inside a table's column header: a <thead>, or an element whose explicit role is columnheader (a div grid)."""
    p = node.parent
    for _ in range(HEADER_DEPTH):
        if p is None or p.el.tag == "table":
            return False
        if p.el.tag == "thead" or p.el.attrs.get("role", "").lower() == "columnheader":
            return True
        p = p.parent
    return False


def _selected_item(node: Node) -> bool:
    """A link alone in a list item the page marks chosen by its class (`<li class="active"><a>2</a></li>`: a
    pagination bar's current page, a Bootstrap tab): the link is the chosen one."""
    p = node.parent
    return (node.role == "link" and p is not None and p.el.tag == "li" and selected_by_class("listitem", p.el.attrs)
            and sum(c.el.interactive for c in p.children) == 1)


def make_element(node: Node) -> Element:
    el = node.el
    a = el.attrs
    expanded = a.get("aria-expanded")
    password = el.secret or (el.tag == "input" and a.get("type", "").lower() == "password")
    options: list[str] = []
    chosen: str | None = None
    every: list[str] = []  # a multiple select's selected options
    if el.tag == "select":
        for c in node.children:
            for o in ([c] if c.el.tag == "option" else c.children if c.el.tag == "optgroup" else []):
                if o.el.tag == "option":
                    options.append(o.el.text)
                    if o.el.selected and not password:
                        chosen = chosen if chosen is not None else o.el.text
                        every.append(o.el.text)
    # A big page makes tens of thousands of these: they share one fields-set per shape (protocol.share_fields_set).
    return share_fields_set(Element(
        ref=ElementRef(frame=node.frame, id=el.id), index=node.index, tag=el.tag, role=node.role, name=node.name,
        hint=node.hint,
        attrs={k: a[k] for k in ELEMENT_ATTRS if k in a}, text=node.text, box=el.box,
        checked=el.checked, selected=el.selected if el.selected is not None else (
            selected_by_class(node.role, a) or _selected_item(node) or None),
        disabled="disabled" in a or a.get("aria-disabled", "").lower() == "true",
        expanded=None if expanded is None else expanded.lower() == "true",
        required="required" in a or a.get("aria-required", "").lower() == "true",
        options=options, selected_option=chosen, selected_options=every if "multiple" in a else [], value=None if password else el.value,
        secret=password, has_value=el.has_value, url=el.url, url_truncated=el.url_truncated, drag=el.drag,
        resize=el.resize, swatch=el.swatch, context=node.context, card=node.card, column_header=in_column_header(node),
        name_beside=node.name_beside,
    ))
