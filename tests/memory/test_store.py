"""WebsiteMem in TinyDB: round trips, caches, privacy, schema and corrupt-file handling."""

from __future__ import annotations

import json

import pytest

from companion.memory import MemoryFileError, WebsiteMemStore, list_sites, normalize_url, remove_site, site_key
from companion.pagemem.divide import divide_page
from companion.pagemem.model import Bookmark
from tests.support.htmlsnap import snapshot_from_html

FILLER = "".join(f"<p>Paragraph {i} about boots, laces and the weather in spring.</p>" for i in range(15))
LOGIN = ('<html><body><header><a href="/">Home</a></header><form><input name="user" aria-label="User" value="alice">'
         '<input type="password" aria-label="Password"><input type="checkbox" aria-label="Remember" checked>'
         f'<button>Log in</button></form><div class="text">{FILLER}</div></body></html>')


def login_page(typed: bool = True):
    html = LOGIN if typed else LOGIN.replace(' value="alice"', "")
    return divide_page(snapshot_from_html(html, url="https://shop.example.com/login?b=2&a=1#top"))


def test_page_round_trip_and_url_normalization(tmp_path):
    pm = login_page()
    with WebsiteMemStore("https://shop.example.com/", tmp_path) as store:
        store.save_page(pm)
    with WebsiteMemStore("shop.example.com", tmp_path) as store:
        loaded = store.load_page("https://SHOP.example.com/login?a=1&b=2")
    assert loaded is not None
    assert [s.signature for s in loaded.sections] == [s.signature for s in pm.sections]
    assert normalize_url("https://a.com:443/x/?b=1&a=2#f") == "https://a.com/x?a=2&b=1"
    assert site_key("http://127.0.0.1:8080/p") == "127.0.0.1_8080"


def test_typed_values_and_passwords_are_never_persisted(tmp_path):
    pm = login_page()
    pw = next(e for e in pm.all_elements() if e.is_password)
    pw.value = "hunter2"  # even if something put it there
    with WebsiteMemStore("shop.example.com", tmp_path) as store:
        store.save_page(pm)
        loaded = store.load_page(pm.url)
    raw = (tmp_path / "shop.example.com.json").read_text()
    assert "alice" not in raw and "hunter2" not in raw
    user = next(e for e in loaded.all_elements() if e.name == "User")
    assert user.value is None
    remember = next(e for e in loaded.all_elements() if e.name == "Remember")
    assert remember.checked is True  # state of a checkbox is not typed text


def test_summary_of_a_section_holding_typed_text_is_not_stored(tmp_path):
    pm = login_page()
    form = next(s for s in pm.sections if s.kind == "form")
    form.summary = "login form, user alice"
    with WebsiteMemStore("shop.example.com", tmp_path) as store:
        store.remember(pm)
    assert "alice" not in (tmp_path / "shop.example.com.json").read_text()


def test_revisit_gets_summaries_from_cache_and_purposes_by_signature(tmp_path):
    first = login_page(typed=False)
    for s in first.sections:
        s.summary, s.purpose, s.needs_summary = f"summary of {s.tag}", f"purpose of {s.tag}", False
    with WebsiteMemStore("shop.example.com", tmp_path) as store:
        store.remember(first)
        again = login_page(typed=False)
        assert store.apply_cached(again) == len(again.sections)
        assert [s.summary for s in again.sections] == [s.summary for s in first.sections]
        # Same structure, different content: the purpose carries over, the summary does not.
        other = divide_page(snapshot_from_html(LOGIN.replace("Home", "Start page"), url="https://shop.example.com/login2"))
        store.apply_cached(other)
        header = other.sections[0]
        assert header.summary is None and header.purpose == first.sections[0].purpose


def test_templates_explored_and_bookmarks(tmp_path):
    pm = login_page()
    with WebsiteMemStore("shop.example.com", tmp_path) as store:
        t = store.add_template(pm)
        assert store.add_template(login_page()).id == t.id and len(store.templates()) == 1
        store.mark_explored(["k1", "k2", "k1"])
        store.add_bookmark(Bookmark(url="https://shop.example.com/cart", title="Cart"))
    with WebsiteMemStore("shop.example.com", tmp_path) as store:
        mem = store.load()
    assert mem.explored == {"k1", "k2"} and mem.bookmarks[0].title == "Cart" and len(mem.pages) == 0
    assert store.find_template(login_page()) is not None


def test_corrupt_file_gives_clear_error_and_keeps_a_backup(tmp_path):
    path = tmp_path / "shop.example.com.json"
    path.write_text('{"meta": {"1": {"schema_version": 1}}, "pages": {"1": {"url": ')
    with pytest.raises(MemoryFileError) as err:
        WebsiteMemStore("shop.example.com", tmp_path)
    assert "unreadable" in str(err.value) and err.value.backup is not None
    assert err.value.backup.read_text() == path.read_text()  # original untouched, copy identical


def test_newer_schema_is_refused(tmp_path):
    (tmp_path / "s.json").write_text(json.dumps({"meta": {"1": {"schema_version": 99, "site": "s"}}}))
    with pytest.raises(MemoryFileError, match="schema version 99"):
        WebsiteMemStore("s", tmp_path)


def test_schema_version_is_written(tmp_path):
    WebsiteMemStore("s", tmp_path).close()
    data = json.loads((tmp_path / "s.json").read_text())
    assert list(data["meta"].values())[0]["schema_version"] == 1


def test_list_and_remove_sites(tmp_path):
    WebsiteMemStore("a.com", tmp_path).close()
    WebsiteMemStore("b.com", tmp_path).close()
    assert [s for s, _ in list_sites(tmp_path)] == ["a.com", "b.com"]
    assert remove_site("a.com", tmp_path) and not remove_site("a.com", tmp_path)
    assert [s for s, _ in list_sites(tmp_path)] == ["b.com"]


def test_a_header_summarized_on_one_page_is_reused_on_another(tmp_path):
    body = '<header><a href="/">Home</a><a href="/cart">Cart</a></header>'
    filler = "".join(f"<p>Paragraph {i} about boots, laces and the weather in spring.</p>" for i in range(15))
    first = divide_page(snapshot_from_html(f"<html><body>{body}{filler}</body></html>", url="https://s.example/a"))
    second = divide_page(snapshot_from_html(f"<html><body><button>Before</button>{body}{filler}</body></html>",
                                            url="https://s.example/b"))
    header_a = next(s for s in first.sections if s.tag == "header")
    header_b = next(s for s in second.sections if s.tag == "header")
    assert header_a.elements[0].index != header_b.elements[0].index  # numbered differently...
    header_a.summary, header_a.needs_summary = "site header", False
    with WebsiteMemStore("s.example", tmp_path) as store:
        store.remember(first)
        store.apply_cached(second)
    assert header_b.summary == "site header"  # ...yet the same content
