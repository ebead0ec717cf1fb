"""Fields the task names that are not set yet, checked before a submit-like click (pure functions).

"Select Iceland from the list and click Submit" and "Select ky7, F01Kwi and click Submit": a small model often
clicks Submit first, or after one of three boxes, and a scripted page scores the form as it is then. The
paper's SubmitForm fills the chosen fields before it submits; a submit button outside any form is a plain
click, so this is the same precondition for it: a checkbox or radio whose label the task names, unchecked, or
a native select with an option the task names while another is selected, a list that keeps several options (a
multiple select) with one the task names not selected, or a number or range input holding another number than
the task's one, is the task's, unfinished. The
click is refused once per (button, unfinished fields) in a task, with what is left to set; the button is offered
again after the next action, so the model sets them or, choosing it again, submits anyway (the task may name a
label for another reason).

Only labels and option texts of at least two characters that the task contains as whole words count. For text
fields, a value the task quotes ('Enter "Kasie" into the text field') that no field holds while a text field
is still empty is unset too, as is the task's date, time or number for an empty date, time or number input
('Enter 02/18/2018 as the date', 'Enter 5:37 PM as the time': FORMATS); a
quoted phrase that names an element of the page ('the "Submit" button') is a reference, not a value. A secret field's value is never read: filled or empty is all that is known of it.

value_named_for: a quoted value the task puts next to a field's own words ('the password "DYh"', '"Ada" as the
first name'), or one written after a field's word and a colon ('(username: admin, password: x)', as WebArena's
tasks give credentials), is that field's value, typed without a call, and so is the task's one date for a date
input or one email address for an email input, and the one name the task sends something to ("forward that
email to Mariya") for a field named "To" (recipient_for). Asked, the default model typed the username "sergio"
into the password field too, and the sender's name into a forward's "to" field. copied_value: the value of the field
the task copies from by its place ("from the 2nd text area"), for the field it pastes into. near_value_for: an
unquoted name or number right after a word naming the field ("directed by Klein" for "Director Name"). page_value_for:
for a task pointing at "the value that corresponds with each label", the value a key/value table pairs with it.

named_values_held and names_action are the counterpart of the Submit refusal, for the review's "leave": a form
whose fields hold every value the task names for them, and whose submit button (or label) the task names ("Log in
to the shop admin (username: ..., password: ...)", button "Log in"), is the task's to submit. The default model
left such a log-in form, "the form does not provide any information about the product's stock": it judged the
whole task, not the form.
"""

from __future__ import annotations

import re
from typing import Iterator

from companion.act.elements import is_checkable, is_empty, is_form_field, is_native_select, label
from companion.act.search_for import control_names
from companion.observe.outline import all_nodes, parse_outline
from companion.observe.rows import key_value
from companion.pagemem.model import Element, PageMem, PageSection
from companion.pagemem.widgets import is_slider, is_text_field
from companion.task_asks import set_request
from companion.text import (
    COUNTS, ORDINAL, STOPWORDS, names_in, normalized, place, quoted_as_written, quoted_spans, singular, split_camel,
    states_the_task, whole_words,
)

# On a page this small every field belongs with its one submit button (and with the task's end); on a larger one
# a label the task names may be there for another reason, so only the clicked button's section counts.
SMALL_PAGE_ELEMENTS = 40


# An input type that fixes a format: the task's one value in that format is what such a field is for
# ("Enter 02/18/2018 as the date": nothing quoted, and the default model clicked Submit on the empty field; "Enter
# 5:37 PM as the time": the same with a time field). A number is the task's one number not part of a date, a time or
# a word ("SKU KT-1002" is none).
_NUMBER = re.compile(r"(?<![\w/:.,-])-?\d+(?:\.\d+)?(?![\w/:-]|[.,]\d)")
FORMATS = {
    "date": re.compile(r"(?<![\w/-])(?:\d{1,2}/\d{1,2}/\d{4}|\d{4}-\d{2}-\d{2})(?![\w/-])"),
    "email": re.compile(r"(?<![\w.+-])[\w.+-]+@[\w-]+(?:\.[\w-]+)+"),
    "time": re.compile(r"(?<![\w:])\d{1,2}:\d{2}(?::\d{2})?(?:\s?[AaPp]\.?[Mm]\b)?(?![\w:])"),
    "number": _NUMBER,
    "range": _NUMBER,
}


