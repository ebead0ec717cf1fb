"""The site's server side without a browser: deterministic seeding and the HTTP login."""

from __future__ import annotations

import hashlib

import pytest

from .server import DjangoSite, SiteError


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
