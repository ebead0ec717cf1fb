"""UpdatePageMem and UpdateSection (WebChallenger, Algorithm 2): refresh a PageMem from a new snapshot of
the same page and report what changed per section.

Sections keep their identity (id, summaries, purpose, extraction cache); only their elements and
rendered content are re-read from the subtrees they cover. Elements are matched by their stable
(frame, id); a removed and an added element that are the same widget by identity (tag, role, name,
selector attributes) are paired, because frameworks re-create nodes on re-render. A section is marked
for re-summary when it has no summary or when >= 3 elements were added or removed. List sections are
rebuilt from their container, always re-summarized, and return an empty diff (item-level tracking is
the observation pipeline's job). Elements that appear outside every known section (a popup, a modal)
form new sections, cut the way DividePage would cut them.
"""

from __future__ import annotations

from pydantic import BaseModel, Field

from companion.pagemem.divide import DivideOptions, Divider, Region, divide_tree, make_element
from companion.pagemem.model import Element, PageMem, PageSection
from companion.pagemem.render import content_fingerprint, details_string, node_line, render_nodes
from companion.pagemem.template import normalize_classes
from companion.pagemem.tokens import count_tokens
from companion.pagemem.tree import Node, PageTree, build_tree, reindex
from companion.protocol import Snapshot

RESUMMARY_CHANGES = 3


class ElementChange(BaseModel):
    before: Element
    after: Element


class SectionDiff(BaseModel):
    section_id: str
    added: list[Element] = Field(default_factory=list)
    removed: list[Element] = Field(default_factory=list)
    modified: list[ElementChange] = Field(default_factory=list)

    @property
    def empty(self) -> bool:
        return not (self.added or self.removed or self.modified)


class PageUpdate(BaseModel):
    diffs: dict[str, SectionDiff] = Field(default_factory=dict, description="by section id, every surviving section")
    added_sections: list[str] = Field(default_factory=list)
    removed_sections: list[PageSection] = Field(default_factory=list)

    @property
    def added_elements(self) -> list[Element]:
        return [e for d in self.diffs.values() for e in d.added]

    @property
    def empty(self) -> bool:
        """Nothing was added, removed or modified on the page."""
        return not self.added_sections and not self.removed_sections and all(d.empty for d in self.diffs.values())


# A revealed listbox/menu is the container of the options, not an option: offering it would be a no-op.
CONTAINER_ROLES = {"listbox", "menu", "menubar", "tree", "grid", "tablist", "radiogroup", "group", "list"}


def revealed_elements(added: list[Element], trigger: Element) -> list[Element]:
    """What a click on `trigger` revealed, from the elements an update added: the enabled ones other than the
    trigger, and of those the options rather than their listbox/menu container (unless only containers came)."""
    out = [e for e in added if not e.disabled and e.key != trigger.key]
    leaves = [e for e in out if e.role not in CONTAINER_ROLES]
    return leaves or out


def update_page_mem(pagemem: PageMem, snapshot: Snapshot, options: DivideOptions | None = None) -> PageUpdate:
    """Refresh `pagemem` in place from `snapshot` (the same page, later) and return the per-section diffs."""
    options = options or DivideOptions()
    tree = build_tree(snapshot)
    pagemem.next_index = reindex(tree, {e.key: e.index for e in pagemem.all_elements()}, pagemem.next_index)
    pagemem.title = snapshot.title
    update = PageUpdate()
    divider = Divider(tree, options)
    survivors: list[PageSection] = []
    for section in pagemem.sections:
        if not any(_live(tree, r.frame, r.id) for r in section.roots):
            update.removed_sections.append(section)
            continue
        update.diffs[section.id] = update_section(section, tree, divider)
        survivors.append(section)
    covered = {e.key for s in survivors for e in s.all_elements()}
    fresh = _new_sections(tree, snapshot, options, covered)
    used = {s.id for s in survivors}
    n = len(pagemem.sections) + len(update.removed_sections)
    for s in fresh:
        n += 1
        while f"s{n}" in used:
            n += 1
        sid = f"s{n}"
        used.add(sid)
        s.id = sid
        for j, item in enumerate(s.items, 1):
            item.id = f"{sid}.{j}"
        update.added_sections.append(sid)
        update.diffs[sid] = SectionDiff(section_id=sid, added=list(s.all_elements()))
    sections = survivors + fresh
    sections.sort(key=lambda s: _order(tree, s))
    pagemem.sections = sections
    return update


def update_section(section: PageSection, tree: PageTree, divider: Divider) -> SectionDiff:
    """Re-read one section's elements from `tree`, update it in place, and return the diff."""
    if section.kind == "list":
        _rebuild_list(section, tree, divider)
        return SectionDiff(section_id=section.id)
    roots = [tree.nodes[(r.frame, r.id)] for r in section.roots if _live(tree, r.frame, r.id)]
    shallow = {(r.frame, r.id) for r in section.shallow_roots}
    old = list(section.elements)
    new = divider.elements_of(roots, shallow, set())
    diff = _diff(section.id, old, new, tree)
    lines = render_nodes(roots, shallow)
    section.elements = new
    section.details = details_string(lines)
    section.tokens = count_tokens(section.details)
    section.content_hash = content_fingerprint(section.details)
    if section.summary is None or len(diff.added) + len(diff.removed) >= RESUMMARY_CHANGES:
        section.needs_summary = True
    return diff