def formatted_value(task: str, el: Element) -> str | None:
    """The one value of the task in the format this input's type fixes (a date, an email address), or a text field
    named as a date ("Departure Date", often a date picker's plain text input), else None."""
    pattern = FORMATS.get(el.input_type) if el.tag == "input" else None
    if pattern is None and el.role == "spinbutton":  # a script spinner's text input (jQuery UI's): a number
        pattern = _NUMBER
    if pattern is None and is_text_field(el) and "date" in field_words(el):
        pattern = FORMATS["date"]
    found = list(dict.fromkeys(pattern.findall(task))) if pattern else []
    return found[0] if len(found) == 1 else None


def fields_in_scope(pagemem: PageMem, section: PageSection | None = None) -> list[Element]:
    """The fields whose state the task's names are checked against: every element of a small page
    (SMALL_PAGE_ELEMENTS), else those of `section` (the clicked button's), else none."""
    everything = list(pagemem.all_elements())
    if len(everything) <= SMALL_PAGE_ELEMENTS:
        return everything
    return list(section.all_elements()) if section is not None else []


def untyped_values(task: str, fields: list[Element], typed_secrets: frozenset[tuple[int, int]] | set[tuple[int, int]] = frozenset()) -> list[str]:
    """Values the task quotes that no text field of `fields` holds, while one of them is still empty, and the
    task's value in an empty date or email field's format."""
    texts = [e for e in fields if is_text_field(e) and not e.disabled]
    empty = [e for e in texts if is_empty(e, typed_secrets)]
    if not empty:
        return []
    held = {normalized(e.value or "") for e in texts if not e.is_password}
    names = {normalized(n) for e in fields for n in (e.name, e.text) if n}
    bounds = affixes(task)
    fitted = {normalized(a) for a in bounds if a} if bounds and any(fits_affixes(v, *bounds) for v in held) else set()
    quoted = [q for q in quoted_as_written(task) if normalized(q) not in held | names | fitted]
    formatted = [v for e in empty if (v := formatted_value(task, e)) and normalized(v) not in held]
    return list(dict.fromkeys(quoted + formatted))


# "an item that starts with "Ni" and ends with "ria"": the value is not given, only how it begins and ends.
_AFFIX = re.compile(r"\b(?P<which>start|begin|end)(?:s|ing)?\s+with\s+[\"“']?(?P<text>[^\"”'\s,.;]+)", re.I)


def affixes(task: str) -> tuple[str, str] | None:
    """How the value the task asks for begins and ends ("starts with "Ni" and ends with "ria"": ("Ni", "ria");
    either may be ""), or None when the task says neither."""
    start = end = ""
    for m in _AFFIX.finditer(task):
        if m.group("text").lower() in STOPWORDS:  # "begin with the end in mind"
            continue
        if m.group("which").lower() == "end":
            end = end or m.group("text")
        else:
            start = start or m.group("text")
    return (start, end) if start or end else None


def fits_affixes(text: str, start: str, end: str) -> bool:
    t = text.strip().lower()
    return bool(t) and t.startswith(start.lower()) and t.endswith(end.lower())


def unset_named(task: str, fields: list[Element], typed_secrets: frozenset[tuple[int, int]] | set[tuple[int, int]] = frozenset()) -> list[str]:
    """What the task names among `fields` that is not in the state it names, as short phrases for the model."""
    left: list[str] = [f'"{v}" is not typed into a field yet' for v in untyped_values(task, fields, typed_secrets)]
    if not left and (unplaced := words_unplaced(task, fields, typed_secrets)):
        words, empty = unplaced
        left.append(f'the task\'s words "{words}" are in no field, and {label(empty)} is empty')
    return (left + [what for el in fields if (what := unset_choice(task, el))] + counted_unchecked(task, fields)
            + unset_sliders(task, fields))


# A number, whole or decimal, in a list too ("[15,13,15]", which _NUMBER does not split); a sentence's full stop after
# it ends it ("Set the volume to 25.").
LISTED_NUMBER = re.compile(r"(?<![\w.])[-+]?\d+(?:\.\d+)?(?!\w|\.\d)")


def slider_values(task: str, sliders: list[Element]) -> list[str] | None:
    """Each slider's value when the task gives as many numbers as the page has sliders, in page order (a lone slider
    and one number; "Set the sliders to the combination [20,10,11]": the second slider's is 10); else None."""
    numbers = LISTED_NUMBER.findall(task)
    return numbers if sliders and len(numbers) == len(sliders) else None


