"""`webchallenger explore URL...`: explore a site depth-first and fill its memory (WebChallenger §2.3, A.2).

Each page is divided and registered; pages with a list (or reached from a list item) become templates and
pages matching one are registered without clicking; every other element is clicked once per site (ShouldSkip
first: nothing that logs in or out, leaves the site, or may change what the site stores), what a click
reveals is remembered as that element's dropdown, and same-site pages a click leads to join the frontier.
The frontier is kept in the site's memory: Ctrl-C stops between two pages, and running the command again
resumes. See companion/explore/ for the algorithm.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack
from pathlib import Path
from urllib.parse import urlsplit

DEFAULT_PORT = 47611  # companion.bridge.server.DEFAULT_PORT, as `serve` uses it
LOOPBACK = ("127.0.0.1", "localhost", "::1")


def register(subparsers: argparse._SubParsersAction) -> None:
    from companion.explore.model import Limits

    d = Limits()
    p = subparsers.add_parser("explore", help="explore a site depth-first and remember its pages, templates and menus",
                              description="Explore one or more sites (one start URL each) and fill their memory. "
                                          "Ctrl-C stops cleanly; running again resumes.")
    p.add_argument("urls", nargs="+", metavar="URL", help="start page (http/https, or a local HTML file served from 127.0.0.1)")
    p.add_argument("--max-depth", type=int, default=d.max_depth, metavar="N", help=f"clicks away from the start page (default {d.max_depth})")
    p.add_argument("--max-pages", type=int, default=d.max_pages, metavar="N",
                   help=f"pages per site, resumed runs included (default {d.max_pages})")
    p.add_argument("--max-elements", type=int, default=d.max_elements, metavar="N",
                   help=f"elements explored per page, revealed ones included (default {d.max_elements})")
    p.add_argument("--max-time", type=float, default=d.max_time, metavar="SECONDS", help=f"time of this run (default {d.max_time:g})")
    p.add_argument("--no-summaries", action="store_true", help="structure only: no LLM calls")
    p.add_argument("--llm", metavar="SPEC", help="the LLM for summaries, as for `run` (default: embedded)")
    where = p.add_mutually_exclusive_group()
    where.add_argument("--profile", type=Path, metavar="DIR", help="start from a copy of this Chromium user-data directory "
                                                                  "(a site you are logged in to, without credentials)")
    where.add_argument("--in-browser", action="store_true", help="explore in background tabs of your own browser, through "
                                                                 "the paired extension (stop `serve` first)")
    where.add_argument("--webdriver-url", metavar="URL", help="a remote WebDriver (Selenium Grid) whose browsers load the "
                                                              "extension and reach this companion on 127.0.0.1")
    p.add_argument("--port", type=int, default=DEFAULT_PORT, help=f"--in-browser: the companion's port (default {DEFAULT_PORT})")
    p.add_argument("--workers", type=int, default=1, metavar="N", help="browsers (or tabs) exploring at once (default 1)")
    p.add_argument("--show", action="store_true", help="a visible browser window (needs a display)")
    p.add_argument("--report-json", type=Path, metavar="FILE", help="also write the closing report as JSON")
    p.add_argument("-q", "--quiet", action="store_true", help="no live progress display")
    p.set_defaults(func=run)


def _fail(message: str, code: int = 2) -> int:
    print(f"webchallenger explore: {message}", file=sys.stderr)
    return code


def _summarizer(args: argparse.Namespace):
    from companion import llm
    from companion.explore.summaries import Summarizer
    from companion.llm.config import LLMConfigError

    try:
        client = llm.LLMClient(spec=args.llm)
    except (LLMConfigError, FileNotFoundError, ValueError) as exc:
        raise SystemExit(_fail(str(exc)))
    llm.set_client(client)
    if client.settings.kind == "embedded" and not client.settings.gguf_path:
        from companion.llm.model_files import ModelError, ensure_model

        try:
            ensure_model(client.settings.model, install=True, log=lambda m: print(f"[model] {m}", file=sys.stderr, flush=True))
        except ModelError as exc:
            raise SystemExit(_fail(str(exc), 1))
    return Summarizer(client)


def _start_tabs(args: argparse.Namespace, stack: ExitStack, offline: bool, first_url: str):
    """The ExploreTabs to explore with, their browsers closed by `stack`."""
    from companion.bridge.launcher import LaunchOptions
    from companion.explore.tabs import ExploreBrowser, InBrowserCompanion, RemoteExploreBrowser, start_browser

    if args.in_browser:
        companion = InBrowserCompanion(args.port)
        stack.callback(companion.close)
        first = companion.start(first_url)
        tabs = [first]
        from companion.explore.tabs import ExploreTab

        for _ in range(args.workers - 1):
            info = companion.companion.call(first.session.open_tab(first_url, active=False), 60)
            tabs.append(ExploreTab(first.session, info.tab_id, label=f"your browser, tab {info.tab_id}"))
        return tabs
    opts = LaunchOptions(headless=not args.show, offline=offline)

    def make():
        if args.webdriver_url:
            return RemoteExploreBrowser(args.webdriver_url, opts)
        return ExploreBrowser(opts, profile=args.profile)

    browsers = [make() for _ in range(args.workers)]
    for b in browsers:
        stack.callback(b.close)
    # Browsers start in parallel: each is a Chromium, a companion and a pairing (seconds each).
    with ThreadPoolExecutor(max_workers=args.workers) as pool:
        return list(pool.map(start_browser, browsers))


def run(args: argparse.Namespace) -> int:
    from companion.bridge.launcher import LaunchError
    from companion.bridge.pageserver import missing_local_file, serve_if_local_file
    from companion.explore.explorer import INTERRUPTED, explore_sites
    from companion.explore.model import Limits
    from companion.explore.progress import ExploreProgress, print_report, report_json
    from companion.explore.tabs import PageLoadError
    from companion.memory.storage import MemoryFileError
    from companion.memory.store import WebsiteMemStore, site_key

    if args.workers < 1:
        return _fail("--workers must be at least 1")
    try:
        limits = Limits(max_depth=args.max_depth, max_pages=args.max_pages, max_elements=args.max_elements,
                        max_time=args.max_time)
    except ValueError as exc:
        return _fail(f"bad limit: {exc}")
    stack = ExitStack()
    try:
        urls = []
        for target in args.urls:
            missing = missing_local_file(target)
            if missing:
                return _fail(missing)
            # The folder's own port: `run` on the same file then reads the memory this fills.
            local = serve_if_local_file(stack, target, stable=True)
            url = local or target
            if urlsplit(url).scheme not in ("http", "https"):
                return _fail(f"{target} is neither an http(s) URL nor a local HTML file")
            urls.append(url)
        sites = [site_key(u) for u in urls]
        if len(set(sites)) != len(sites):
            return _fail("give one start URL per site (each site is explored from its own start page)")
        summarize = None if args.no_summaries else _summarizer(args)
        try:
            stores = {site: stack.enter_context(WebsiteMemStore(site)) for site in sites}
        except MemoryFileError as exc:
            return _fail(str(exc), 1)
        offline = all((urlsplit(u).hostname or "") in LOOPBACK for u in urls)
        try:
            tabs = _start_tabs(args, stack, offline, urls[0])
        except (LaunchError, PageLoadError, OSError, TimeoutError) as exc:
            return _fail(f"cannot start the browser: {exc}", 1)
        progress = ExploreProgress(limits.max_pages, enabled=False if args.quiet else None)
        with progress:
            reports = asyncio.run(explore_sites(urls, stores, tabs, limits, summarize=summarize, on_change=progress.update))
    except KeyboardInterrupt:  # while browsers start: nothing was explored by this run
        print("\ninterrupted", file=sys.stderr)
        return 130
    finally:
        stack.close()
    print_report(reports)
    if summarize is not None:
        print(f"LLM calls for summaries: {summarize.calls}")
    if args.report_json:
        args.report_json.write_text(json.dumps(report_json(reports), indent=2) + "\n", encoding="utf-8")
        os.chmod(args.report_json, 0o600)
    return 130 if any(r.stopped_by == INTERRUPTED for r in reports) else 0
