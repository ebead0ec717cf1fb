"""The allowed sites of a task: where the agent may go, decided the way Chromium reads a URL.

One rule for every way of leaving a page: links, form actions, typed URLs, navigation candidates (visited
pages, bookmarks), tab switches and the start URL itself. URLs are parsed with the WHATWG URL standard (the
ada parser, the standard Chromium follows), never with urllib, which reads `http://a\\@b/` as host b where
the browser opens a, and raises on `http://x:y/`.

    policy = SitePolicy(start_url="https://shop.example/", task="... compare with https://other.example ...")
    policy.decide(url).verdict   # "allow" | "ask" | "refuse"
    await check_navigation(ctx, url, "the link 'Partner'")   # raises ActionFailed when refused or declined

By default a task may go to its start site and the sites its text names; anywhere else is asked of the
user (through ctx.confirm: the side panel or the terminal), once per site and task. `--allow-domain`
(allowed_domains) replaces that with a fixed list and asks nothing. Only http(s) URLs are ever followed;
a URL the extension had to cut, or one that does not parse, is refused with a reason, never an exception.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Awaitable, Callable, Iterable, Literal, Protocol

from companion.act.errors import ActionFailed, Declined
from companion.urls import WEB_SCHEMES, WebURL, parse_url

if TYPE_CHECKING:
    from companion.pagemem.model import Element
    from companion.protocol import Snapshot

log = logging.getLogger(__name__)

Verdict = Literal["allow", "ask", "refuse"]
_SHOWN = 120  # characters of a refused URL quoted in a reason


@dataclass(frozen=True)
class SiteEntry:
    """One allowed site: a host and its subdomains (domains only), on one port or (port=None) any."""

    hostname: str
    port: str | None
    subdomains: bool = True

    def matches(self, url: WebURL) -> bool:
        if self.port is not None and url.port != self.port:
            return False
        if url.hostname == self.hostname:
            return True
        return self.subdomains and url.host_type == "domain" and url.hostname.endswith("." + self.hostname)

    def __str__(self) -> str:
        return f"{self.hostname}:{self.port}" if self.port else self.hostname


def site_of(url: WebURL, *, any_port: bool = False) -> SiteEntry:
    """The site a URL belongs to: its host without a leading "www." and with its subdomains; the same port
    ("" matches the default ports of http and https alike, so an http->https upgrade stays on the site)."""
    if url.host_type != "domain":
        return SiteEntry(url.hostname, None if any_port else url.port, subdomains=False)
    name = url.hostname.removeprefix("www.") if url.hostname.count(".") >= 2 else url.hostname
    return SiteEntry(name, None if any_port else url.port)


def entry_for(text: str, *, any_port_when_unset: bool, strip_www: bool = False) -> SiteEntry | None:
    """An --allow-domain value or a site named in a task ("shop.example", "127.0.0.1:8000", a URL): the host
    and its subdomains, on the port given (or any port, `any_port_when_unset`)."""
    raw = text.strip()
    if not raw:
        return None
    url = parse_url(raw if "://" in raw else f"http://{raw}")
    if url is None or url.scheme not in WEB_SCHEMES or not url.hostname:
        return None
    explicit_port = bool(url.port) or re.search(r":\d+(/|$)", raw.split("://", 1)[-1]) is not None
    any_port = any_port_when_unset and not explicit_port
    if strip_www:
        return site_of(url, any_port=any_port)
    return SiteEntry(url.hostname, None if any_port else url.port, subdomains=url.host_type == "domain")


# A site named in a task: a URL, "localhost[:port]", a dotted-quad IP or a domain with a letter TLD.
_NAMED = re.compile(
    r"https?://[^\s\"'<>()]+"
    r"|\blocalhost(?::\d+)?"
    r"|\b\d{1,3}(?:\.\d{1,3}){3}(?::\d+)?"
    r"|\b[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*\.[a-z]{2,}(?::\d+)?\b",
    re.I,
)


def sites_named_in(task: str) -> list[SiteEntry]:
    """The sites a task's text names. A named host without a port matches it on any port (a user who
    writes "localhost" means whichever port it serves on)."""
    out: list[SiteEntry] = []
    for match in _NAMED.finditer(task):
        entry = entry_for(match.group(0).rstrip(".,;:!?"), any_port_when_unset=True, strip_www=True)
        if entry is not None and entry not in out:
            out.append(entry)
    return out


@dataclass(frozen=True)
class SiteDecision:
    verdict: Verdict
    reason: str
    url: WebURL | None = None

    @property
    def allowed(self) -> bool:
        return self.verdict == "allow"


def _quoted(url: str) -> str:
    url = " ".join(url.split())
    return repr(url if len(url) <= _SHOWN else url[: _SHOWN - 1] + "…")


@dataclass
class SitePolicy:
    """Where one task may go (see the module docstring). `can_ask=False` (confirmations off): a site that
    would be asked about is refused instead, since nobody is there to answer."""

    start_url: str | None = None
    task: str = ""
    allowed_domains: list[str] = field(default_factory=list)
    can_ask: bool = True
    start: list[SiteEntry] = field(init=False, default_factory=list)
    named: list[SiteEntry] = field(init=False, default_factory=list)
    restrict: list[SiteEntry] | None = field(init=False, default=None)
    approved: set[SiteEntry] = field(init=False, default_factory=set)
    declined: set[SiteEntry] = field(init=False, default_factory=set)

    def __post_init__(self) -> None:
        if self.allowed_domains:
            # A list that parses to nothing still restricts: to nothing (never "no restriction").
            self.restrict = [e for e in (entry_for(d, any_port_when_unset=True) for d in self.allowed_domains) if e]
            for bad in (d for d in self.allowed_domains if entry_for(d, any_port_when_unset=True) is None):
                log.warning("allowed domain %r is not a host name and allows nothing", bad)
        self.named = sites_named_in(self.task)
        if self.start_url:
            self.add_start(self.start_url)

    def add_start(self, url: str) -> None:
        """The page a task starts on is its site (only http(s) pages make one)."""
        parsed = parse_url(url)
        if parsed is not None and parsed.scheme in WEB_SCHEMES and parsed.hostname:
            entry = site_of(parsed)
            if entry not in self.start:
                self.start.append(entry)

    @property
    def sites(self) -> list[SiteEntry]:
        """The sites this task may go to without asking."""
        if self.restrict is not None:
            return list(self.restrict)
        return [*self.start, *(e for e in self.named if e not in self.start), *sorted(self.approved, key=str)]

    def describe(self) -> str:
        sites = self.sites
        return ", ".join(map(str, sites)) if sites else "none"

    def decide(self, url: str | None, base: str | None = None, *, truncated: bool = False) -> SiteDecision:
        """Whether the browser may go to `url` (relative ones resolve against `base`)."""
        if truncated:
            return SiteDecision("refuse", "its URL is longer than the extension sends whole, so where it leads "
                                          "is not known: not followed")
        if url is None or not url.strip():
            return SiteDecision("refuse", "no URL")
        parsed = parse_url(url.strip(), base)
        if parsed is None:
            return SiteDecision("refuse", f"{_quoted(url)} is not a valid URL")
        if parsed.scheme not in WEB_SCHEMES:
            return SiteDecision("refuse", f"{parsed.scheme} URLs are never opened (only http and https)", parsed)
        if not parsed.hostname:
            return SiteDecision("refuse", f"{_quoted(url)} names no host", parsed)
        if self.restrict is not None:
            if any(e.matches(parsed) for e in self.restrict):
                return SiteDecision("allow", "an allowed domain", parsed)
            return SiteDecision("refuse", f"{parsed.host} is outside the allowed domains ({self.describe()})", parsed)
        if any(e.matches(parsed) for e in self.declined):
            return SiteDecision("refuse", f"going to {parsed.host} was declined earlier in this task", parsed)
        if any(e.matches(parsed) for e in (*self.start, *self.named, *self.approved)):
            return SiteDecision("allow", "a site of this task", parsed)
        if not self.can_ask:
            return SiteDecision("refuse", f"{parsed.host} is neither the start site nor named in the task, and "
                                          f"confirmations are off", parsed)
        return SiteDecision("ask", f"{parsed.host} is neither the start site nor named in the task", parsed)

    def record_answer(self, url: WebURL, approved: bool) -> None:
        (self.approved if approved else self.declined).add(site_of(url))


def element_target(el: "Element", page_url: str = "") -> tuple[str | None, bool]:
    """(URL, truncated) the element navigates to: the browser-resolved `url` the extension sends (resolved in
    the element's own frame); for a snapshot without it, the raw href against the page. None: no target."""
    if el.url is not None:
        return el.url, el.url_truncated
    href = el.attrs.get("href")
    if href is None or el.tag not in ("a", "area"):
        return None, False
    parsed = parse_url(href.strip(), page_url or None)
    return (parsed.href if parsed else href), False


def form_targets(snapshot: "Snapshot") -> dict[tuple[int, int], tuple[str, bool]]:
    """(frame, id) of every <form> (and button with its own formaction) -> (URL it submits to, truncated)."""
    out: dict[tuple[int, int], tuple[str, bool]] = {}
    for frame in snapshot.frames:
        for el in frame.elements:
            if el.url is not None and el.tag in ("form", "button", "input"):
                out[(frame.frame, el.id)] = (el.url, el.url_truncated)
    return out


class TaskSites(Protocol):
    """What the site rule reads of a task (act/context.py's AgentContext is one): its text and allowed domains,
    the page it is on, its policy once made, and how the user is asked."""

    sites: SitePolicy | None

    @property
    def task(self) -> str: ...

    @property
    def allowed_domains(self) -> list[str]: ...

    @property
    def url(self) -> str: ...

    @property
    def confirm(self) -> Callable[[str], Awaitable[bool]]: ...


def policy_of(ctx: TaskSites) -> SitePolicy:
    """The task's policy; a context built without one (workflow tests, tools) gets one from its allowed
    domains, task and current page."""
    policy = getattr(ctx, "sites", None)
    if policy is None:
        policy = SitePolicy(start_url=ctx.url or None, task=ctx.task, allowed_domains=list(ctx.allowed_domains))
        ctx.sites = policy
    return policy


def leave_question(what: str, decision: SiteDecision, policy: SitePolicy) -> str:
    host = decision.url.host if decision.url else "?"
    return (f"{what} leads to {host}, a site outside this task ({policy.describe()}). "
            f"Go to {decision.url.href if decision.url else host}?")


async def check_navigation(ctx: TaskSites, url: str | None, what: str, *, base: str | None = None,
                           truncated: bool = False) -> str:
    """The URL to open (as the browser reads it) when the task may go there; asks the user first for a site
    outside the task. Raises ActionFailed (never anything else) when refused or declined."""
    policy = policy_of(ctx)
    decision = policy.decide(url, base, truncated=truncated)
    if decision.verdict == "ask":
        assert decision.url is not None
        approved = await ctx.confirm(leave_question(what, decision, policy))
        policy.record_answer(decision.url, approved)
        if not approved:
            raise Declined(f"declined by the user: {what} leads to {decision.url.host}, outside this task's sites",
                           f"going to {decision.url.host} ({what})")
        return decision.url.href
    if decision.verdict == "refuse":
        raise ActionFailed(f"{what}: {decision.reason}")
    assert decision.url is not None
    return decision.url.href


def domain_allowed(url: str, allowed_domains: Iterable[str]) -> bool:
    """True when the URL is an http(s) URL inside `allowed_domains` (an entry with a port must match host and
    port; one without matches any port and every subdomain). With no domains, any http(s) URL."""
    domains = list(allowed_domains)
    if not domains:
        parsed = parse_url(url)
        return parsed is not None and parsed.scheme in WEB_SCHEMES and bool(parsed.hostname)
    return SitePolicy(allowed_domains=domains).decide(url).allowed


__all__ = ["SitePolicy", "SiteDecision", "SiteEntry", "TaskSites", "WebURL", "parse_url", "check_navigation", "policy_of",
           "domain_allowed", "sites_named_in", "element_target", "form_targets"]