def unset_sliders(task: str, fields: list[Element]) -> list[str]:
    """The sliders drawn by a script (role=slider, a library's handle) the task gives a value for that do not hold it:
    a value they say (aria-valuenow) that differs, or none said and the agent never moved them. "Select 5 with the
    slider, click the 3rd checkbox, then hit Submit": the default model ticked the box and submitted. A range input
    is unset_choice's (its value is always known)."""
    sliders = [e for e in fields if is_slider(e) and not e.disabled]
    values = slider_values(task, sliders) or []
    left = []
    for at, (el, value) in enumerate(zip(sliders, values), 1):
        if el.tag == "input":
            continue
        now = slider_now(el)
        held = same_number(now, value) if now is not None else el.clicked
        if not held:
            where = f" ({at} of {len(sliders)})" if len(sliders) > 1 else ""
            left.append(f"the slider{where} is not set to {value}")
    return left


def slider_now(el: Element) -> str | None:
    """The value a slider says it holds: a range input's value, else aria-valuenow (None: it says none)."""
    return el.value if el.tag == "input" else el.attrs.get("aria-valuenow")


def same_number(a: str, b: str) -> bool:
    try:
        return float(a) == float(b)
    except ValueError:
        return False


def counted_unchecked(task: str, fields: list[Element]) -> list[str]:
    """The boxes and radios the task counts by kind ("click the 2nd checkbox"), unchecked: the default model set the
    slider the task asks for and pressed Submit with the counted box unticked."""
    return [f"{label(of_kind[at - 1])} ({m.group(0)}, {at} of {len(of_kind)}) is not checked"
            for m, of_kind, at in counted_controls(task, fields)
            if re.match(r"check|radio", m.group("kind"), re.I) and 1 <= at <= len(of_kind) and not of_kind[at - 1].checked]


def counted_controls(task: str, elements: list[Element]) -> Iterator[tuple[re.Match[str], list[Element], int]]:
    """Each control the task counts by kind ("the 2nd checkbox", "the third button"): the match, the enabled
    elements of that kind in page order, and the 1-based place it names (not checked against their number)."""
    for m in NTH_KIND.finditer(task):
        of_kind = [e for e in elements if of_named_kind(m.group("kind"), e) and not e.disabled]
        yield m, of_kind, place(m.group("nth"), len(of_kind))


# Words that say what to do or where, not a value to type ("Search for saga movies ... and press Submit").
_ACTING_WORDS = frozenset("search find look enter type fill write input put submit send press click select choose pick "
                          "set form field box button page item result show get go open".split())
STEM = 5  # "directed" and "Director" share "direc": the word names the field, it is not its value
MAX_UNPLACED = 3  # more words left over: a sentence about something else, not a value for the field


def words_unplaced(task: str, fields: list[Element],
                   typed_secrets: frozenset[tuple[int, int]] | set[tuple[int, int]] = frozenset()) -> tuple[str, Element] | None:
    """The task's words that no field holds and no field or control names, and the one empty text field the task
    does not name, when other text fields hold what the task gave: "Search for saga movies directed by Gay from year
    2001" with "Gay" and "2001" typed leaves "saga movies" for the empty "Genre" (the default model typed the director and
    the year and pressed Submit, on two seeds, in two layouts). Only the model knows "saga" is a genre; it is told
    the words are left. None when no text field holds a value, several are empty, or more than MAX_UNPLACED words
    are left."""
    texts = [e for e in fields if is_text_field(e) and not e.disabled and not e.is_password]
    empty = [e for e in texts if is_empty(e, typed_secrets)]
    if len(empty) != 1 or len(empty) == len(texts) or names_in(task, empty[0].name or ""):
        return None
    shown = [w for e in fields for t in (e.name, e.text, e.value, e.attrs.get("placeholder")) if t for w in whole_words(t)]
    stems = {w.lower()[:STEM] for w in shown}
    left = [w for w in dict.fromkeys(re.findall(r"[A-Za-z][A-Za-z'-]+", task))
            if w.lower() not in STOPWORDS and singular(w.lower()) not in _ACTING_WORDS and len(w) > 2
            and w.lower()[:STEM] not in stems]
    return (" ".join(left), empty[0]) if 1 <= len(left) <= MAX_UNPLACED else None


def unset_choice(task: str, el: Element) -> str | None:
    """A box the task names, unchecked (a radio of a group, too); a native select with one other option the task
    names; a list that keeps several options with one the task names not selected; a number or range input holding
    another number than the task's one: what is left to set on it, else None."""
    if el.disabled:
        return None
    if is_checkable(el) and not el.checked and names_in(task, el.name):
        return f'{label(el)} is not checked'
    if is_native_select(el) and "multiple" in el.attrs:  # each option the task names must be selected
        named = [f'"{o}"' for o in named_options_left(task, el)]
        return f'{", ".join(named)} of {label(el)} not selected' if named else None
    if (is_number_field(el) or (el.tag == "input" and el.input_type == "range")) and (el.value or "").strip():
        return _other_number(task, el)
    if is_native_select(el) and el.options and not names_in(task, el.selected_option or ""):
        named = [o for o in el.options if o != el.selected_option and names_in(task, o)]
        if len(named) == 1:  # several named options: which one is meant is the model's call
            return f'"{named[0]}" of {label(el)} is not selected'
    return None


