"""Per-site memory (WebsiteMem) in crash-safe TinyDB files. See store.py for the API."""

from companion.memory.storage import MemoryFileError
from companion.memory.store import (WebsiteMemStore, element_site_key, list_sites, normalize_url, remove_site,
                                    scrub, site_key)

__all__ = ["MemoryFileError", "WebsiteMemStore", "element_site_key", "list_sites", "normalize_url", "remove_site",
           "scrub", "site_key"]
