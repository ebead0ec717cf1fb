"""How site memory names what it keeps: a site's file (site_key), a page (normalize_url, the key of the pages
table and of page stats, links and dropdowns), and where a learned purpose applies (purpose_scope).
Used by the store and by everyone who looks a page or a site up in it."""

from __future__ import annotations

import re
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from companion.typed_secrets import mask, redact_url
from companion.urls import parse_url, scrub_query_pairs

_SAFE = re.compile(r"[^a-z0-9._-]+")


def site_key(url_or_site: str) -> str:
    """'https://Shop.Example.com:8443/x' -> 'shop.example.com_8443'; a bare site key is returned as is."""
    if "://" not in url_or_site:
        return _SAFE.sub("_", url_or_site.lower()).strip("_") or "unknown"
    parsed = parse_url(url_or_site)  # as the browser reads it; a URL that does not parse has no site
    if parsed is None:
        return "unknown"
    key = f"{parsed.hostname}_{parsed.port}" if parsed.port else parsed.hostname
    return _SAFE.sub("_", key).strip("_") or "unknown"


def normalize_url(url: str) -> str:
    """Scheme and host lower-cased, default port, fragment and trailing slash dropped, query sorted. Read as
    the browser reads it (urls.parse_url); a URL that does not parse is kept as it is (scrubbed), never an error."""
    parsed = parse_url(url)
    if parsed is None:
        return redact_url(url.strip())
    p = urlsplit(parsed.href)
    scheme = p.scheme.lower()
    host = (p.hostname or "").lower()
    port = p.port
    if port is not None and port != {"http": 80, "https": 443}.get(scheme):
        host = f"{host}:{port}"
    path = p.path or "/"
    if len(path) > 1 and path.endswith("/"):
        path = path.rstrip("/")
    # Secret-looking query values (tokens, session ids, codes) are never stored: urls.scrub_query_pairs; nor a
    # typed secret a form put in the URL (the storage masks it too: the key must read as the stored one).
    query = urlencode(sorted(scrub_query_pairs(parse_qsl(p.query, keep_blank_values=True))))
    return mask(urlunsplit((scheme, host, path, query, "")))


def purpose_scope(template_id: str, signature: str) -> str:
    """Where a purpose learned for a section applies besides its exact content: sections of the same signature
    on pages of the same structure (one template). A bare signature is no scope: every classless div under
    a div shares one."""
    return f"{template_id}/{signature}" if template_id and signature else ""