# "paste it into the textbox", "enter it into the text field", "type the word into the text area": the kind of field a
# value goes into, as a person names it.
_INTO = re.compile(r"\binto\s+(?:the|a|an|that)?\s*(text\s?area|text\s?(?:field|box|input)|input(?:\s(?:field|box))?|"
                   r"field|box|textbox)\b", re.I)


def destination_field(task: str, fields: list[Element]) -> int | None:
    """The index of the one text field the task puts its value into by the field's kind ("into the text field": an
    input, not the text area the task reads from), when the form has text fields of both kinds; else None. The
    default model, asked which fields to fill for "Find the last word in the text area, enter it into the text
    field", filled the text area with its own last sentence and left the field empty, twice."""
    m = _INTO.search(task)
    texts = [i for i, e in enumerate(fields) if is_text_field(e) and not e.disabled and not e.is_password]
    if m is None or len({fields[i].tag == "textarea" for i in texts}) < 2:
        return None
    area = "area" in m.group(1).lower()
    kind = [i for i in texts if (fields[i].tag == "textarea") == area]
    empty = [i for i in kind if not (fields[i].value or "").strip()]
    return kind[0] if len(kind) == 1 else empty[0] if len(empty) == 1 else None


# A task that asks to clear a box: which named box is to be ticked is then not read by rule.
_UNTICK = re.compile(r"\b(?:un-?check|un-?tick|un-?select|de-?select|clear|untoggle)\w*", re.I)


def named_boxes_left(task: str, el: Element, fields: list[Element]) -> list[Element]:
    """The other boxes to tick with `el`: when `el` is a checkbox the task names and now checked, every other
    unchecked, enabled checkbox among `fields` that the task names too ("Select YqhJ1, 1f, duxsq, ... and click
    Submit": nine boxes were nine steps of several calls each, and the episode ran out of time after three). The
    paper's SubmitForm fills every chosen field of a form at once; these boxes have no form. Radios are left out (a
    task may name an option of each of several groups), and so is every box when the task asks to clear one."""
    if not is_checkbox(el) or not el.checked or not names_in(task, el.name) or _UNTICK.search(task):
        return []
    return [e for e in fields if e.key != el.key and is_checkbox(e) and not e.checked and not e.disabled
            and names_in(task, e.name)]


def named_options_left(task: str, el: Element) -> list[str]:
    """The options of a list that keeps several selected which the task names and which are not selected yet, to be
    selected together, by rule ("Select Raquel, Tabbi from the scroll list": the default model picked the list
    again after Raquel, and the option chooser answered Raquel again). Nothing when the task asks to clear one."""
    if not is_native_select(el) or "multiple" not in el.attrs or el.disabled or _UNTICK.search(task):
        return []
    return [o for o in el.options if o not in el.selected_options and names_in(task, o)]


_ALL = re.compile(r"\b(?:all|every|each)\b", re.I)
MAX_ALIKE = 20
# "Click the 'Like' button on 3 posts by @nathalie": how many items of the kind.
_SOME = re.compile(r"\b(?:on|for|to|in)\s+(\d+|" + "|".join(COUNTS) + r")\s+(?:of\s+(?:the\s+|their\s+|his\s+|her\s+)?)?"
                   r"[a-z]+s\b", re.I)


def alike_wanted(task: str) -> int:
    """How many other items the task asks a control used on besides the one chosen: MAX_ALIKE for "all posts by
    @x", N - 1 for "on 3 posts by @x", else 0."""
    m = _SOME.search(task)
    if m is not None:
        n = int(m.group(1)) if m.group(1).isdigit() else COUNTS[m.group(1).lower()]
        return max(0, min(n - 1, MAX_ALIKE))
    return MAX_ALIKE if _ALL.search(task) else 0


