"""The static page servers (gzip handling) and the launcher's page loading."""

import gzip

import httpx
import pytest

from companion.bridge.pageserver import PagePair, PageServer


@pytest.fixture
def gz_dir(tmp_path):
    (tmp_path / "page.html.gz").write_bytes(gzip.compress(b"<html><title>Zipped</title><p>hello</p></html>"))
    (tmp_path / "plain page.html").write_text("<p>plain</p>")
    return tmp_path


def test_gzip_pages_are_sent_with_content_encoding(gz_dir):
    with PageServer(gz_dir) as server:
        response = httpx.get(server.url("page.html.gz"))
    assert response.headers["content-encoding"] == "gzip"
    assert response.headers["content-type"] == "text/html"
    assert "<title>Zipped</title>" in response.text  # httpx decodes, as the browser does


def test_gzip_pages_can_be_sent_decompressed(gz_dir):
    with PageServer(gz_dir, decompress=True) as server:
        response = httpx.get(server.url("page.html.gz"))
    assert "content-encoding" not in response.headers
    assert response.content.startswith(b"<html><title>Zipped")


def test_urls_are_quoted_and_absolute_paths_accepted(gz_dir):
    with PageServer(gz_dir) as server:
        url = server.url(gz_dir / "plain page.html")
        assert url.endswith("/plain%20page.html")
        assert httpx.get(url).text == "<p>plain</p>"
        assert httpx.get(server.url("missing.html")).status_code == 404


def test_page_pair_gives_two_origins_over_one_directory(gz_dir):
    with PagePair(gz_dir) as pair:
        assert pair.base != pair.other_base
        assert httpx.get(pair.other_url("plain page.html")).text == httpx.get(pair.url("plain page.html")).text


@pytest.mark.browser
def test_open_accepts_dialogs_a_page_shows_while_loading(browser, open_page, find):
    open_page("alert.html")
    snapshot = browser.run(browser.session.snapshot())
    _, paragraph = find(snapshot, id="after")
    assert paragraph.text == "Text after the dialogs"
