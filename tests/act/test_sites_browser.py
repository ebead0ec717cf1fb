"""The allowed-sites rule against what real Chromium makes of a page (tests/fixtures/pages/sec_sites.html):
each link names the page's own host where a careless parser looks and leads elsewhere. The snapshot sends
where the browser itself resolved each link (whole, in its own frame), and the rule refuses it."""

from __future__ import annotations

import time

import pytest

from companion.act.prefilter import usable_elements
from companion.act.sites import SitePolicy, element_target
from companion.pagemem.divide import divide_page

pytestmark = pytest.mark.browser


def page_links(browser, open_page):
    url = open_page("sec_sites.html", other=True)
    snapshot = browser.run(browser.session.snapshot())
    # The cross-origin frame loads after the page: snapshot again until its link is in.
    for _ in range(20):
        if any(e.attrs.get("id") == "framed" for f in snapshot.frames for e in f.elements):
            break
        time.sleep(0.25)
        snapshot = browser.run(browser.session.snapshot())
    pm = divide_page(snapshot)
    return url, {e.attrs.get("id"): e for e in pm.all_elements() if e.tag == "a"}


def here(pages) -> str:
    return pages.base.removeprefix("http://")  # 127.0.0.1:<port>


def test_a_backslash_link_is_refused_by_the_host_chromium_opens(browser, pages, open_page):
    url, links = page_links(browser, open_page)
    el = links["backslash"]
    other_port = pages.other_base.rsplit(":", 1)[1]
    assert el.url == f"http://localhost:{other_port}/@{here(pages)}/second.html"  # what Chromium opens
    assert el not in usable_elements([el], url, [here(pages)])


def test_a_link_longer_than_the_old_cut_is_judged_whole(browser, pages, open_page):
    url, links = page_links(browser, open_page)
    el = links["long"]
    assert len(el.url) > 200 and not el.url_truncated
    assert SitePolicy().decide(*element_target(el, url)).url.hostname == "localhost"
    assert el not in usable_elements([el], url, ["127.0.0.1"])


@pytest.mark.parametrize("link_id", ["file", "data", "blob", "ftp", "bad"])
def test_links_that_are_not_web_urls_are_refused(browser, pages, open_page, link_id):
    url, links = page_links(browser, open_page)
    el = links[link_id]
    assert el not in usable_elements([el], url, [here(pages)])
    assert el not in usable_elements([el], url, SitePolicy(start_url=url))  # by default too


def test_a_relative_link_in_a_cross_origin_frame_resolves_against_its_frame(browser, pages, open_page):
    url, links = page_links(browser, open_page)
    el = links["framed"]
    assert el.ref.frame != 0
    assert el.url == pages.other_url("second.html")
    assert el not in usable_elements([el], url, [here(pages)])
    assert SitePolicy(start_url=url).decide(el.url).verdict == "ask"


def test_links_of_the_page_itself_still_go(browser, pages, open_page):
    url, links = page_links(browser, open_page)
    el = links["home"]
    assert el.url == pages.url("second.html")
    assert el in usable_elements([el], url, [here(pages)])