def alike_left(task: str, el: Element, elements: list[Element]) -> list[Element]:
    """The other controls to use with `el` for a task that asks it on every item of a kind ("Click the "Retweet"
    button on all posts by @tora": the default model retweeted one post and pressed Submit): those of the same role
    and name, not selected, checked or used yet, whose row or card (Element.context) holds the words of the task that
    `el`'s own row holds (the handle, the name). Nothing when the task does not name the control or asks neither "all"
    nor a number of items ("on 3 posts by @x": alike_wanted)."""
    name = (el.name or el.text).strip()
    if not el.context or not name or not alike_wanted(task) or not names_action(task, name):
        return []
    own = set(whole_words(name))
    marks = [w for w in dict.fromkeys(re.findall(r"@?[\w'-]{2,}", task))
             if w.lower() not in STOPWORDS and w.lower() not in own and not _ALL.match(w) and names_in(el.context, w)
             and (w.startswith("@") or w[0].isupper()) and w != task.split()[0]]
    if not marks:
        return []
    return [e for e in elements if e.key != el.key and e.role == el.role and (e.name or e.text).strip().lower() == name.lower()
            and not (e.selected or e.checked or e.clicked or e.disabled) and e.context
            and all(names_in(e.context, w) for w in marks)][:MAX_ALIKE]


_SUM = re.compile(r"^\s*(-?\d+(?:\.\d+)?)\s*([-+*/×x÷−])\s*(-?\d+(?:\.\d+)?)\s*=\s*\??\s*$")


def arithmetic_value(el: Element) -> str | None:
    """The result of the sum a field is labelled with ("2 - 3 =", "7 × 4 = ?"), else None: the default model typed
    "1" for "2 - 3 =". Whole when it is whole; a division by zero has none."""
    m = _SUM.match(el.name or "") if is_text_field(el) else None
    if m is None:
        return None
    a, op, b = float(m.group(1)), m.group(2), float(m.group(3))
    if op in "÷/" and b == 0:
        return None
    result = {"+": a + b, "-": a - b, "−": a - b, "*": a * b, "×": a * b, "x": a * b}.get(op, a / b if b else 0.0)
    return str(int(result)) if float(result).is_integer() else f"{result:.10g}"


# "the 1st checkbox", "the 3rd radio button", "the 2nd input textbox": a control the task counts by its kind.
NTH_KIND = re.compile(r"\bthe\s+(?P<nth>" + ORDINAL + r")\s+(?P<kind>check\s?box|radio(?:\s+button)?|button|link|tab|"
                       r"(?:input\s+)?text\s?(?:box|field|input|area)|textarea|input(?:\s+field)?)\b", re.I)


def _of_kind(kind: str, e: Element) -> bool:
    kind = kind.lower().replace(" ", "")
    if kind == "checkbox":
        return is_checkbox(e)
    if kind.startswith("radio"):
        return e.role == "radio"
    return e.role == kind and not is_form_field(e)


def of_named_kind(kind: str, e: Element) -> bool:
    """`e` is of the kind a task names: a text area, a one-line text field ("text", "textbox", "input textbox",
    "text field", "input"), else a checkbox, radio, button, link or tab (_of_kind)."""
    kind = kind.lower().replace(" ", "")
    if kind.endswith("textarea"):
        return e.tag == "textarea"
    if kind.startswith(("text", "input")):
        return is_text_field(e) and e.tag != "textarea"
    return _of_kind(kind, e)


def is_checkbox(el: Element) -> bool:
    return (el.tag == "input" and el.input_type == "checkbox") or (el.tag != "input" and el.role in ("checkbox", "switch"))


def is_number_field(el: Element) -> bool:
    """A field that takes a number typed (a number input, a spinner's field)."""
    return el.tag == "input" and (el.input_type == "number" or el.role == "spinbutton")


def _other_number(task: str, el: Element) -> str | None:
    """A number or range input holding another number than the task's one (formatted_value), said as unset."""
    want = formatted_value(task, el)
    try:
        differs = want is not None and float(want) != float(el.value or "")
    except ValueError:  # a value the browser would not hold in such an input: nothing to compare
        return None
    return f"{label(el)} is not set to {want}" if differs else None


# Words of a field's attributes that say what any field is, not which one.
_GENERIC = frozenset("input field text textbox box form value entry data id name type".split())
_AFTER = re.compile(r"\s*(?:as|into|in|for)\s+(?:(?:the|your|a|an|my)\s+)?([\w'-]+)(?:\s+([\w'-]+))?", re.I)
NEAR_WORDS = 2  # the words before a quote that may name its field ("the username", "and the password")


