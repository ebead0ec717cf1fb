"""The site without a browser: deterministic seeding, the HTTP login, and GET requests that never write."""

from __future__ import annotations

import hashlib
import re
import urllib.parse
import urllib.request
from collections import deque
from html import unescape as html_unescape

import pytest

from .server import DjangoSite, SiteError

CRAWL_PAGES = 600  # enough to reach filters, sorting, pages, drill-down, popups, history and delete pages


def test_seeding_gives_the_same_bytes_every_time(tmp_path):
    digests = []
    for name in ("one", "two"):
        site = DjangoSite(workdir=tmp_path / name)
        site.seed()
        digests.append(hashlib.sha256(site.seed_path.read_bytes()).hexdigest())
    assert digests[0] == digests[1]


def test_login_cookies_carry_an_admin_session(django_site):
    names = {c["name"] for c in django_site.login_cookies()}
    assert {"sessionid", "csrftoken"} <= names


def test_login_with_a_wrong_password_is_an_error(django_site, monkeypatch):
    monkeypatch.setattr(django_site, "credentials", type(django_site.credentials)(password="wrong"))
    with pytest.raises(SiteError, match="failed"):
        django_site.login_cookies()


def test_logging_in_writes_nothing_to_the_database(fresh_django_site):
    before = fresh_django_site.db_digest()
    fresh_django_site.login_cookies()
    assert fresh_django_site.db_digest() == before


def test_following_every_admin_link_writes_nothing_to_the_database(fresh_django_site):
    """Any GET on the site is read-only (exploration relies on it): a breadth-first crawl of the admin's
    links (filters, sorting, pages, date drill-down, popups, history, delete confirmations) keeps the file."""
    site = fresh_django_site
    opener = urllib.request.build_opener()
    opener.addheaders = [("Cookie", "; ".join(f"{c['name']}={c['value']}" for c in site.login_cookies()))]
    before = site.db_digest()
    queue, seen = deque([site.admin_url]), {site.admin_url}
    crawled: list[str] = []
    while queue and len(crawled) < CRAWL_PAGES:
        url = queue.popleft()
        with opener.open(url, timeout=30) as resp:
            assert resp.status == 200, url
            html = resp.read().decode()
        crawled.append(url)
        for href in re.findall(r'href="([^"#]+)"', html):
            target = urllib.parse.urljoin(url, html_unescape(href))
            if target.startswith(site.admin_url) and target not in seen:
                seen.add(target)
                queue.append(target)
    assert len(crawled) == CRAWL_PAGES, f"the crawl ran out of links after {len(crawled)} pages"
    for kind in ("/delete/", "_popup=1", "/history/", "?o=", "&p=", "placed_at__month="):
        assert any(kind in url for url in crawled), f"the crawl reached no {kind} page"
    assert site.db_digest() == before
