"""Selectors for one snapshot element that a tool outside this product can find it by again.

An element's wire address (frame, id) means nothing outside the document it came from, so a recorded action
also keeps how a person's tools would address its target: a unique `#id`, a unique `tag[name=...]`, the
accessible name (`aria/Name`, Puppeteer's ARIA query) and a CSS path of `tag:nth-of-type(k)` steps from the
nearest ancestor with a unique id. Each is given only when the snapshot proves it right: Puppeteer races the
selectors of a step, so a wrong one could win.
"""

from __future__ import annotations

import re

from companion.protocol import Snapshot

_PLAIN_ID = re.compile(r"^[A-Za-z_][A-Za-z0-9_-]*$")


def _css_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _id_selector(value: str) -> str:
    return f"#{value}" if _PLAIN_ID.match(value) else f"[id={_css_string(value)}]"


def element_info(snapshot: Snapshot, frame: int, element: int) -> dict | None:
    """Selectors, click offset and form state of one element (None: not in the snapshot)."""
    from companion.pagemem.render import accessible_name
    from companion.pagemem.tree import build_tree

    frame_snap = next((f for f in snapshot.frames if f.frame == frame), None)
    if frame_snap is None:
        return None
    by_id = {el.id: el for el in frame_snap.elements}
    el = by_id.get(element)
    if el is None:
        return None
    ids: dict[str, int] = {}
    names: dict[tuple[str, str], int] = {}
    children: dict[int | None, list] = {}
    for other in frame_snap.elements:
        if other.attrs.get("id"):
            ids[other.attrs["id"]] = ids.get(other.attrs["id"], 0) + 1
        if other.attrs.get("name"):
            key = (other.tag, other.attrs["name"])
            names[key] = names.get(key, 0) + 1
        children.setdefault(other.parent, []).append(other)

    selectors: list[list[str]] = []
    own_id = el.attrs.get("id")
    if own_id and ids.get(own_id) == 1:
        selectors.append([_id_selector(own_id)])
    if el.attrs.get("name") and names.get((el.tag, el.attrs["name"])) == 1:
        selectors.append([f"{el.tag}[name={_css_string(el.attrs['name'])}]"])
    tree = build_tree(snapshot)
    node = tree.nodes.get((frame, element))
    name = " ".join(accessible_name(node, tree).split()) if node is not None else ""
    if name and len(name) <= 80 and not re.search(r"[\[\]\"]", name):
        selectors.append([f"aria/{name}"])
    path = None if el.in_shadow else _css_path(el, by_id, children, ids)
    if path and [path] not in selectors:
        selectors.append([path])
    box = el.box
    info = {"selectors": selectors, "tag": el.tag, "role": node.role if node is not None else "", "type": el.attrs.get("type", ""), "name": name,
            "offset": [round(box.w / 2, 1), round(box.h / 2, 1)] if box and box.w > 0 and box.h > 0 else [1, 1]}
    if el.value is not None:
        info["value"] = el.value
    if el.checked is not None:
        info["checked"] = el.checked
    return info


def _css_path(el, by_id: dict, children: dict, ids: dict) -> str | None:
    """`#anchor > div:nth-of-type(2) > a:nth-of-type(1)`, from the nearest ancestor with a unique id (or the
    document root). None when a step cannot be proven: an ancestor outside the snapshot, a shadow root."""
    parts: list[str] = []
    current = el
    for _ in range(60):
        anchor = current.attrs.get("id")
        if current is not el and anchor and ids.get(anchor) == 1:
            parts.append(_id_selector(anchor))
            return " > ".join(reversed(parts))
        if current.in_shadow:
            return None
        siblings = [s for s in children.get(current.parent, []) if s.tag == current.tag and not s.in_shadow]
        if current.parent is None:
            parts.append(current.tag)  # html: the root
            return " > ".join(reversed(parts)) if current.tag == "html" else None
        parts.append(f"{current.tag}:nth-of-type({siblings.index(current) + 1})")
        current = by_id.get(current.parent)
        if current is None:
            return None
    return None
