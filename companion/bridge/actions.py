"""The action helpers of a browser session: `await session.click(ref)`, `type`, `select`, `navigate`... each builds
one typed Action of the wire protocol and sends it through the session's `act` (bridge/session.py), which does the
sending, the outlining and the redaction of secrets. Kept apart so the session module is the connection alone.
"""

from __future__ import annotations

import base64
import mimetypes
from pathlib import Path
from typing import Literal

from companion.bridge.errors import BridgeError
from companion.protocol import (
    Action, ActionResult, Back, Clear, Click, Drag, ElementRef, Focus, Forward, Hover, Navigate, PressKey, Reload, ScrollBy,
    SelectOption, SelectText, SetChecked, SetSlider, TypeText, UploadFile,
)
from companion.urls import WEB_SCHEMES, parse_url

ACTION_TIMEOUT = 20.0
RefLike = ElementRef | tuple[int, int]


def as_ref(ref: RefLike) -> ElementRef:
    if isinstance(ref, ElementRef):
        return ref
    frame, element = ref
    return ElementRef(frame=frame, id=element)


def web_url(url: str) -> str:
    """The URL as the browser will read it, when it is an http(s) URL; BridgeError otherwise. Nothing else is
    ever opened (a file:, data: or javascript: URL could read local files or run script)."""
    parsed = parse_url(url)
    if parsed is None or parsed.scheme not in WEB_SCHEMES or not parsed.hostname:
        raise BridgeError(f"not opened: {url[:200]!r} is not an http(s) URL")
    return parsed.href


class BrowserActions:
    """One method per action kind, each a typed Action sent through `act` (BrowserSession implements it)."""

    async def act(self, action: Action, tab: int | None = None, timeout: float = ACTION_TIMEOUT, *, secret: bool = False) -> ActionResult:
        raise NotImplementedError

    async def click(self, ref: RefLike, *, tab: int | None = None, timeout: float = ACTION_TIMEOUT) -> ActionResult:
        return await self.act(Click(target=as_ref(ref)), tab, timeout)

    async def type(self, ref: RefLike, text: str, mode: Literal["replace", "append"] = "replace", *, secret: bool = False,
                   tab: int | None = None, timeout: float = ACTION_TIMEOUT) -> ActionResult:
        """Type `text` into an input. `secret=True` (automatic for known password fields) keeps it out of the recording."""
        return await self.act(TypeText(target=as_ref(ref), text=text, mode=mode), tab, timeout, secret=secret)

    async def clear(self, ref: RefLike, *, tab: int | None = None, timeout: float = ACTION_TIMEOUT) -> ActionResult:
        return await self.act(Clear(target=as_ref(ref)), tab, timeout)

    async def select(self, ref: RefLike, value: str | None = None, label: str | None = None, *,
                     tab: int | None = None, timeout: float = ACTION_TIMEOUT) -> ActionResult:
        if (value is None) == (label is None):
            raise ValueError("select() needs exactly one of value= or label=")
        return await self.act(SelectOption(target=as_ref(ref), value=value, label=label), tab, timeout)

    async def check(self, ref: RefLike, checked: bool = True, *, tab: int | None = None, timeout: float = ACTION_TIMEOUT) -> ActionResult:
        return await self.act(SetChecked(target=as_ref(ref), checked=checked), tab, timeout)

    async def press(self, key: str, ref: RefLike | None = None, *, tab: int | None = None, timeout: float = ACTION_TIMEOUT) -> ActionResult:
        return await self.act(PressKey(key=key, target=as_ref(ref) if ref is not None else None), tab, timeout)

    async def hover(self, ref: RefLike, *, tab: int | None = None, timeout: float = ACTION_TIMEOUT) -> ActionResult:
        return await self.act(Hover(target=as_ref(ref)), tab, timeout)

    async def scroll(self, dx: float = 0, dy: float = 0, ref: RefLike | None = None, *, tab: int | None = None,
                     timeout: float = ACTION_TIMEOUT) -> ActionResult:
        return await self.act(ScrollBy(target=as_ref(ref) if ref is not None else None, dx=dx, dy=dy), tab, timeout)

    async def focus(self, ref: RefLike, *, tab: int | None = None, timeout: float = ACTION_TIMEOUT) -> ActionResult:
        return await self.act(Focus(target=as_ref(ref)), tab, timeout)

    async def navigate(self, url: str, *, tab: int | None = None, timeout: float = ACTION_TIMEOUT) -> ActionResult:
        return await self.act(Navigate(url=web_url(url)), tab, timeout)

    async def back(self, *, tab: int | None = None, timeout: float = ACTION_TIMEOUT) -> ActionResult:
        return await self.act(Back(), tab, timeout)

    async def forward(self, *, tab: int | None = None, timeout: float = ACTION_TIMEOUT) -> ActionResult:
        return await self.act(Forward(), tab, timeout)

    async def reload(self, *, tab: int | None = None, timeout: float = ACTION_TIMEOUT) -> ActionResult:
        return await self.act(Reload(), tab, timeout)

    async def upload(self, ref: RefLike, path: str | Path, *, mime: str | None = None, tab: int | None = None,
                     timeout: float = ACTION_TIMEOUT) -> ActionResult:
        """Put a local file into an <input type=file>; the content travels base64 in the command."""
        path = Path(path)
        content = base64.b64encode(path.read_bytes()).decode("ascii")
        mime = mime or mimetypes.guess_type(path.name)[0] or "application/octet-stream"
        return await self.act(UploadFile(target=as_ref(ref), name=path.name, mime=mime, content_b64=content), tab, timeout)

    async def drag(self, ref: RefLike, to: RefLike | None = None, *, dx: float = 0, dy: float = 0, tab: int | None = None,
                   timeout: float = ACTION_TIMEOUT) -> ActionResult:
        """Drag `ref` onto `to`'s centre, or by (dx, dy) pixels when `to` is None."""
        return await self.act(Drag(target=as_ref(ref), to=as_ref(to) if to is not None else None, dx=dx, dy=dy), tab, timeout)

    async def select_text(self, ref: RefLike, text: str | None = None, *, tab: int | None = None,
                          timeout: float = ACTION_TIMEOUT) -> ActionResult:
        """Select `text` inside `ref` (all of its text when None) as a press-drag-release over it would."""
        return await self.act(SelectText(target=as_ref(ref), text=text), tab, timeout)

    async def set_slider(self, ref: RefLike, value: float, *, tab: int | None = None, timeout: float = ACTION_TIMEOUT) -> ActionResult:
        """Move the slider (a range input, its handle or its track) to `value`."""
        return await self.act(SetSlider(target=as_ref(ref), value=value), tab, timeout)