def field_words(el: Element) -> set[str]:
    """The words that name this field: its accessible name and its name, id, placeholder and aria-label
    attributes (camelCase and snake_case split), plus "password" for a password input and the input type of an
    email, phone or URL field."""
    raw = " ".join([el.name, *(el.attrs.get(a, "") for a in ("name", "id", "placeholder", "aria-label"))])
    out = {singular(w) for w in whole_words(split_camel(raw).replace("_", " ")) if len(w) >= 3}
    if el.tag == "input" and el.input_type == "password":
        out.add("password")
    if el.input_type in ("email", "tel", "url"):
        out.add({"tel": "phone"}.get(el.input_type, el.input_type))
    return out - _GENERIC - STOPWORDS


# 'username: admin', 'password = x': a value written after a word and a colon (or '='), up to a space, a comma, a
# semicolon or a bracket; a full stop ending the sentence is not the value's.
_LABELLED = re.compile(r"(?<=\w)\s*[:=]\s*([^\s,;()\[\]\"“”]+?)(?=\.?(?:[\s,;()\[\]]|$))")


def labelled_spans(task: str) -> list[tuple[str, int, int]]:
    """The values the task writes after a word and a colon ('username: admin'), with where each value starts and
    ends (as quoted_spans gives quotes): value_named_for tells which field's word is before it."""
    return [(m.group(1), m.start(1), m.end(1)) for m in _LABELLED.finditer(task)]


def quoted_not_control(task: str, el: Element, elements: list[Element]) -> str | None:
    """The one phrase the task quotes that no button or link of the page is named, for the page's one text field
    ('enter "Augus" and press "Search"': "Augus"); None otherwise. With two quotes, the default model typed
    "Search" into the search box."""
    fields = [e for e in elements if is_text_field(e) and not e.disabled and not e.is_password]
    if fields != [el]:
        return None
    controls = control_names(elements)
    left = [q for q in dict.fromkeys(quoted_as_written(task)) if q.lower() not in controls]
    return left[0] if len(left) == 1 and len(quoted_as_written(task)) > 1 else None


def value_named_for(task: str, el: Element) -> str | None:
    """The one quoted value the task puts next to this text field's own words: right before the quote ('the
    password "DYh"') or right after it ('"Ada" as the first name'), or the value after its word and a colon
    ('password: DYh'); when none is, the task's one value in the
    format the field's type fixes (formatted_value); None when there is none or more than one."""
    if not is_text_field(el):
        return None
    own = field_words(el)
    spans = sorted(quoted_spans(task) + labelled_spans(task), key=lambda span: span[1])
    claimed: list[str] = []
    said_after = 0  # where the previous quote's "as the first name" ends: those words are not this quote's
    for i, (phrase, start, end) in enumerate(spans):
        gap_end = spans[i + 1][1] if i + 1 < len(spans) else len(task)
        before = [singular(w) for w in whole_words(task[said_after:start]) if w not in STOPWORDS][-NEAR_WORDS:]
        after_m = _AFTER.match(task, end, gap_end)
        after = [singular(w) for w in after_m.groups() if w] if after_m else []
        said_after = after_m.end() if after_m else end
        if own & (set(before) | set(after)):
            claimed.append(phrase)
    values = list(dict.fromkeys(claimed))
    if len(values) == 1:
        return values[0]
    if values:
        return None
    return set_value_for(task, el) or recipient_for(task, el) or near_value_for(task, el) or formatted_value(task, el)


STEM = 5  # "directed" and "Director" share "direc": a verb of the field's noun names it
_YEAR_WORDS = frozenset({"year", "date", "released", "release"})
# A value given without quotes: a capitalised word inside the sentence, or a number.
_BARE_VALUE = re.compile(r"(?<=\s)[A-Z][\w'-]+|(?<![\w.])\d+(?:[.,]\d+)?(?![\w/])")


def near_value_for(task: str, el: Element) -> str | None:
    """The one value the task gives without quotes right after a word that names this field ("directed by Klein"
    for "Director Name", "from year 2010" for "Year"), or the task's one year for a field named for a year or a
    release date; else None. The default model, filling a movie search form, typed the genre into the director's
    field and left the year empty."""
    own = field_words(el)
    stems = {w[:STEM] for w in own if len(w) >= STEM}
    claimed: list[str] = []
    for m in _BARE_VALUE.finditer(task):
        clause = re.split(r"[,;:.!?]", task[:m.start()])[-1]  # "as the time, select Ada": not the time's
        words = [singular(w) for w in whole_words(clause) if w not in STOPWORDS]
        if singular(m.group(0)) in own:  # "Year of Birth": a word of the field's own label is no value for it
            continue
        if words and (words[-1] in own or (len(words[-1]) >= STEM and words[-1][:STEM] in stems)):
            claimed.append(m.group(0))
    if not claimed and own & _YEAR_WORDS:
        claimed = re.findall(r"(?<![\w/.-])(?:19|20)\d\d(?![\w/-]|\.\d)", task)
    values = list(dict.fromkeys(claimed))
    return values[0] if len(values) == 1 else None


