"""See what the agent sees: the PageMem sections of a page, outlined on the page itself.

    install_section_outlines(hub)          # `webchallenger serve`: the side panel's "Show sections" works
    draw = outlines_message(pagemem, snapshot, tab)   # `webchallenger pagemem --picture`: the same outlines

A sections_request (the side panel) is answered from the same snapshot the outlines are drawn from: the
companion snapshots the tab, divides it as the agent does (divide_page, default options, as `webchallenger
pagemem` prints it), and sends draw_sections with each section's box and label. A label says what the
section is for when the site's memory knows it (purposes the agent's abstraction stored); no LLM is asked
here, so showing sections costs nothing and never writes memory. Otherwise it is the section's first line.
"""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

from companion.bridge.errors import BridgeError, RemoteError
from companion.bridge.hub import BridgeHub
from companion.bridge.session import BrowserSession, new_id
from companion.pagemem.divide import divide_page
from companion.pagemem.model import PageMem, PageSection
from companion.protocol import (
    DrawSections, ErrorMessage, SectionOutline, SectionsRequest, SectionsShown, Snapshot, WireModel,
)

log = logging.getLogger(__name__)

LABEL_CHARS = 120
SNAPSHOT_TIMEOUT = 60.0


def first_line(section: PageSection) -> str:
    """The section's first line of content, without list markers and element numbers."""
    from companion.observe.abstraction import plain_lines  # the outline lines the agent's abstraction reads

    lines = plain_lines(section.details)
    return lines[0] if lines else ""


def section_outline(section: PageSection) -> SectionOutline | None:
    """None for a section with no box (nothing of it renders): there is nothing to outline."""
    if section.box is None:
        return None
    purpose = (section.purpose or "").strip()[:LABEL_CHARS] or None
    label = purpose or first_line(section)[:LABEL_CHARS]
    root = section.roots[0] if section.roots else None
    return SectionOutline(id=section.id, kind=section.kind, box=section.box, purpose=purpose, label=label, root=root)


def outlines_message(pagemem: PageMem, snapshot: Snapshot, tab: int | None) -> DrawSections:
    """draw_sections for the top-level sections of `pagemem`, divided from `snapshot` (whose scroll the boxes are at)."""
    outlines = [o for o in (section_outline(s) for s in pagemem.sections) if o is not None]
    return DrawSections(id=new_id(), tab_id=tab, sections=outlines, scroll_x=snapshot.scroll.x, scroll_y=snapshot.scroll.y)


def known_purposes(pagemem: PageMem, memory_dir: Path | None) -> None:
    """Fill in the purposes the site's memory holds for these sections (by content, or by place in the page's
    template). Reads only: a site with no memory file gets none (no file is created for it)."""
    from companion.memory.storage import MemoryBusyError, MemoryFileError
    from companion.memory.store import WebsiteMemStore, memory_dir as default_memory_dir, site_key

    directory = memory_dir if memory_dir is not None else default_memory_dir()
    key = site_key(pagemem.url)
    if not (directory / f"{key}.json").is_file():
        return
    try:
        with WebsiteMemStore(key, directory) as store:
            store.apply_cached(pagemem)
    except (MemoryFileError, MemoryBusyError, OSError) as exc:
        log.warning("sections of %s shown without their purposes: %s", key, exc)


def divide_with_purposes(snapshot: Snapshot, memory_dir: Path | None) -> PageMem:
    pagemem = divide_page(snapshot)
    known_purposes(pagemem, memory_dir)
    return pagemem


class SectionOutlines:
    """Answers the side panel's sections_request (on the session's loop; the work runs as a task of its own)."""

    def __init__(self, hub: BridgeHub, *, memory_dir: Path | None = None) -> None:
        self.hub = hub
        self.memory_dir = memory_dir
        self._running: set[asyncio.Task] = set()

    def install(self) -> "SectionOutlines":
        self.hub.message_handlers["sections_request"] = self._on_request
        return self

    def uninstall(self) -> None:
        self.hub.message_handlers.pop("sections_request", None)

    def _on_request(self, session: BrowserSession, message: WireModel) -> None:
        assert isinstance(message, SectionsRequest)
        task = asyncio.ensure_future(self._show(session, message))
        self._running.add(task)
        task.add_done_callback(self._running.discard)

    async def show(self, session: BrowserSession, tab: int) -> SectionsShown:
        """Snapshot `tab`, divide it and outline its sections there; what was drawn."""
        result = await session.snapshot_result(tab, timeout=SNAPSHOT_TIMEOUT)
        snapshot = result.snapshot
        # Dividing a big page takes seconds: off the loop, so the connection keeps answering.
        pagemem = await asyncio.to_thread(divide_with_purposes, snapshot, self.memory_dir)
        drawn = await session.draw_sections(outlines_message(pagemem, snapshot, result.tab_id))
        return SectionsShown(id=new_id(), tab_id=drawn.tab_id, url=snapshot.url, count=drawn.drawn,
                             template_id=pagemem.template_id)

    async def _show(self, session: BrowserSession, request: SectionsRequest) -> None:
        try:
            shown = await self.show(session, request.tab_id)
            reply: WireModel = shown.model_copy(update={"id": request.id})
        except RemoteError as exc:  # the page cannot be read (a chrome:// page, a closed tab): the panel says why
            reply = ErrorMessage(id=request.id, code=exc.code if exc.code in _CODES else "internal", message=exc.remote_message)
        except BridgeError as exc:  # no answer in time, the connection dropped, the reply refused
            reply = ErrorMessage(id=request.id, code="timeout", message=f"the sections could not be shown: {exc}")
        except Exception as exc:  # a bug here must still answer the panel, which waits
            log.exception("sections_request failed")
            reply = ErrorMessage(id=request.id, code="internal", message=f"the sections could not be shown: {exc}")
        try:
            await session.post(reply)
        except BridgeError as exc:
            log.info("sections_request %s: answer not delivered: %s", request.id, exc)


_CODES = {"no_tab", "timeout", "internal", "refused", "too_large"}


def install_section_outlines(hub: BridgeHub, *, memory_dir: Path | None = None) -> SectionOutlines:
    return SectionOutlines(hub, memory_dir=memory_dir).install()
