"""Forms built without a <form> tag: the container DividePage treats as a form section anyway.

Real sites often lay out a login or sign-up box as divs with inputs and a scripted button. The paper's IsForm
rule (two or more input-like elements and a submit-like button) is applied here to the DOM, conservatively,
so a search box, a product grid or a whole page never becomes a form. A node is form-like when:
  - it holds >= 2 text-like fields and 1 to 3 submit-like buttons (a grid of "Add to cart" cards has many);
  - none of its children holds both (it is the smallest such container), and no two of its children are
    a field with its own button (two independent boxes, say search and newsletter, are no form);
  - it holds no <form> (those are forms already), landmark (header, nav, main, footer, aside) or modal,
    and is not itself html, body or main: a page wrapper is no form;
  - form controls (fields and buttons) are at least half of its interactive elements (not a link hub).

Counts come from one bottom-up pass over the kept tree, done when first asked.

The same pass finds blocks wrapping one real <form> (wrapped_form): a block whose interactive elements all lie
in one form, say a "Contact us" section of heading, prose and form, is that form's section as a whole.
"""

from __future__ import annotations

from companion.pagemem.tree import Node, PageTree, is_modal, postorder
from companion.pagemem.widgets import is_submit_like, is_text_field


LANDMARK_TAGS = frozenset({"header", "nav", "main", "footer", "aside"})
LANDMARK_ROLES = frozenset({"banner", "navigation", "main", "contentinfo", "complementary"})
NEVER_FORM_TAGS = frozenset({"html", "body", "main"})
MAX_SUBMITS = 3


def is_control(node: Node) -> bool:
    el = node.el
    return (is_text_field(node) or el.tag in ("select", "input", "button", "textarea")
            or node.role in ("button", "checkbox", "radio", "switch", "combobox", "listbox", "slider", "spinbutton"))


def _is_real_form(node: Node) -> bool:
    return node.el.tag == "form" or node.role in ("form", "search")


def _blocks(node: Node) -> bool:
    """Inside a form-like container there is no real form, page landmark or dialog."""
    return (_is_real_form(node) or node.el.tag in LANDMARK_TAGS
            or node.role in LANDMARK_ROLES or is_modal(node))


class FormLikeFinder:
    def __init__(self, tree: PageTree) -> None:
        self.tree = tree
        self._form_like: set[int] | None = None
        self._holds_one: set[int] = set()  # ids of nodes with a form-like node strictly below
        # id of a node with real forms strictly below -> (how many, the first one): ancestors of forms only
        self._real_below: dict[int, tuple[int, Node]] = {}

    def is_form_like(self, node: Node) -> bool:
        self._ensure()
        return id(node) in self._form_like

    def holds_one_below(self, node: Node) -> bool:
        self._ensure()
        return id(node) in self._holds_one

    def wrapped_form(self, node: Node) -> Node | None:
        """The one real form strictly inside `node` when every interactive element of `node` is in it (what
        lies around it is its heading and prose), else None."""
        self._ensure()
        found = self._real_below.get(id(node))
        if found is None or found[0] != 1:
            return None
        form = found[1]
        return form if form.n_interactive == node.n_interactive and form.n_interactive > 0 else None

    def only_one_below(self, node: Node) -> Node | None:
        """The single form-like node inside `node` (outside any real form), or None (none, or several)."""
        if not self.holds_one_below(node):
            return None
        found: list[Node] = []
        stack = [c for c in node.children if c.kept and not _is_real_form(c)]
        while stack:
            n = stack.pop()
            if id(n) in self._form_like:
                found.append(n)
                if len(found) > 1:
                    return None
                continue
            if id(n) in self._holds_one:
                stack.extend(c for c in n.children if c.kept and not _is_real_form(c))
        return found[0] if found else None

    def _ensure(self) -> None:
        if self._form_like is not None:
            return
        self._form_like = set()
        # Per node: (text fields, submit-like buttons, controls, a form/landmark/modal strictly below)
        stats: dict[int, tuple[int, int, int, bool]] = {}
        for node in postorder(self.tree.roots, keep=lambda n: n.kept):
            texts = submits = controls = 0
            blocked = pair_in_child = holds = False
            widgets = 0  # children that are a field and a button of their own (a search box, a newsletter box)
            forms_below, first_form = 0, None
            for c in node.children:
                if not c.kept:
                    continue
                below = self._real_below.get(id(c))
                if below is not None:
                    forms_below += below[0]
                    first_form = first_form or below[1]
                if _is_real_form(c):
                    forms_below += 1
                    first_form = first_form or c
                t, s, k, b = stats[id(c)]
                texts, submits, controls = texts + t, submits + s, controls + k
                blocked = blocked or b or _blocks(c)
                pair_in_child = pair_in_child or (t >= 2 and s >= 1)
                widgets += t >= 1 and s >= 1
                # A real form's insides are its business: what lies in a <form> is a form section already.
                if not _is_real_form(c):
                    holds = holds or id(c) in self._form_like or id(c) in self._holds_one
            if node.el.interactive:
                texts += is_text_field(node)
                submits += is_submit_like(node, in_form=False)  # a form-like block holds no <form>
                controls += is_control(node)
            stats[id(node)] = (texts, submits, controls, blocked)
            if forms_below:
                self._real_below[id(node)] = (forms_below, first_form)
            if holds:
                self._holds_one.add(id(node))
            if (texts >= 2 and 1 <= submits <= MAX_SUBMITS and not pair_in_child and widgets < 2 and not blocked
                    and node.el.tag not in NEVER_FORM_TAGS and not _blocks(node)
                    and 2 * controls >= node.n_interactive):
                self._form_like.add(id(node))
