"""What a glyph or an icon means, for controls a person recognises by sight rather than by their text.

Why word tables: a close button drawn as "×", a menu button "☰" or a delete button holding only
<i class="fa fa-trash"> or <img src="icons/trash-can.svg"> has no text a task's words can meet ("close the
dialog", "delete the message"), yet every person reads it at once. The glyphs below are Unicode characters with
one conventional meaning on any site; icon words are the names icon sets (Font Awesome, Glyphicons, Bootstrap
Icons, Material, Octicons, Ionicons, jQuery UI, Quill's toolbar, ...) give their classes and files, with the sets'
own prefixes, sizes and colours stripped. Nothing here is the wording of one site.

Pure functions of strings: render.py asks them while naming an element (render.sight_name).
"""

from __future__ import annotations

import re

import webcolors

# One glyph, one meaning. Letters are left out: a lone "X" is as often a letter of an index or a size.
GLYPHS: dict[str, str] = {
    "×": "close", "✕": "close", "✖": "close", "✗": "close", "╳": "close",
    "☰": "menu", "≡": "menu",
    "⋮": "more", "⋯": "more", "…": "more", "...": "more",
    "✓": "done", "✔": "done",
    "★": "star", "☆": "star",
    "♥": "like", "♡": "like", "❤": "like",
    "🗑": "delete",
    "✎": "edit", "✏": "edit", "🖉": "edit",
    "⟳": "reload", "↻": "reload", "↺": "reload", "🔄": "reload",
    "←": "back", "⟵": "back", "→": "forward", "⟶": "forward",
    "‹": "previous", "«": "previous", "›": "next", "»": "next",
    "↑": "up", "↓": "down", "▲": "up", "▼": "down",
    "+": "add", "＋": "add", "➕": "add", "−": "remove", "➖": "remove",
    "🔍": "search", "🔎": "search", "⚙": "settings", "✉": "mail", "🔔": "notifications",
    "⌂": "home", "🏠": "home", "▶": "play", "⏸": "pause", "⏹": "stop",
    "📎": "attach", "🖨": "print", "🔒": "lock", "ℹ": "info", "ⓘ": "info", "⤓": "download",
}
# Emoji presentation selectors and joiners: "❤️" is "❤".
_PRESENTATION = re.compile("[\ufe0e\ufe0f\u200d]")

# Class or file-name tokens that start an icon's name: "fa-reply", "glyphicon-share", "icon-forward", "bi-trash".
ICON_PREFIXES = ("fa", "glyphicon", "icon", "icons", "bi", "mdi", "octicon", "ion", "ionicon", "ti", "la", "gg",
                 "ui-icon", "ic", "btn", "feather", "lucide", "codicon", "si", "material-icons",
                 # Rich-text editors' toolbars: Quill's "ql-bold", "ql-italic", "ql-link".
                 "ql")
# Words that say how an icon is drawn, not what it means: sets, styles, sizes, colours, layout helpers.
GENERIC_WORDS = frozenset({
    "fa", "fas", "far", "fal", "fad", "fab", "fat", "fass", "solid", "regular", "light", "thin", "duotone", "brands",
    "sharp", "icon", "icons", "glyphicon", "glyphicons", "bi", "mdi", "octicon", "ion", "ionicon", "ios", "md",
    "ti", "la", "las", "lar", "lab", "gg", "ui", "ic", "svg", "inline", "img", "image", "btn", "button", "feather",
    "lucide", "codicon", "si", "material", "symbols", "outlined", "rounded", "round", "outline", "filled", "fill",
    "line", "alt", "o", "fw", "lg", "sm", "xs", "xl", "xxl", "2xs", "md", "small", "large", "big", "mini", "tiny",
    "medium", "spin", "pulse", "flip", "rotate", "inverse", "border", "stack",
    "primary", "secondary", "success", "danger", "warning", "dark", "muted", "default", "circle", "square",
    "white", "black", "gray", "grey", "red", "green", "blue", "yellow", "orange", "purple", "disabled", "active",
    "px", "dp", "sprite", "sprites", "thick",
    # The state a picture is drawn for ("share-hover.png", "star_selected.svg"): a control whose picture changes when
    # clicked kept its name, so a second click is seen as one on the same control, not a new one ("share hover").
    "hover", "hovered", "over", "pressed", "focus", "focused", "selected", "highlight", "highlighted", "normal",
    "inactive",
})
# Icon-set names that are no everyday word for what the icon does.
ICON_SYNONYMS = {"times": "close", "xmark": "close", "bars": "menu", "hamburger": "menu", "ellipsis": "more",
                 "kebab": "more", "cog": "settings", "gear": "settings", "pencil": "edit",
                 "closethick": "close"}
