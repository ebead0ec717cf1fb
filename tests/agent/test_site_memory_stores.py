"""SiteMemory without a browser: which store a page gets, what a site change undoes, what is never saved."""

from __future__ import annotations

from companion.act.context import AgentContext
from companion.agent.site_memory import SiteMemory
from companion.memory.store import WebsiteMemStore, purpose_scope
from companion.observe import PageObserver
from companion.pagemem.divide import divide_page
from tests.support.htmlsnap import snapshot_from_html

PAGE = "<html><body><nav><a href='/a'>A</a> <a href='/b'>B</a></nav><p>Some text about kettles.</p></body></html>"


def page(url: str):
    return divide_page(snapshot_from_html(PAGE, url=url, title="Kettles"))


def test_the_store_follows_the_page_and_another_sites_memory_does_not_stick(tmp_path):
    first = page("http://shop.example/a")
    with WebsiteMemStore("shop.example", tmp_path) as shop:  # the shop knows this structure's purpose
        for s in first.sections:
            shop.store_purpose("shop navigation", scope=purpose_scope(first.template_id, s.signature))
    sites = SiteMemory(tmp_path)
    ctx = AgentContext(session=None, task="t", files_dir=tmp_path, pagemem=first)
    observer = PageObserver()
    try:
        home = sites.attach(ctx, observer)
        assert home.site == "shop.example" and ctx.store is home and observer.store is home
        assert all(s.purpose == "shop navigation" for s in first.sections)

        # A page of another site, filled (as AgentContext.refresh does) from the store it still had.
        other = page("http://maker.example/a")
        home.apply_cached(other)
        assert any(s.purpose for s in other.sections)
        ctx.pagemem = other
        away = sites.attach(ctx, observer)
        assert away.site == "maker.example" and ctx.store is away and observer.store is away
        assert all(s.purpose is None for s in other.sections)  # the shop's memory said nothing about this site
        assert sites.attach(ctx) is away  # opened once per task
        assert sorted(sites.sites()) == ["maker.example", "shop.example"]
    finally:
        sites.close()


def test_pages_that_belong_to_no_site_are_not_saved(tmp_path):
    sites = SiteMemory(tmp_path)
    try:
        assert sites.remember(page("about:blank")) is False
        assert sites.remember(page("chrome://newtab/")) is False
        assert sites.remember(page("http://shop.example/a")) is True
    finally:
        sites.close()
    assert sorted(p.name for p in tmp_path.glob("*.json")) == ["shop.example.json"]


def test_an_unreadable_memory_file_does_not_end_the_task(tmp_path):
    (tmp_path / "shop.example.json").write_text("{ not json")
    warnings = []
    sites = SiteMemory(tmp_path, warn=warnings.append)
    try:
        # The task goes on with a scratch store for the site: pages are remembered there, not in the file.
        assert sites.remember(page("http://shop.example/a")) is True
        assert sites.remember(page("http://shop.example/b")) is True
        assert sites.store_for("http://shop.example/").page_urls() == ["http://shop.example/a", "http://shop.example/b"]
    finally:
        sites.close()
    assert (tmp_path / "shop.example.json").read_text() == "{ not json"  # nothing overwritten
    assert len(list(tmp_path.glob("shop.example.json.corrupt-*"))) == 1  # one copy kept for the user
    (warning,) = warnings  # told once, with where the copy is and how to start afresh
    assert "Working without memory for shop.example" in warning and "memory rm" in warning
