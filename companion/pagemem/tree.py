"""The snapshot's flat element lists turned into one annotated tree, the thing DividePage walks.

A plain node class rather than an lxml tree: the walk needs per-node numbers (tokens, kept, box) more
than XPath, and slotted objects keep a 20k-element page within a few milliseconds.

Per node, computed once bottom-up:
- kept: the node or a descendant is seen: it renders where a person sees it (the extension's `visible`: not
  display:none, visibility:hidden, opacity 0, clipped sr-only text or off the page) with an area, however small
  (a one-word link in 9 px type is 8 x 11 px); a node kept only through its children (display:contents,
  collapsed float wrappers) is still walked.
- text: subtree text (own text, children, image alt), truncated: names of links and buttons come from it. A
  sentence with inline elements (el.run_text) reads in document order: "Find the email by Agustina and ...".
- tokens: estimated rendered tokens of the subtree, so a region's size is known without rendering it.

Iframe content hangs under its <iframe> element, so it lands in that element's section.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from companion.gcpause import gc_paused
from companion.pagemem.render import absorbs, accessible_name, image_name, node_line
from companion.pagemem.tell_apart import mark_contexts, near_labels
from companion.pagemem.tokens import count_tokens
from companion.protocol import Box, Snapshot, SnapshotElement

SUBTREE_TEXT_CHARS = 160  # enough for an accessible name; keeps the bottom-up text pass linear

IMPLICIT_ROLES = {
    "a": "link", "button": "button", "select": "combobox", "textarea": "textbox", "option": "option",
    "summary": "button", "img": "img", "nav": "navigation", "main": "main", "header": "banner",
    "footer": "contentinfo", "aside": "complementary", "form": "form", "dialog": "dialog",
    "table": "table", "tr": "row", "td": "cell", "th": "columnheader", "ul": "list", "ol": "list",
    "li": "listitem", "fieldset": "group", "h1": "heading", "h2": "heading", "h3": "heading",
    "h4": "heading", "h5": "heading", "h6": "heading", "progress": "progressbar", "hr": "separator",
    "details": "group", "label": "label", "video": "video", "audio": "audio", "iframe": "iframe",
}
INPUT_ROLES = {
    "checkbox": "checkbox", "radio": "radio", "submit": "button", "button": "button", "reset": "button",
    "image": "button", "range": "slider", "number": "spinbutton", "search": "searchbox", "file": "button",
}


class Node:
    __slots__ = ("el", "frame", "parent", "children", "kept", "self_visible", "text", "rest", "tokens",
                 "line_tokens", "atokens", "n_interactive", "bbox", "role", "index", "order", "name", "hint", "line",
                 "modal_below", "context", "card", "name_beside")

    def __init__(self, el: SnapshotElement, frame: int) -> None:
        self.el = el
        self.frame = frame
        self.parent: Node | None = None
        self.children: list[Node] = []
        self.kept = False
        self.self_visible = False
        self.text = ""
        self.rest = ""  # for an inline node in a sentence (el.in_run): its subtree's text outside that sentence
        self.tokens = 0
        self.line_tokens = 0
        self.atokens = 0  # tokens when rendered inside an absorbing ancestor (only interactive parts show)
        self.n_interactive = 0
        self.bbox: tuple[float, float, float, float] | None = None  # x0, y0, x1, y1
        self.role = ""
        self.index = 0   # element index for interactive nodes (set by the caller)
        self.order = 0   # document order over the whole (multi-frame) tree
        self.name = ""
        self.hint = ""   # what tells a control without an accessible name apart (render.nameless_hint)
        self.line = ""   # cached outline line (render.node_line)
        self.modal_below = False  # a kept descendant is a modal: this node must split to free it
        self.context = ""  # an alike control's row or card text (tell_apart.py)
        self.card = ""  # the longer card text of a control named alike but for a number (tell_apart.py)
        self.name_beside = False  # its name is the text beside it, no label of its own (render.accessible_name)

    @property
    def key(self) -> tuple[int, int]:
        return (self.frame, self.el.id)

    @property
    def tag(self) -> str:
        return self.el.tag

    @property
    def attrs(self) -> dict[str, str]:
        return self.el.attrs

    @property
    def interactive(self) -> bool:
        return self.el.interactive

    def kept_children(self) -> list["Node"]:
        return [c for c in self.children if c.kept]

    def box(self) -> Box | None:
        if self.bbox is None:
            return None
        x0, y0, x1, y1 = self.bbox
        return Box(x=round(x0, 1), y=round(y0, 1), w=round(x1 - x0, 1), h=round(y1 - y0, 1))

    def area(self) -> float:
        if self.bbox is None:
            return 0.0
        x0, y0, x1, y1 = self.bbox
        return (x1 - x0) * (y1 - y0)

    def iter(self):
        """Kept nodes of the subtree in document order (iterative: pages nest deeper than the stack)."""
        stack = [self]
        while stack:
            node = stack.pop()
            yield node
            stack.extend(reversed([c for c in node.children if c.kept]))

    def __repr__(self) -> str:  # debugging aid
        return f"<Node {self.frame}:{self.el.id} {self.tag}>"


@dataclass
class PageTree:
    roots: list[Node]
    nodes: dict[tuple[int, int], Node]
    viewport_area: float
    # label[for] text by (frame, id attribute): accessible names of inputs.
    labels: dict[tuple[int, str], str] = field(default_factory=dict)
    ids: dict[tuple[int, str], Node] = field(default_factory=dict)
    # A nameless field's label from the text beside it, by node key (tell_apart.near_labels).
    near_labels: dict[tuple[int, int], str] = field(default_factory=dict)


def role_of(el: SnapshotElement) -> str:
    explicit = el.attrs.get("role")
    if explicit:
        return explicit.split()[0].lower()
    if el.tag == "input":
        return INPUT_ROLES.get(el.attrs.get("type", "text").lower(), "textbox")
    if el.tag == "a" and "href" not in el.attrs:
        return "generic"
    if el.tag == "select" and "multiple" in el.attrs:
        return "listbox"
    return IMPLICIT_ROLES.get(el.tag, "generic")


def is_modal(node: Node) -> bool:
    """CheckModal: a dialog (role=dialog/alertdialog, aria-modal=true, <dialog>) with the page behind it really
    inert, as the extension tested it in the page (SnapshotElement.modal: :modal, `inert` around it, or a
    full-viewport overlay). aria-modal alone is a claim many cookie banners make while the page stays usable;
    such a dialog is an ordinary section (divide.GROUPING_ROLES)."""
    return node.el.modal


def is_row_header(th: Node) -> bool:
    """A <th> that heads its row, not a column: scope="row", or (no scope) a cell of a body row that holds data cells
    (<td>), outside a <thead>. A list page commonly makes each row's first field a <th> (the order number that
    links to the order); read as a column header, every such row looked like the table's heading, and a value
    found beside it (the order's customer) was "not found with" the order it shares the row with."""
    scope = th.attrs.get("scope", "").lower()
    if scope in ("row", "rowgroup"):
        return True
    row = th.parent
    if scope or row is None or row.tag != "tr" or (row.parent is not None and row.parent.tag == "thead"):
        return False
    return any(c.tag == "td" for c in row.children)


def _seen_box(box: Box | None) -> bool:
    """A box a person can see: an area, and more than a 1 px dot (a tracking pixel; the sr-only pattern in
    a snapshot taken before the extension marked it)."""
    return box is not None and box.w > 0 and box.h > 0 and (box.w > 1 or box.h > 1)


def build_tree(snapshot: Snapshot) -> PageTree:
    """Link every frame's elements into one tree and annotate it (see module docstring).

    The garbage collector is paused meanwhile: a node per element, each in a parent/children cycle, made
    full collections walk the whole heap again and again (half the time of a 100k-element page). The
    cycles are collected once the tree is dropped, as before."""
    with gc_paused():
        return _build_tree(snapshot)


def _build_tree(snapshot: Snapshot) -> PageTree:
    nodes: dict[tuple[int, int], Node] = {}
    frame_roots: dict[int, list[Node]] = {}
    frame_hosts: dict[int, Node] = {}
    labels: dict[tuple[int, str], str] = {}
    ids: dict[tuple[int, str], Node] = {}
    for fs in snapshot.frames:
        f = fs.frame
        roots = frame_roots.setdefault(f, [])
        linked: list[Node] = []
        for el in fs.elements:
            if (f, el.id) in nodes:  # a malformed snapshot repeating an id: the first one wins
                continue
            node = Node(el, f)
            node.role = role_of(el)
            nodes[(f, el.id)] = node
            linked.append(node)
            if el.child_frame is not None:
                frame_hosts[el.child_frame] = node
            id_attr = el.attrs.get("id")
            if id_attr:
                ids.setdefault((f, id_attr), node)
        for node in linked:
            el = node.el
            parent = nodes.get((f, el.parent)) if el.parent is not None else None
            if parent is None or parent is node:
                roots.append(node)
            else:
                node.parent = parent
                parent.children.append(node)
        for node in linked:
            if node.tag == "th" and node.role == "columnheader" and is_row_header(node):
                node.role = "rowheader"
    top = snapshot.frames[0].frame if snapshot.frames else 0
    page_roots: list[Node] = list(frame_roots.get(top, []))
    for f, roots in frame_roots.items():
        if f == top:
            continue
        host = frame_hosts.get(f)
        if host is not None and not _is_descendant_frame(host, f, frame_hosts):
            for r in roots:
                r.parent = host
            host.children.extend(roots)
        else:
            # A frame whose <iframe> is not in the snapshot: keep its content rather than lose elements.
            page_roots.extend(roots)
    vp = snapshot.viewport
    tree = PageTree(page_roots, nodes, max(vp.width * vp.height, 1.0), labels, ids)
    _annotate(tree)
    mark_contexts(tree)
    return tree


def _is_descendant_frame(host: Node, frame: int, frame_hosts: dict[int, Node]) -> bool:
    """Guards against a malformed snapshot where a frame would contain its own host (a cycle)."""
    seen = set()
    f = host.frame
    while f not in seen:
        if f == frame:
            return True
        seen.add(f)
        h = frame_hosts.get(f)
        if h is None:
            return False
        f = h.frame
    return True


def postorder(roots: list[Node], keep: Callable[[Node], bool] | None = None) -> list[Node]:
    """Children before parents, iteratively; `keep` prunes a node with its whole subtree."""
    out: list[Node] = []
    stack = [(r, False) for r in reversed(roots) if keep is None or keep(r)]
    seen: set[int] = set()
    while stack:
        node, done = stack.pop()
        if done:
            out.append(node)
            continue
        if id(node) in seen:  # malformed parent links: never loop
            continue
        seen.add(id(node))
        stack.append((node, True))
        stack.extend((c, False) for c in reversed(node.children) if keep is None or keep(c))
    return out


def _annotate(tree: PageTree) -> None:
    order = postorder(tree.roots)
    # Labels first: an input's name may come from a <label for> anywhere in its frame.
    for node in order:
        el = node.el
        node.self_visible = el.visible and _seen_box(el.box)
        # A sentence's text is its run (inline descendants' text in place); those descendants then add only
        # what their subtrees hold outside it.
        own = el.run_text or el.text
        parts = [own] if own else []
        rest: list[str] = []
        n_inter = 0
        x0 = y0 = float("inf")
        x1 = y1 = float("-inf")
        kept = node.self_visible
        for c in node.children:
            if not c.kept:
                if c.el.sr_only and c.text and len(parts) < 12:
                    parts.append(c.text)  # screen-reader text names what it is in: an icon link's "Cart"
                continue
            kept = True
            n_inter += c.n_interactive
            piece = c.rest if c.el.in_run and el.run_text else c.text
            if piece and len(parts) < 12:
                parts.append(piece)
            if el.in_run:
                outside = c.rest if c.el.in_run else c.text
                if outside and len(rest) < 12:
                    rest.append(outside)
            if c.bbox is not None:
                cx0, cy0, cx1, cy1 = c.bbox
                x0, y0, x1, y1 = min(x0, cx0), min(y0, cy0), max(x1, cx1), max(y1, cy1)
        alt = image_name(el) if el.tag in ("img", "svg") or node.role == "img" else None
        if alt and alt != el.text:
            parts.append(alt)
        text = " ".join(parts)
        node.text = text[:SUBTREE_TEXT_CHARS] if len(text) > SUBTREE_TEXT_CHARS else text
        if rest:
            node.rest = " ".join(rest)[:SUBTREE_TEXT_CHARS]
        if el.tag == "label" and "for" in el.attrs:
            tree.labels.setdefault((node.frame, el.attrs["for"]), node.text)
        node.kept = kept and el.tag not in ("option", "optgroup")
        if node.self_visible:
            b = el.box
            x0, y0, x1, y1 = min(x0, b.x), min(y0, b.y), max(x1, b.x + b.w), max(y1, b.y + b.h)
        node.bbox = (x0, y0, x1, y1) if x0 != float("inf") else None
        if node.kept and el.interactive:
            n_inter += 1
        node.n_interactive = n_inter
        node.modal_below = any(c.kept and (c.modal_below or is_modal(c)) for c in node.children)
    # Document order and element indices (1-based, interactive kept nodes only).
    n = 0
    k = 0
    for root in tree.roots:
        for node in root.iter():
            n += 1
            node.order = n
            if node.el.interactive:
                k += 1
                node.index = k
    tree.near_labels = near_labels(tree, lambda node: bool(accessible_name(node, tree).strip()))
    # Second pass: names need labels; token sizes need names. Post-order again, so children are done.
    # The sums mirror render.render_nodes: an absorbing node (link, button, heading) shows its subtree's
    # text in its own line, so below it only interactive descendants are rendered.
    for node in order:
        if not node.kept:
            continue
        node.line = line = node_line(node, tree)
        node.line_tokens = count_tokens(line) + 2 if line else 0  # +2: list marker and indentation
        absorbed = 0
        full = 0
        for c in node.children:
            if c.kept:
                absorbed += c.atokens
                full += c.tokens
        node.tokens = node.line_tokens + (absorbed if absorbs(node) else full)
        node.atokens = node.tokens if node.el.interactive else absorbed


def reindex(tree: PageTree, index_of: dict[tuple[int, int], int], next_index: int) -> int:
    """Give interactive nodes the indices an existing PageMem already uses (new ones get fresh numbers),
    re-rendering their lines. Returns the next free index."""
    for root in tree.roots:
        for node in root.iter():
            if node.el.interactive:
                idx = index_of.get(node.key)
                if idx is None:
                    idx = next_index
                    next_index += 1
                node.index = idx
                node.line = node_line(node, tree)
    return next_index