_RECIPIENT_FIELD = re.compile(r"^(?:to|recipients?|send to|email to|mail to)$", re.I)
_SENT_TO = re.compile(r"\bto\s+(@?[A-Z][\w'-]+(?:\s+[A-Z][\w'-]+)?|[\w.+-]+@[\w-]+\.[\w.]+)")
# "Forward Malory the latest email from Leta", "Send Bob this message": the one the verb sends to, before the thing sent.
_SENT_BEFORE = re.compile(r"\b(?:[Ff]orward|[Ss]end|[Ee]-?mail|[Mm]ail)\s+(@?[A-Z][\w'-]+)\s+(?:the|a|an|this|that|these|"
                          r"those|his|her|their|my|your)\b")


def recipient_for(task: str, el: Element) -> str | None:
    """The one name or address the task sends something to ("forward that email to Mariya", "Forward Malory the latest
    email"), for a field named "To"
    or "Recipient"; else None. The default model typed the sender's name into the forward form's "to" field."""
    named = [t for t in (el.name, el.attrs.get("placeholder", ""), el.attrs.get("aria-label", ""), el.attrs.get("name", ""),
                         el.attrs.get("id", "")) if t.strip()]
    if not any(_RECIPIENT_FIELD.match(" ".join(whole_words(split_camel(t).replace("_", " ")))) for t in named):
        return None
    found = recipients(task)
    return found[0] if len(found) == 1 else None


def recipients(task: str) -> list[str]:
    """The names or addresses the task sends something to ("send it to Fredrika", "Forward Malory the email")."""
    return list(dict.fromkeys(_SENT_TO.findall(task) + _SENT_BEFORE.findall(task)))


_COPY_FROM = re.compile(r"\b(?:copy|take)\b[^.]*?\b(?:from|in)\s+the\s+(?:(?P<nth>" + ORDINAL + r")\s+)?"
                        r"(?P<kind>text\s?area|text\s?box|text\s+field|text\s+input|field|input|box)\b", re.I)


def copied_value(task: str, el: Element, elements: list[Element]) -> str | None:
    """The value of the field the task copies from ("Copy the text from the 2nd text area below and paste it into
    the text input", "Copy the text in the textarea below"), exactly as it is, for another text field; else None.
    The field is the one at the place the task counts, or the one field of that kind. The default model, asked
    what to type, copied the first text area's text, and elsewhere dropped the text's last space."""
    m = _COPY_FROM.search(task)
    if m is None or not is_text_field(el):
        return None
    area = "area" in m.group("kind").lower()
    kind = [e for e in elements if is_text_field(e) and not e.is_password and (e.tag == "textarea") == area]
    at = place(m.group("nth"), len(kind)) if m.group("nth") else (1 if len(kind) == 1 else 0)
    if not 1 <= at <= len(kind) or kind[at - 1].key == el.key:
        return None
    return kind[at - 1].value or None


_NTH_WORD = re.compile(r"\bthe\s+(?P<nth>" + ORDINAL + r")\s+word\s+(?:in|of)\s+the\s+"
                       r"(?P<where>text\s?area|paragraph|text|sentence|passage)\b", re.I)
TASK_LINE_SHARE = 0.6  # a text most of whose words are the task's is the page stating the task


def nth_word_value(task: str, el: Element, sections: list[PageSection]) -> str | None:
    """The word at the place the task counts in the page's paragraph ("Find the 1st word in the paragraph, type
    that into the textbox"), punctuation left out; else None. The paragraph is the page's longest text that is not
    the task's own statement, or the one text area's text ("the last word in the text area"). The default model
    typed "The", the first word of the task's sentence on the page, and elsewhere the text area's last sentence."""
    m = _NTH_WORD.search(task)
    if m is None or not is_text_field(el):
        return None
    if "area" in m.group("where").lower():  # "the last word in the text area": the one text area's own text
        areas = [e for sec in sections for e in sec.all_elements() if e.tag == "textarea" and e.key != el.key]
        body = [areas[0].value] if len(areas) == 1 and areas[0].value else []
    else:
        texts = [n.text for sec in sections for n in all_nodes(parse_outline(sec.details))
                 if n.role in ("text", "paragraph") and n.index is None and n.text]
        body = [t for t in texts if not states_the_task(task, t, TASK_LINE_SHARE)]
    if not body:
        return None
    words = [w for w in (re.sub(r"[^\w'-]", "", t) for t in max(body, key=len).split()) if w]
    at = place(m.group("nth"), len(words))
    return words[at - 1] if 1 <= at <= len(words) else None


