"""The MiniWoB++ tasks the bench runs, grouped by the behaviour they exercise, and the ones it leaves out.

The universe is the 125 tasks the `miniwob` package (1.1.0) registers as environments under html/miniwob/ (the
flight.* sites are FormWoB, not MiniWoB; five unregistered pages are no task). A task is left out when what it asks is
only in the picture (a canvas, an SVG drawing, the shapes, colours or positions of a drawing) or when it needs a
pointer path the agent's gestures do not make (drawing, sweeping a calendar, hovering for feedback): the agent acts
on DOM elements by name, so such a task measures nothing about it. Dragging an element onto another or in a
direction, moving a slider, resizing a box by its handle and selecting text are gestures the agent has
(companion/act/gestures.py, act/resize.py): those tasks are in.
Everything else stays in, hard or not.
"""

from __future__ import annotations

GROUPS: dict[str, list[str]] = {
    # One element the utterance names (a button, a link, a widget, a field to focus).
    "click": [
        "click-button", "click-button-sequence", "click-link", "click-test", "click-test-2", "click-test-transfer",
        "click-widget", "click-dialog", "click-dialog-2", "unicode-test", "sign-agreement", "focus-text",
        "focus-text-2", "ascending-numbers",
    ],
    # Tick boxes, pick list entries or options, set a spinner, pick a colour.
    "select": [
        "click-checkboxes", "click-checkboxes-large", "click-checkboxes-soft", "click-checkboxes-transfer",
        "click-option", "number-checkboxes", "choose-list", "click-scroll-list", "use-spinner", "odd-or-even",
        "use-colorwheel",
    ],
    # Text into one field, then submit.
    "type": [
        "enter-text", "enter-text-2", "enter-text-dynamic", "enter-password", "enter-date", "enter-time",
        "text-transform", "copy-paste", "copy-paste-2",
    ],
    # Several fields and controls, then submit.
    "forms": [
        "login-user", "login-user-popup", "form-sequence", "form-sequence-2", "form-sequence-3", "multi-layouts", "multi-orderings",
        "book-flight", "book-flight-nodelay",
    ],
    # A search box, its suggestions or results.
    "search": ["search-engine", "use-autocomplete", "use-autocomplete-nodelay", "phone-book"],
    # Open what hides the target: menus, tabs, collapsible sections, a file tree, a date picker.
    "navigation": [
        "click-menu", "click-menu-2", "click-pie", "click-pie-nodelay", "click-tab", "click-tab-2",
        "click-tab-2-easy", "click-tab-2-medium", "click-tab-2-hard", "click-collapsible",
        "click-collapsible-nodelay", "click-collapsible-2", "click-collapsible-2-nodelay", "navigate-tree",
        "choose-date", "choose-date-easy", "choose-date-medium", "choose-date-nodelay",
    ],
    # Small applications: find the item, then act on it over several steps; games with feedback.
    "multi-step": [
        "email-inbox", "email-inbox-delete", "email-inbox-forward", "email-inbox-forward-nl",
        "email-inbox-forward-nl-turk", "email-inbox-important", "email-inbox-nl-turk", "email-inbox-noscroll",
        "email-inbox-reply", "email-inbox-star-reply", "social-media", "social-media-all", "social-media-some",
        "terminal", "order-food", "buy-ticket", "stock-market", "guess-number", "generate-number", "tic-tac-toe",
    ],
    # Pointer gestures: drag an element onto another or into a list's place, move a slider, select text, resize,
    # style a selection in a rich-text editor.
    "gesture": [
        "drag-box", "drag-items", "drag-items-grid", "drag-sort-numbers", "use-slider", "use-slider-2",
        "highlight-text", "highlight-text-2", "resize-textarea", "text-editor",
    ],
    # The answer is read, or computed, from the page's text.
    "reading": [
        "read-table", "read-table-2", "find-word", "scroll-text", "scroll-text-2", "simple-algebra",
        "simple-arithmetic", "find-greatest",
    ],
}

_SVG = "the shapes to drag are an SVG drawing, which the snapshot does not walk: what they are is only in the picture"
_DRAW = "needs drawing"
_PICTURE = "what it asks is only in the picture (shapes, colours or positions of a drawing)"

EXCLUDED: dict[str, str] = {
    **{t: _SVG for t in ["drag-circle", "drag-single-shape", "drag-shapes", "drag-shapes-2"]},
    "drag-cube": "which side of a drawn 3D cube faces the user is only in the picture",
    "daily-calendar": "needs sweeping the pointer across the calendar's half-hour slots to create the event",
    "draw-circle": _DRAW,
    "draw-line": _DRAW,
    "count-sides": "reads a shape drawn on a canvas",
    **{t: _PICTURE for t in ["bisect-angle", "circle-center", "right-angle", "find-midpoint", "count-shape",
                             "identify-shape", "click-shape", "click-color", "click-shades", "grid-coordinate",
                             "visual-addition"]},
    "use-colorwheel-2": "the colour it asks for is only shown as a swatch (a box's background), in no words",
    "hot-cold": "needs moving the pointer over an area for hot/cold feedback",
}

TASKS: list[str] = [t for group in GROUPS.values() for t in group]
CATEGORY: dict[str, str] = {t: name for name, group in GROUPS.items() for t in group}


def select_tasks(tasks: list[str] | None = None, category: str | None = None) -> list[str]:
    """The tasks named (in the order given), or a category's, or every included task. ValueError naming the
    problem for an unknown or excluded task or an unknown category."""
    if tasks:
        problems = []
        for t in tasks:
            if t in EXCLUDED:
                problems.append(f"{t} is excluded: {EXCLUDED[t]}")
            elif t not in CATEGORY:
                problems.append(f"{t} is not a MiniWoB task")
        if problems:
            raise ValueError("; ".join(problems))
        return list(dict.fromkeys(tasks))
    if category:
        if category not in GROUPS:
            raise ValueError(f"unknown category {category!r}; known: {', '.join(GROUPS)}")
        return list(GROUPS[category])
    return list(TASKS)
