"""Per-site memory (WebsiteMem) in crash-safe TinyDB files. learn.py writes it (every writer calls it), store.py
stores and reads, records.py types what learn.py records."""

from companion.memory.storage import MemoryFileError
from companion.memory.store import WebsiteMemStore, list_sites, normalize_url, remove_site, scrub, site_key

__all__ = ["MemoryFileError", "WebsiteMemStore", "list_sites", "normalize_url", "remove_site", "scrub", "site_key"]