# The task points at values the page pairs with the form's labels: "Enter the value that corresponds with each label".
_FROM_PAGE = re.compile(r"\b(?:correspond\w*|each label|(?:from|in) the table)\b", re.I)


def page_value_for(task: str, el: Element, sections: list[PageSection]) -> str | None:
    """For a task that points at the page's values by the form's labels, the value a key/value table on the page
    pairs with this field's label (observe/rows.key_value); else None. The default model typed the label
    "Religion" into the field "Religion", the table beside it saying "Religion | Buddhist"."""
    if not _FROM_PAGE.search(task) or not is_text_field(el) or not (el.name or "").strip():
        return None
    return key_value(sections, el.name)


def field_for_value(task: str, value: str, el: Element, elements: list[Element]) -> Element | None:
    """The other empty text field the task ties `value` to by rule (value_named_for), when the model chose `el` for
    it; else None."""
    want = normalized(value)
    if not want or normalized(value_named_for(task, el) or "") == want:
        return None
    owners = [e for e in elements if e.key != el.key and is_text_field(e) and not e.disabled and not e.is_password
              and not (e.value or "").strip() and normalized(value_named_for(task, e) or "") == want]
    return owners[0] if len(owners) == 1 else None


def set_value_for(task: str, el: Element) -> str | None:
    """The value a set-errand writes into this field, when the task names the field ("Change the city of the
    customer Bruno Smith to Munich": "Munich" for the field "City"; task_asks.set_request), else None."""
    asked = set_request(task)
    if asked is None:
        return None
    field, value = asked
    wanted = {singular(w) for w in whole_words(field)} - STOPWORDS
    return value if wanted and wanted <= field_words(el) else None


def set_option_for(task: str, el: Element) -> str | None:
    """The option of a select the set-errand names by its value ("Gold" for "Change the tier … to Gold" in the
    select "Tier"), when exactly one option reads as that value, else None."""
    value = set_value_for(task, el)
    if value is None:
        return None
    want = normalized(value)
    same = [o for o in el.options if normalized(o) == want] or [o for o in el.options if names_in(o, value)]
    return same[0] if len(same) == 1 else None


def named_values_held(task: str, fields: list[Element], typed_secrets: frozenset[tuple[int, int]] | set[tuple[int, int]] = frozenset()) -> list[str]:
    """What shows that `fields` are as the task says, one phrase per value ('textbox "Username" holds "admin"'),
    when they all are: every text field the task names a value for holds it (a password field: is filled, its
    value is never read), every value the task quotes is held by a field (or names an element: a reference), and
    no box or option the task names is unset. Empty when one is not so, or when the task names no value here. A
    field the task names nothing for is no evidence either way (a "Remember me" box)."""
    texts = [e for e in fields if is_text_field(e) and not e.disabled]
    shown: list[str] = []
    claimed: set[str] = set()
    for el in texts:
        value = value_named_for(task, el)
        if value is None:
            continue
        claimed.add(normalized(value))
        if el.is_password and is_empty(el, typed_secrets):
            return []
        if not el.is_password and normalized(el.value or "") != normalized(value):
            return []
        shown.append(f"{label(el)} is filled" if el.is_password else f'{label(el)} holds "{value}"')
    held = {normalized(e.value or "") for e in texts if not e.is_password} | claimed
    names = {normalized(n) for e in fields for n in (e.name, e.text) if n}
    for value in quoted_as_written(task):
        if normalized(value) not in held | names:
            return []
        if normalized(value) not in claimed and normalized(value) in held:
            shown.append(f'"{value}" is typed')
    if unset_named(task, fields, typed_secrets):
        return []
    return list(dict.fromkeys(shown))


# A button word that says only "go ahead", not what the form does.
_VAGUE_ACTIONS = frozenset("go ok okay next continue yes done".split())


def names_action(task: str, name: str) -> bool:
    """The task names what a button does: its name is a run of the task's words ("Log in" in "Log in to the
    admin"), or the same letters without the space ("Login" and "log in", "Sign in" and "signin"). A vague name
    (Go, OK, Next) names nothing."""
    own = whole_words(name)
    if not own or set(own) <= _VAGUE_ACTIONS | STOPWORDS:
        return False
    if names_in(task, name):
        return True
    have = whole_words(task)
    joined = set(have) | {a + b for a, b in zip(have, have[1:])}
    return len("".join(own)) >= 4 and "".join(own) in joined