_WORD = re.compile(r"[a-z]+")
_CAMEL = re.compile(r"(?<=[a-z])(?=[A-Z])")
MAX_WORDS = 4


def glyph_meaning(text: str) -> str:
    """The meaning of a text that is one known glyph ("×" -> "close"); '' for anything else."""
    return GLYPHS.get(_PRESENTATION.sub("", text).strip(), "")


def is_glyph(text: str) -> bool:
    """A short text with no letter or digit in it ("×", "⋮", "+"), or a known glyph: drawn, not written."""
    bare = _PRESENTATION.sub("", text).strip()
    return bool(bare) and (bare in GLYPHS or (len(bare) <= 3 and not any(c.isalnum() for c in bare)))


# A compass letter ending an icon's name is the way it points: jQuery UI's "triangle-1-n" and "triangle-1-s" are a
# spinner's up and down, which read alike ("triangle") without it.
_COMPASS = {"n": "up", "s": "down", "e": "right", "w": "left", "ne": "up right", "nw": "up left", "se": "down right",
            "sw": "down left"}


def _words(raw: str) -> str:
    """Meaningful words of an icon token: split on - _ . and camelCase, drawing words dropped, set names mapped."""
    tokens = _WORD.findall(_CAMEL.sub(" ", raw).lower())
    way = _COMPASS.get(tokens[-1], "") if len(tokens) > 1 else ""
    words = [w for w in (tokens[:-1] if way else tokens) if w not in GENERIC_WORDS and len(w) > 1]
    if words and way:
        words.append(way)
    if not words or len(words) > MAX_WORDS:
        return ""
    return " ".join(ICON_SYNONYMS.get(w, w) for w in words)


def class_words(classes: str) -> str:
    """The icon's name in a class attribute: "fa fa-reply" -> "reply", "glyphicon glyphicon-share" -> "share",
    "bi bi-trash3-fill" -> "trash"; '' when no class is an icon set's (a layout class names nothing)."""
    tokens = classes.split()
    for token in tokens:
        low = token.lower()
        for prefix in ICON_PREFIXES:
            if low.startswith(prefix + "-") or low.startswith(prefix + "_"):
                words = _words(token[len(prefix) + 1:])
                if words:
                    return words
        if low.endswith(("-icon", "_icon")):  # "trash-icon"
            words = _words(token[:-5])
            if words:
                return words
    return ""


def file_words(file_name: str) -> str:
    """The icon's name in its file name: "trash-can.svg" -> "trash can", "ic_reply_24px.png" -> "reply";
    '' for a name without words (a photo's "IMG_2031.jpg")."""
    stem = file_name.rsplit(".", 1)[0] if "." in file_name else file_name
    return _words(stem)


def ligature_words(text: str) -> str:
    """A Material-style ligature ("delete_forever") as words."""
    return " ".join(text.replace("_", " ").split())


def with_meaning(glyph: str, meaning: str) -> str:
    """The name of a glyph-only control: the glyph a person sees and what it means, '× (close)'."""
    return f"{glyph} ({meaning})"


_GLYPH_NAMED = re.compile(r"^(\S{1,3}) \(.+\)$", re.S)


def seen_glyph(name: str) -> str:
    """The glyph of a name with_meaning made ("× (close)" -> "×"), else the name itself: stable keys stay
    those of the glyph's text, as before the meaning was added (pagemem/identity.py)."""
    m = _GLYPH_NAMED.match(name)
    return m.group(1) if m and is_glyph(m.group(1)) else name


def colour_distance(code: str, name: str) -> int:
    """How far a #rrggbb code is from a CSS colour (squared distance of their red, green and blue)."""
    return sum((a - b) ** 2 for a, b in zip(webcolors.hex_to_rgb(code), webcolors.name_to_rgb(name)))


def colour_name(code: str) -> str:
    """The CSS colour nearest to a #rrggbb code ("#e60000" -> "red"): what a person calls a swatch of it."""
    return min(_CSS_NAMES, key=lambda name: colour_distance(code, name))


_CSS_NAMES = sorted(webcolors.names(webcolors.CSS3))
