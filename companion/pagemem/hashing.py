"""The one content hash of pagemem: the key of the summary, purpose and extraction caches (render.content_fingerprint,
PageSection.extractions) and of what the observation stages cache by content."""

from __future__ import annotations

import hashlib


def hash_text(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()
