"""The allowed-sites rule (companion/act/sites.py) without a browser: URLs read as Chromium reads them (WHATWG),
only http(s) followed, a cut URL never followed, links resolved in their own frame, a malformed URL refused
without an exception, and by default anything off the task's sites asked of the user.

The browser half (the same attacks through a real snapshot of tests/fixtures/pages/sec_sites.html) is in
test_sites_browser.py."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.act import AgentContext, Candidate, execute
from companion.act.errors import ActionFailed
from companion.act.prefilter import domain_allowed, prefilter, usable_elements
from companion.act.sites import SitePolicy, check_navigation
from companion.pagemem.model import Element
from companion.protocol import ElementRef

PAGE = "http://127.0.0.1:8000/page"
ALLOWED = ["127.0.0.1:8000"]


def link(href: str, url: str | None = None, *, truncated: bool = False, frame: int = 0, name: str = "a link") -> Element:
    return Element(ref=ElementRef(frame=frame, id=7), index=0, tag="a", role="link", name=name, attrs={"href": href[:200]},
                   url=url, url_truncated=truncated)


def kept(el: Element, sites) -> bool:
    return bool(usable_elements([el], PAGE, sites))


# ---------------------------------------------------------------- parsing as the browser does


def test_a_backslash_url_is_judged_by_the_host_chromium_opens():
    # urllib reads host 127.0.0.1:8000 (after the "@"); Chromium reads "\" as "/" and opens localhost:9001.
    url = "http://localhost:9001\\@127.0.0.1:8000/"
    assert not domain_allowed(url, ALLOWED)
    assert SitePolicy(allowed_domains=ALLOWED).decide(url).url.host == "localhost:9001"


def test_a_backslash_link_is_dropped_by_the_prefilter():
    assert not kept(link("http://localhost:9001\\@127.0.0.1:8000/"), ALLOWED)


def test_a_malformed_url_is_refused_without_raising():
    decision = SitePolicy(allowed_domains=ALLOWED).decide("http://x:y/")
    assert decision.verdict == "refuse" and "not a valid URL" in decision.reason
    assert not domain_allowed("http://x:y/", ALLOWED)
    assert not domain_allowed("http://x:y/", [])


def test_a_malformed_navigation_candidate_is_dropped_without_raising():
    candidates = [Candidate(kind="navigate", label="bad", url="http://x:y/"),
                  Candidate(kind="navigate", label="good", url="http://127.0.0.1:8000/other")]
    assert [c.label for c in prefilter(candidates, None, page_url=PAGE, allowed_domains=ALLOWED)] == ["good"]


@pytest.mark.parametrize("href", ["file:///etc/hostname", "data:text/html,<h1>hi</h1>", "blob:http://127.0.0.1:8000/1f2e",
                                  "ftp://127.0.0.1:8000/pub/"])
def test_non_web_schemes_are_never_followed(href):
    assert not kept(link(href), ALLOWED)  # even inside an allowed-domain restriction
    assert not kept(link(href), SitePolicy(start_url=PAGE))  # and by default
    assert SitePolicy(start_url=PAGE).decide(href).verdict == "refuse"


# ---------------------------------------------------------------- the full URL, in its own frame


def test_a_long_link_is_judged_by_its_full_url_not_the_cut_one():
    # The old cut (200 characters) kept "http://aaa….127.0.0.1", a subdomain of the allowed 127.0.0.1;
    # the whole URL is user info "aaa….127.0.0.1" at host localhost:9001.
    full = "http://" + "a" * 183 + ".127.0.0.1@localhost:9001/second.html"
    el = link(full, url=full)
    assert el.attrs["href"] == full[:200]
    assert not kept(el, ["127.0.0.1"])


def test_a_url_the_extension_cut_is_never_followed():
    el = link("https://127.0.0.1:8000/" + "x" * 300, url="http://127.0.0.1:8000/" + "x" * 100, truncated=True)
    assert not kept(el, ALLOWED)
    assert SitePolicy(start_url=PAGE).decide(el.url, truncated=True).verdict == "refuse"


def test_a_link_in_a_cross_origin_frame_goes_where_its_frame_resolves_it():
    # href="/second.html" inside a frame from 127.0.0.1:9001: the browser resolved it there, not on the page.
    el = link("/second.html", url="http://127.0.0.1:9001/second.html", frame=5)
    assert not kept(el, ALLOWED)
    assert SitePolicy(start_url=PAGE).decide(el.url).verdict == "ask"


# ---------------------------------------------------------------- the default: the task's sites, else ask


def test_by_default_the_start_site_and_named_sites_are_allowed_and_others_asked():
    policy = SitePolicy(start_url="https://www.shop.example/kettles", task="Compare with the prices on tea.example:8443")
    assert policy.decide("https://shop.example/cart").verdict == "allow"
    assert policy.decide("http://img.shop.example/a.png").verdict == "allow"  # http/https, subdomains: one site
    assert policy.decide("https://tea.example:8443/x").verdict == "allow"
    assert policy.decide("https://tea.example/x").verdict == "ask"  # the task named port 8443
    assert policy.decide("https://shop.example.evil.net/").verdict == "ask"
    assert policy.decide("https://shop.example:8080/").verdict == "ask"


def test_allow_domain_narrows_the_default_and_asks_nothing():
    policy = SitePolicy(start_url=PAGE, task="see tea.example", allowed_domains=ALLOWED)
    assert policy.decide("http://127.0.0.1:8000/x").verdict == "allow"
    assert policy.decide("https://tea.example/").verdict == "refuse"


def test_an_allow_domain_list_of_nothing_valid_allows_nothing():
    assert SitePolicy(allowed_domains=["http://x:y/"]).decide("http://127.0.0.1:8000/").verdict == "refuse"


def test_with_confirmations_off_an_outside_site_is_refused_not_approved():
    assert SitePolicy(start_url=PAGE, can_ask=False).decide("https://elsewhere.example/").verdict == "refuse"


def ctx_with(answers: list[bool], asked: list[str], task: str = "Find the other page") -> AgentContext:
    async def confirm(description: str) -> bool:
        asked.append(description)
        return answers.pop(0)

    ctx = AgentContext(session=None, task=task, files_dir=Path("/nonexistent"), confirm=confirm)
    ctx.sites = SitePolicy(start_url=PAGE, task=task)
    return ctx


async def test_leaving_the_task_sites_asks_and_a_decline_refuses():
    asked: list[str] = []
    ctx = ctx_with([False], asked)
    with pytest.raises(ActionFailed, match="declined by the user"):
        await check_navigation(ctx, "https://elsewhere.example/x", "the link 'Partner'")
    assert len(asked) == 1 and "elsewhere.example" in asked[0] and "127.0.0.1:8000" in asked[0]
    # Declined once: refused from then on in this task, without asking again.
    with pytest.raises(ActionFailed, match="declined earlier"):
        await check_navigation(ctx, "https://elsewhere.example/y", "the link 'Partner'")
    assert len(asked) == 1


async def test_an_approved_site_is_asked_about_once():
    asked: list[str] = []
    ctx = ctx_with([True], asked)
    assert await check_navigation(ctx, "https://elsewhere.example/x", "the link 'Partner'") == "https://elsewhere.example/x"
    assert await check_navigation(ctx, "https://elsewhere.example/y", "the link 'More'") == "https://elsewhere.example/y"
    assert len(asked) == 1


async def test_a_navigation_candidate_off_the_task_sites_is_declined_before_the_browser_is_touched():
    asked: list[str] = []
    ctx = ctx_with([False], asked)  # session=None: reaching the browser would raise AttributeError
    with pytest.raises(ActionFailed, match="declined by the user"):
        await execute(ctx, Candidate(kind="navigate", label="go to bookmark", url="https://elsewhere.example/"))
    assert asked


async def test_a_malformed_navigation_candidate_fails_the_attempt_not_the_task():
    ctx = ctx_with([], [])
    with pytest.raises(ActionFailed, match="not a valid URL"):
        await execute(ctx, Candidate(kind="navigate", label="bad", url="http://x:y/"))
