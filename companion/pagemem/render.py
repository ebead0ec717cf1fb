"""What the LLM reads: a section's details string and the one-line element form.

The details string is an accessibility-style outline, one node per line, indented by structure:

    - navigation "Main"
      - [3] link "Home"
    - heading "Running shoes" [level=2]
    - text: Free delivery over $50
    - [12] button "Add to cart"
    - [13] textbox "Email" value="a@b.c" [required]

Generic wrappers (div, span) print nothing and add no depth; their own text prints as `text:`, a sentence
whole: inline elements' text (b, em, a, label...) stays in it (render.own_text). A link,
button or heading "absorbs" its subtree: its name is the subtree text, and below it only nested
interactive elements print. Password values are never rendered (snapshots do not carry them either).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING
from urllib.parse import unquote, urlsplit

from companion.pagemem.hashing import hash_text
from companion.pagemem.icon_names import class_words, colour_name, file_words, glyph_meaning, is_glyph, with_meaning
from companion.pagemem.widgets import selected_by_class
from companion.protocol import Box, SnapshotElement

if TYPE_CHECKING:
    from companion.pagemem.model import Element
    from companion.pagemem.tree import Node, PageTree

NAME_CHARS = 100
VALUE_CHARS = 100
MAX_OPTIONS = 12
IMAGE_MIN_PX = 50.0  # images at least this big in both directions are described with their URL

# Roles that print a line of their own (with their children indented below).
STRUCTURAL_ROLES = {
    "navigation", "main", "banner", "contentinfo", "complementary", "form", "search", "dialog", "alertdialog",
    "table", "row", "cell", "columnheader", "rowheader", "list", "listitem", "group", "region", "menu",
    "menubar", "tablist", "tabpanel", "toolbar", "tree", "grid", "alert", "status", "article", "figure",
}
TEXT_INPUT_ROLES = {"textbox", "searchbox", "combobox", "spinbutton", "slider"}


def image_name(el: SnapshotElement) -> str:
    """What an image or icon is called: aria-label, else alt (an svg's <title> is its text)."""
    return el.attrs.get("aria-label") or (el.attrs.get("alt") if el.tag == "img" else "") or ""


def absorbs(node: "Node") -> bool:
    """Does this node's line carry its subtree's text (so non-interactive descendants print nothing)?"""
    return node.el.interactive or node.role == "heading"


def own_text(node: "Node") -> str:
    """The text a node's own line shows: its whole sentence when inline elements run through it (run_text),
    nothing when the node is itself inline inside another node's sentence (that line shows its text; an
    interactive one still prints its own element line)."""
    el = node.el
    if el.in_run and not el.interactive:
        return ""
    return el.run_text or el.text


def _quote(text: str, limit: int) -> str:
    text = " ".join(text.split())
    if len(text) > limit:
        text = text[: limit - 1] + "…"
    return '"' + text.replace('"', "'") + '"'


def accessible_name(node: "Node", tree: "PageTree") -> str:
    el = node.el
    a = el.attrs
    if a.get("aria-label"):
        return a["aria-label"]
    labelledby = a.get("aria-labelledby")
    if labelledby:
        parts = [tree.ids[(node.frame, i)].text for i in labelledby.split() if (node.frame, i) in tree.ids]
        if any(parts):
            return " ".join(p for p in parts if p)
    if el.tag in ("input", "select", "textarea"):
        if a.get("id") and (node.frame, a["id"]) in tree.labels:
            return tree.labels[(node.frame, a["id"])]
        p = node.parent
        for _ in range(4):  # a wrapping <label>
            if p is None:
                break
            if p.el.tag == "label":
                return p.text
            p = p.parent
        if el.tag == "input" and a.get("type", "").lower() in ("submit", "button", "reset") and el.value:
            return el.value
    for attr in ("alt", "title", "placeholder"):
        if a.get(attr):
            return a[attr]
    near = tree.near_labels.get(node.key)
    if near:  # no label of its own: the text beside it (tell_apart.near_labels)
        node.name_beside = True
        return near
    if el.tag == "select":
        return ""
    return node.text


# --------------------------------------------------------------------------- nameless elements (Region4Web App. D)

HINT_CHARS = 80
HINT_SEARCH = 40  # descendants looked at for an element's picture


def file_name(src: str) -> str:
    """The file name of an image URL ('/img/trail-blazer.jpg?w=80' -> 'trail-blazer.jpg'); '' for data: URLs."""
    src = src.strip()
    if not src or src.startswith(("data:", "blob:")):
        return ""
    path = urlsplit(src).path.rstrip("/")
    return unquote(path.rsplit("/", 1)[-1])[:HINT_CHARS]


def href_hint(href: str) -> str:
    """Where a link goes, shortly: host (no scheme, no www.) and path of an absolute URL, a relative one as
    written; '' for one going nowhere a person could tell ('#', javascript:)."""
    href = href.strip()
    if not href or href.startswith("#") or href.lower().startswith(("javascript:", "data:")):
        return ""
    parts = urlsplit(href)
    if parts.scheme in ("http", "https") and parts.netloc:
        host = parts.netloc.removeprefix("www.")
        href = host + parts.path + (f"?{parts.query}" if parts.query else "")
    href = "".join(href.split())
    return href if len(href) <= HINT_CHARS else href[: HINT_CHARS - 1] + "…"


def nameless_hint(node: "Node") -> str:
    """For an interactive element without an accessible name (an icon link, a thumbnail): its picture's file
    name and where it links, e.g. 'img=gear.svg href=/settings', so three icons never read alike."""
    el = node.el
    parts = []
    picture = _picture(node)
    if picture:
        parts.append(f"img={picture}")
    if el.tag in ("a", "area"):
        target = href_hint(el.attrs.get("href", ""))
        if target:
            parts.append(f"href={target}")
    return " ".join(parts)


def _picture(node: "Node") -> str:
    """The file name of the element's own image (input type=image) or of the first image inside it."""
    stack, seen = [node], 0
    while stack and seen < HINT_SEARCH:
        n = stack.pop()
        seen += 1
        el = n.el
        if el.tag == "img" or (el.tag == "input" and el.attrs.get("type", "").lower() == "image"):
            name = file_name(el.attrs.get("src", ""))
            if name:
                return name
        stack.extend(reversed([c for c in n.children if c.kept]))
    return ""


def sight_name(node: "Node", name: str) -> str:
    """The name of a control a person knows by sight: `name` (its accessible name) when that has words; else
    what its icon says, most trusted first: a title or aria-label inside it, the meaning of its glyph
    (icon_names.GLYPHS), the words of its icon's file or class name. A glyph stays in the name beside its
    meaning, '× (close)', so the line shows what the page shows (and its stable key stays the glyph's,
    identity.py)."""
    glyph = name if name and is_glyph(name) else ""
    if name and not glyph:
        return name
    # A swatch is an empty box (the snapshot's rule): its class says how it is laid out, its colour what it is.
    meaning = _said_inside(node) or glyph_meaning(glyph) or _swatch_words(node) or _icon_words(node)
    if not meaning:
        return name
    return with_meaning(glyph, meaning) if glyph else meaning


def _subtree(node: "Node"):
    """The node and its first rendered descendants in document order (at most HINT_SEARCH). Rendered, not
    seen: an icon whose font or picture did not load still says what it is by its class; a closed menu inside
    the control (no box at all) does not name it."""
    stack, seen = [node], 0
    while stack and seen < HINT_SEARCH:
        n = stack.pop()
        seen += 1
        yield n
        stack.extend(reversed([c for c in n.children if c.el.box is not None]))


def _said_inside(node: "Node") -> str:
    """A tooltip or label on something inside the control (<i class="fa fa-trash" title="Delete">)."""
    for n in _subtree(node):
        if n is not node:
            said = n.el.attrs.get("title") or n.el.attrs.get("aria-label")
            if said and said.strip():
                return said.strip()
    return ""


def _icon_words(node: "Node") -> str:
    """The words of the first icon file (an <img>'s, or one drawn by style: SnapshotElement.icon) or icon class
    in the control: 'icons/trash-can.svg' -> 'trash can', 'fa fa-reply' -> 'reply'."""
    for n in _subtree(node):
        a = n.el.attrs
        words = ((file_words(file_name(a["src"])) if "src" in a and _icon_sized(n.el.box) else "")
                 or (file_words(file_name(n.el.icon)) if n.el.icon else "") or class_words(a.get("class", "")))
        if words:
            return words
    return ""


def _swatch_words(node: "Node") -> str:
    """A colour picker's swatch by its colour: "red swatch #e60000" (the nearest CSS colour, then the code)."""
    code = node.el.swatch
    return f"{colour_name(code)} swatch {code}" if code else ""


def _icon_sized(box: Box | None) -> bool:
    """An image drawn as an icon, not a picture: smaller than IMAGE_MIN_PX each way. A product photo's file
    name ('trail-blazer-2.jpg') is no name a person reads; it stays the element's hint (nameless_hint)."""
    return box is not None and max(box.w, box.h) < IMAGE_MIN_PX


def _parent_name(node: "Node") -> str:
    """A nameless image's name from the element around it (a figure or wrapper with aria-label or title)."""
    parent = node.parent
    if parent is None or parent.el.interactive:  # an interactive parent shows it in its own line
        return ""
    return parent.el.attrs.get("aria-label") or parent.el.attrs.get("title", "")


def _options(node: "Node") -> list[str]:
    out: list[str] = []
    for c in node.children:
        if c.el.tag == "option":
            out.append(c.el.text)
        elif c.el.tag == "optgroup":
            out.extend(g.el.text for g in c.children if g.el.tag == "option")
    return out


def _selected_option(node: "Node") -> str | None:
    for c in node.children:
        if c.el.tag == "option" and c.el.selected:
            return c.el.text
        if c.el.tag == "optgroup":
            for g in c.children:
                if g.el.tag == "option" and g.el.selected:
                    return g.el.text
    return None


def _flag(attrs: dict[str, str], name: str) -> bool:
    return attrs.get(name, "false").lower() == "true"


def node_line(node: "Node", tree: "PageTree") -> str:
    """The outline line for one node ('' when it prints nothing). Sets node.name for interactive nodes."""
    el = node.el
    role = node.role
    if el.interactive:
        text_name = accessible_name(node, tree)
        node.name = sight_name(node, text_name)
        # An element named by its icon keeps the hint it had without a name (its picture, where it links).
        node.hint = "" if text_name else nameless_hint(node)
        return _element_line(node.index, role, node.name, el.tag, el.attrs,
                             _value_of(node), el.checked,
                             el.selected if el.selected is not None else selected_by_class(role, el.attrs),
                             [] if el.tag != "select" else _options(node), node.hint)
    if role == "heading":
        level = el.tag[1] if len(el.tag) == 2 and el.tag[0] == "h" else el.attrs.get("aria-level", "")
        suffix = f" [level={level}]" if level else ""
        return f"heading {_quote(node.text, NAME_CHARS)}{suffix}"
    if el.tag in ("img", "svg"):
        alt = image_name(el) or (el.text if el.tag == "svg" else "")
        if not alt and el.tag == "img" and "alt" not in el.attrs:  # alt="" says decorative; no alt says nothing
            alt = _parent_name(node) or file_name(el.attrs.get("src", ""))
        box = el.box
        big = el.tag == "img" and box is not None and box.w >= IMAGE_MIN_PX and box.h >= IMAGE_MIN_PX
        if not alt and not big:
            return ""
        line = f"img {_quote(alt, NAME_CHARS)}" if alt else "img"
        src = el.attrs.get("src", "")
        if big and src and not src.startswith("data:"):
            line += f" src={src[:120]}"
        return line
    if el.modal:  # the page behind it is inert: say so, it is why nothing else can be done
        line = role if role in ("dialog", "alertdialog") else "dialog"
        if el.attrs.get("aria-label"):
            line += " " + _quote(el.attrs["aria-label"], NAME_CHARS)
        return line + " [modal]" + (": " + el.text if el.text else "")
    if role in STRUCTURAL_ROLES:
        line = role
        if el.attrs.get("aria-label"):
            line += " " + _quote(el.attrs["aria-label"], NAME_CHARS)
        text = own_text(node)
        if text:
            line += ": " + text
        return line
    text = own_text(node)
    if text:
        return "text: " + text
    return ""


def _quote_ends(text: str, limit: int) -> str:
    """A long value with its start and its end: a text area's last words are as likely to be what the task asks for
    as its first ("Find the last word in the text area": cut at the end, the value never showed it)."""
    text = " ".join(text.split())
    if len(text) <= limit:
        return _quote(text, limit)
    head = limit * 2 // 3
    return _quote(f"{text[:head].rstrip()} … {text[-(limit - head - 3):].lstrip()}", limit + 1)


def _value_of(node: "Node") -> str | None:
    el = node.el
    if el.secret or (el.tag == "input" and el.attrs.get("type", "").lower() == "password"):
        return None
    if el.tag == "select":
        return _selected_option(node)
    if el.tag == "input" and el.attrs.get("type", "").lower() in ("submit", "button", "reset", "checkbox", "radio", "image"):
        return None
    return el.value


def _element_line(index: int, role: str, name: str, tag: str, attrs: dict[str, str], value: str | None,
                  checked: bool | None, selected: bool | None, options: list[str], hint: str = "") -> str:
    parts = [f"[{index}] {role}"]
    if name:
        parts.append(_quote(name, NAME_CHARS))
    if hint:
        parts.append(hint)
    itype = attrs.get("type", "").lower()
    if tag == "input" and role in ("textbox",) and itype not in ("", "text"):
        parts.append(f"type={itype}")
    elif tag == "textarea":
        parts.append("(text area)")  # what a person calls it ("paste it from the 1st text area"); its role is textbox
    if value and role in TEXT_INPUT_ROLES | {"listbox"} or (value and tag in ("input", "textarea", "select")):
        if not (tag == "input" and itype == "password"):
            parts.append("value=" + _quote_ends(value, VALUE_CHARS))
    states = []
    if checked or _flag(attrs, "aria-checked"):
        states.append("checked")
    if selected or _flag(attrs, "aria-selected"):
        states.append("selected")
    if "disabled" in attrs or _flag(attrs, "aria-disabled"):
        states.append("disabled")
    expanded = attrs.get("aria-expanded")
    if expanded == "true":
        states.append("expanded")
    elif expanded == "false":
        states.append("collapsed")
    if "required" in attrs or _flag(attrs, "aria-required"):
        states.append("required")
    if _flag(attrs, "aria-invalid"):
        states.append("invalid")
    parts.extend(f"[{s}]" for s in states)
    if options:
        shown = " | ".join(o[:40] for o in options[:MAX_OPTIONS])
        more = f" …(+{len(options) - MAX_OPTIONS})" if len(options) > MAX_OPTIONS else ""
        parts.append(f"options: {shown}{more}")
    return " ".join(parts)


def element_line(element: "Element") -> str:
    """One line per element for candidate lists: `[12] button "Add to cart"`."""
    return _element_line(element.index, element.role, element.name, element.tag, element.attrs,
                         None if element.is_password else element.value, element.checked, element.selected,
                         element.options, element.hint)


# --------------------------------------------------------------------------- details strings


def render_nodes(roots: list["Node"], shallow: set[tuple[int, int]] | None = None,
                 skip: set[tuple[int, int]] | None = None, depth: int = 0) -> list[str]:
    """Outline lines for the given subtrees. `shallow` roots print only their own line; `skip` subtrees
    print nothing (list items rendered separately)."""
    out: list[str] = []
    shallow = shallow or set()
    skip = skip or set()
    # Iterative walk: (node, depth, absorbed-by-ancestor).
    stack = [(r, depth, False, r.key in shallow) for r in reversed(roots)]
    while stack:
        node, d, absorbed, only_self = stack.pop()
        if not node.kept or node.key in skip:
            continue
        show = (not absorbed) or node.el.interactive
        line = node.line if show else ""
        if line:
            out.append("  " * d + "- " + line)
        if only_self:
            continue
        child_depth = d + 1 if line else d
        child_absorbed = absorbed or absorbs(node)
        for c in reversed(node.children):
            if c.kept:
                stack.append((c, child_depth, child_absorbed, False))
    return out


def details_string(lines: list[str]) -> str:
    return "\n".join(lines)


def list_details(header_lines: list[str], items: list[list[str]], label: str = "") -> str:
    """A list section: its non-item content, then items as a numbered list."""
    out = [f"list{(' ' + _quote(label, NAME_CHARS)) if label else ''} ({len(items)} items)"]
    out.extend(header_lines)
    for i, lines in enumerate(items, 1):
        out.append(f"item {i}:")
        out.extend("  " + line for line in lines)
    return "\n".join(out)


# --------------------------------------------------------------------------- content fingerprint

_INDEX = re.compile(r"\[\d+\] ")
_TYPED_VALUE = re.compile(r'^(\s*- \[\] (?:textbox|searchbox|spinbutton)\b[^\n]*?) value="[^"\n]*"', re.MULTILINE)


def content_fingerprint(details: str) -> str:
    """The key of the summary/purpose caches: sha256 of the details string without element indices
    (the same header on every page of a site numbers its links differently) and without typed values
    (what someone typed is not what the section is, and must not leak into a stored key)."""
    text = _INDEX.sub("[] ", details)
    if 'value="' in text:
        text = _TYPED_VALUE.sub(r"\1", text)
    return hash_text(text)


# --------------------------------------------------------------------------- remembered dropdowns

OPENS_SHOWN = 8  # hidden elements named per trigger: a few tokens each (paper figure 2)
OPENS_NAME_CHARS = 30
_OPENS = " (opens: "


def opens_note(names: list[str]) -> str:
    """' (opens: Delete selected, Mark shipped, …+3)': what a remembered trigger reveals when clicked."""
    shown = [" ".join(n.split())[:OPENS_NAME_CHARS] for n in names[:OPENS_SHOWN] if n.strip()]
    more = f", …+{len(names) - OPENS_SHOWN}" if len(names) > OPENS_SHOWN else ""
    return f"{_OPENS}{', '.join(shown)}{more})" if shown else ""


def with_opens_note(details: str, index: int, note: str) -> str:
    """The details string with `note` appended to the line of element [index] (once: a line that already has
    a note keeps it). The content fingerprint is of the page's own content and is not recomputed."""
    if not note:
        return details
    line = re.compile(rf"^(\s*- \[{index}\] [^\n]*)$", re.M)
    return line.sub(lambda m: m.group(1) if _OPENS in m.group(1) else m.group(1) + note, details, count=1)
