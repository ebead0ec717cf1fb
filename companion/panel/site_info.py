"""The side panel's site card: what the companion knows of the current tab's site, and "forget this site".

    install_site_info(hub)                      # `webchallenger serve`; memory_dir=... in tests

site_info_get answers the counts `webchallenger memory ls` shows (pages, templates, dropdowns, bookmarks) for the
site of a URL; site_forget deletes that site's memory file through the same code path as `webchallenger memory
rm` (store.remove_site, under the file's lock) and answers the counts after it: zero. The learning choice stays
(policy.py), as with `memory rm`. A damaged or busy file is reported, never changed.
"""

from __future__ import annotations

import logging
from pathlib import Path

from companion.bridge.hub import BridgeHub
from companion.bridge.session import BrowserSession
from companion.memory.passive import web_site
from companion.memory.storage import MemoryBusyError, MemoryFileError
from companion.memory.store import WebsiteMemStore, list_sites, remove_site
from companion.protocol import SiteForget, SiteInfo, SiteInfoGet, WireModel

log = logging.getLogger(__name__)


class SiteInfoService:
    def __init__(self, hub: BridgeHub, memory_dir: Path | None = None) -> None:
        self.hub = hub
        self.memory_dir = memory_dir  # None: the data directory's memory/ (store.memory_dir)

    def install(self) -> "SiteInfoService":
        self.hub.message_handlers.update({"site_info_get": self._on_get, "site_forget": self._on_forget})
        return self

    def uninstall(self) -> None:
        for name in ("site_info_get", "site_forget"):
            self.hub.message_handlers.pop(name, None)

    def info(self, message_id: str, url: str) -> SiteInfo:
        site = web_site(url)  # "" for anything but an http(s) page: never learned, nothing to count
        reply = SiteInfo(id=message_id, site=site)
        files = dict(list_sites(self.memory_dir)) if site else {}
        if site not in files:
            return reply
        try:
            with WebsiteMemStore(site, files[site].parent) as store:
                counts = store.stats()
                reply.pages, reply.templates, reply.bookmarks = counts["pages"], counts["templates"], counts["bookmarks"]
                reply.dropdowns = len(store.dropdowns())
        except (MemoryFileError, MemoryBusyError, OSError) as exc:
            reply.error = str(exc)
        return reply

    def _on_get(self, session: BrowserSession, message: WireModel) -> SiteInfo:
        assert isinstance(message, SiteInfoGet)
        return self.info(message.id, message.url)

    def _on_forget(self, session: BrowserSession, message: WireModel) -> SiteInfo:
        assert isinstance(message, SiteForget)
        site = web_site(message.url)
        if not site:
            return SiteInfo(id=message.id, site="")
        try:
            forgotten = remove_site(site, self.memory_dir)
        except (MemoryFileError, MemoryBusyError, OSError) as exc:
            reply = self.info(message.id, message.url)
            reply.error = f"could not forget {site}: {exc}"
            return reply
        log.info("side panel: memory of %s %s", site, "removed" if forgotten else "was empty already")
        reply = self.info(message.id, message.url)
        reply.forgotten = forgotten
        return reply


def install_site_info(hub: BridgeHub, *, memory_dir: Path | None = None) -> SiteInfoService:
    return SiteInfoService(hub, memory_dir).install()


__all__ = ["SiteInfoService", "install_site_info"]