def _diff(section_id: str, old: list[Element], new: list[Element], tree: PageTree) -> SectionDiff:
    old_by_key = {e.key: e for e in old}
    new_keys = {e.key for e in new}
    added = [e for e in new if e.key not in old_by_key]
    removed = [e for e in old if e.key not in new_keys]
    # Re-created nodes: same widget under a new id keeps its index and agent state.
    by_identity: dict[tuple, list[Element]] = {}
    for e in removed:
        by_identity.setdefault(e.identity_key(), []).append(e)
    paired: list[tuple[Element, Element]] = []
    still_added = []
    for e in added:
        twins = by_identity.get(e.identity_key())
        if twins:
            paired.append((twins.pop(0), e))
        else:
            still_added.append(e)
    paired_old = {id(o) for o, _ in paired}
    removed = [e for e in removed if id(e) not in paired_old]
    modified: list[ElementChange] = []
    for e in new:
        before = old_by_key.get(e.key)
        if before is not None:
            _carry_state(before, e)
            if before.content_key() != e.content_key():
                modified.append(ElementChange(before=before, after=e))
    for before, after in paired:
        after.index = before.index
        node = tree.nodes.get(after.key)
        if node is not None:
            node.index = before.index
            node.line = node_line(node, tree)
        _carry_state(before, after)
        if before.content_key() != after.content_key():
            modified.append(ElementChange(before=before, after=after))
    return SectionDiff(section_id=section_id, added=still_added, removed=removed, modified=modified)


def _carry_state(before: Element, after: Element) -> None:
    after.clicked = before.clicked
    after.explored = before.explored
    after.dropdown_elements = list(before.dropdown_elements)


def _rebuild_list(section: PageSection, tree: PageTree, divider: Divider) -> None:
    container = tree.nodes.get((section.container.frame, section.container.id)) if section.container else None
    roots = [tree.nodes[(r.frame, r.id)] for r in section.roots if _live(tree, r.frame, r.id)]
    key = (section.item_tag, normalize_classes(section.item_classes))
    items: list[Node] = []
    if container is not None and container.kept:
        items = [c for c in container.kept_children() if (c.el.tag, normalize_classes(c.el.attrs.get("class", ""))) == key]
    if container is not None and roots and all(r.parent is container for r in roots):
        roots = items  # a run-of-siblings list: its roots are the items themselves
    if not items or not roots:
        # The repeated items are gone: what is left is an ordinary section over the same roots.
        section.kind = "normal"
        section.items = []
        update_section(section, tree, divider)
        section.needs_summary = True
        return
    old_by_key = {e.key: e for e in section.all_elements()}
    fresh = divider.build_list_section(Region("list", roots, container=container, items=items))
    for e in fresh.all_elements():
        before = old_by_key.get(e.key)
        if before is not None:
            _carry_state(before, e)
    section.roots = fresh.roots
    section.elements = fresh.elements
    section.items = fresh.items
    for j, item in enumerate(section.items, 1):
        item.id = f"{section.id}.{j}"
    section.details, section.tokens, section.content_hash = fresh.details, fresh.tokens, fresh.content_hash
    section.box = fresh.box
    section.needs_summary = True


def _new_sections(tree: PageTree, snapshot: Snapshot, options: DivideOptions, covered: set) -> list[PageSection]:
    uncovered = {n.key for n in tree.nodes.values() if n.kept and n.el.interactive and n.key not in covered}
    if not uncovered:
        return []
    out: list[PageSection] = []
    divider = Divider(tree, options)
    for s in divide_tree(tree, snapshot.url, snapshot.title, options).sections:
        keys = [e.key for e in s.all_elements()]
        if not keys or not any(k in uncovered for k in keys):
            continue
        if all(k in uncovered for k in keys):
            out.append(s)
            continue
        # Mixed with known elements: the new ones form a group of their own (Region4Web's "added" group).
        nodes = [tree.nodes[k] for k in keys if k in uncovered]
        region = Region("normal", nodes)
        d = details_string(render_nodes(nodes))
        out.append(divider.build_section(region, d, count_tokens(d)))
    return out


def _live(tree: PageTree, frame: int, eid: int) -> bool:
    node = tree.nodes.get((frame, eid))
    return node is not None and node.kept


def _order(tree: PageTree, section: PageSection) -> int:
    for r in section.roots:
        node = tree.nodes.get((r.frame, r.id))
        if node is not None and node.kept:
            return node.order
    return 1 << 30


__all__ = ["ElementChange", "PageUpdate", "SectionDiff", "make_element", "update_page_mem", "update_section"]
