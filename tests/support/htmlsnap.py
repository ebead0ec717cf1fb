"""Hand-built Snapshots for unit tests: HTML in, a protocol.Snapshot out, without a browser.

Layout is a crude vertical stack (every text-bearing element is a 20 px line, containers span their
children), visibility follows `hidden`/`style="display:none"`, a `data-modal` attribute stands for the
browser's finding that the page behind a dialog is inert (SnapshotElement.modal), and interactivity follows
the content script's rules (links with href, buttons, inputs, widget roles, tabindex, onclick), as does where a
link or a form goes (`url`). Real-browser snapshots are tested separately (test_browser_fixtures.py); this keeps
pure-logic tests fast.
"""

from __future__ import annotations

from urllib.parse import urljoin

import lxml.html

from companion.protocol import Box, FrameSnapshot, Scroll, Snapshot, SnapshotElement, Viewport

KEPT = ("id", "class", "name", "type", "role", "href", "src", "alt", "title", "placeholder", "for",
        "tabindex", "contenteditable", "disabled", "method", "action", "formmethod", "formaction", "autocomplete", "multiple")
WIDGET_ROLES = {"button", "link", "checkbox", "radio", "tab", "menuitem", "option", "combobox", "textbox"}
SKIP = {"script", "style", "head", "meta", "link", "noscript", "template"}


def _resolved(base: str, ref: str) -> str:
    """`ref` against `base` as a browser resolves it ("?" is the page under an empty query; urljoin keeps base's)."""
    return base.split("#")[0].split("?")[0] + ref if ref.startswith("?") else urljoin(base, ref)


def snapshot_from_html(html: str, url: str = "http://127.0.0.1/page", title: str = "page",
                       width: float = 1280, ids: dict[str, int] | None = None) -> Snapshot:
    """`ids` pins element ids by id attribute or tree path (to model the same document changing): pass
    the `ids_of(snapshot)` of an earlier snapshot."""
    doc = lxml.html.document_fromstring(html)
    elements: list[SnapshotElement] = []
    counter = [max(ids.values()) + 1 if ids else 1]
    paths: dict[int, str] = {}

    def walk(node, parent_id, depth, y, hidden) -> float:
        tag = node.tag if isinstance(node.tag, str) else None
        if tag is None or tag in SKIP:
            return y
        a = {k: v for k, v in node.attrib.items() if k in KEPT or k.startswith("aria-")}
        path = doc.getroottree().getpath(node)
        if ids and a.get("id") in ids:
            eid = ids[a["id"]]
        elif ids and path in ids:
            eid = ids[path]
        else:
            eid = counter[0]
            counter[0] += 1
        style = node.attrib.get("style", "").replace(" ", "")
        hidden = hidden or "hidden" in node.attrib or "display:none" in style or tag == "option"
        text = " ".join((node.text or "").split() + [t for c in node for t in (c.tail or "").split()])
        interactive = (tag in ("button", "select", "textarea", "summary") or (tag == "input" and a.get("type") != "hidden")
                       or (tag == "a" and "href" in a) or a.get("role") in WIDGET_ROLES
                       or "onclick" in node.attrib or ("tabindex" in a and a["tabindex"].lstrip("-").isdigit() and int(a["tabindex"]) >= 0))
        paths[eid] = path
        rec = SnapshotElement(id=eid, parent=parent_id, tag=tag, attrs=a, text=text[:300],
                              interactive=interactive, modal="data-modal" in node.attrib and not hidden)
        if tag in ("a", "area") and "href" in a:  # resolved as the content script's targetUrl does
            rec.url = _resolved(url, a["href"])
        elif tag == "form":
            rec.url = _resolved(url, a["action"]) if a.get("action") else url
        if tag in ("input", "textarea", "select") and a.get("type") != "password":
            value = node.attrib.get("value") if tag == "input" else (node.text or "").strip() if tag == "textarea" else None
            if tag == "select":
                opts = node.findall(".//option")
                chosen = [o for o in opts if "selected" in o.attrib] or opts[:1]
                value = chosen[0].attrib.get("value", chosen[0].text_content().strip()) if chosen else None
            rec.value = value or None
            if a.get("type") in ("checkbox", "radio") and "checked" in node.attrib:
                rec.checked = True
        if tag == "option" and "selected" in node.attrib:
            rec.selected = True
        elements.append(rec)
        top = y
        if text or tag in ("input", "select", "textarea", "button", "img"):
            y += 20
        for child in node:
            y = walk(child, eid, depth + 1, y, hidden)
        h = y - top
        if h > 0 and not hidden:
            rec.box = Box(x=10 * depth, y=top, w=max(width - 20 * depth, 20), h=h)
            rec.visible = True
        return y if not hidden else top

    body_height = walk(doc, None, 0, 0.0, False)
    snap = Snapshot(url=url, title=title, viewport=Viewport(width=width, height=800),
                    scroll=Scroll(width=width, height=body_height),
                    frames=[FrameSnapshot(frame=0, url=url, elements=elements)])
    _PATHS[id(snap)] = paths
    return snap


_PATHS: dict[int, dict[int, str]] = {}


def ids_of(snapshot: Snapshot) -> dict[str, int]:
    """Element ids by id attribute and by tree path, to build a later snapshot of the same document."""
    out = {p: i for i, p in _PATHS[id(snapshot)].items()}
    for el in snapshot.frames[0].elements:
        if "id" in el.attrs:
            out[el.attrs["id"]] = el.id
    return out
