"""A path through cascading menus as one action: "Select Claudie>Robbie", "choose File > Export > PDF". The entries
before the last are pointed at, as a hand opens a submenu by resting on its entry; the last is clicked. Clicked
instead, a menu entry with a submenu is chosen itself (jQuery UI's menu selects it), and the default model clicked
"Claudie" and lost the task.

Offered on the first entry of the path when the page shows an element named so; each next entry is looked for among
what the page shows after the pointer rests on the one before.
"""

from __future__ import annotations

import asyncio
import re

from companion.act.basic import browser, click_element, settle
from companion.act.context import AgentContext
from companion.act.elements import label
from companion.act.errors import ActionFailed
from companion.act.models import Candidate
from companion.pagemem.model import Element

# Two or more names joined by ">" (or an arrow): "Claudie>Robbie", "File > Export > PDF".
_SEP = r"\s*(?:>|→|›|»)\s*"
_PATH = re.compile(r"[^\s>→›»\"'][^>→›»\"']*?(?:" + _SEP + r"[^>→›»\"'.,;!?]+)+")
_LEAD = re.compile(r"^(?:select|choose|click|open|pick|go to|navigate to|find)\s+(?:on\s+)?(?:the\s+)?", re.I)
_TAIL = re.compile(r"\s+(?:and|then)\b.*$", re.I)
OPEN_WAIT_S = 0.5  # a submenu opens a moment after the pointer rests on its entry (jQuery UI: 300 ms)


def menu_path(task: str) -> list[str]:
    """The names of the path the task gives, in order; [] when it gives none."""
    m = _PATH.search(task)
    if m is None:
        return []
    parts = [p.strip(" .") for p in re.split(_SEP, m.group(0))]
    parts[0] = _LEAD.sub("", parts[0])
    parts[-1] = _TAIL.sub("", parts[-1])
    return parts if len(parts) >= 2 and all(parts) else []


def _said(el: Element) -> str:
    return " ".join((el.name or el.text).split()).lower()


def _named(elements, name: str) -> Element | None:
    return next((e for e in elements if _said(e) == name.lower() and not e.disabled), None)


def path_candidate(path: list[str], el: Element) -> Candidate | None:
    """The path's one action (`path`: menu_path of the task), offered on the element that is its first entry."""
    if not path or _said(el) != path[0].lower():
        return None
    return Candidate(kind="menu_path", element=el.ref, text=" > ".join(path),
                     label=f'choose "{" > ".join(path)}" in the menu (point at each entry, then click the last)')


async def follow_path(ctx: AgentContext, candidate: Candidate) -> str:
    path = [p.strip() for p in (candidate.text or "").split(" > ") if p.strip()]
    if len(path) < 2 or ctx.pagemem is None:
        raise ActionFailed("no menu path to follow")
    done: list[str] = []
    for name in path[:-1]:
        entry = _named(ctx.pagemem.all_elements(), name)
        if entry is None:
            raise ActionFailed(f'no menu entry "{name}" is shown', done=done)
        await browser(ctx, ctx.session.hover(entry.ref, tab=ctx.tab), f"pointing at {label(entry)}")
        done.append(f"Pointed at {label(entry)}")
        await asyncio.sleep(OPEN_WAIT_S)
        await settle(ctx)
    last = _named(ctx.pagemem.all_elements(), path[-1])
    if last is None:
        raise ActionFailed(f'"{path[-1]}" did not appear after pointing at "{path[-2]}"', done=done)
    clicked, _ = await click_element(ctx, last, done=done)
    return "; ".join([*done, clicked])
