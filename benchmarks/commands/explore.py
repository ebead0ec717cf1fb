"""`webchallenger bench explore`: what exploration costs and what its deduplication saves (a benchmark, not a test).

Explores a site from scratch (a fresh memory directory) and reports pages per minute, the clicks spent, and
the clicks a naive explorer would spend without template and list-item deduplication: the clicks spent, plus
those the template rule saved (every element ShouldSkip allows and E_w does not hold yet, on each page that
matched a template), plus the elements of the further items of every list. That naive figure is a lower
bound: the naive explorer would also visit and iterate the pages those clicks lead to. The ratio naive/spent
is the figure. `--django` runs it on the shop admin of the tests (tests/djangosite: a source checkout),
logged in, and checks that its database did not change.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
import time
from pathlib import Path


def register(bench_subparsers: argparse._SubParsersAction) -> None:
    p = bench_subparsers.add_parser("explore", help="explore a site: pages per minute, clicks, naive clicks, the ratio")
    where = p.add_mutually_exclusive_group(required=True)
    where.add_argument("--django", action="store_true", help="the shop admin of the tests (tests/djangosite), logged in")
    where.add_argument("--url", metavar="URL", help="any site's start page")
    p.add_argument("--profile", type=Path, metavar="DIR", help="with --url: start from a copy of this Chromium profile")
    p.add_argument("--workers", type=int, default=1, metavar="N")
    p.add_argument("--max-depth", type=int, default=None, metavar="N")
    p.add_argument("--max-pages", type=int, default=None, metavar="N")
    p.add_argument("--max-elements", type=int, default=None, metavar="N")
    p.add_argument("--max-time", type=float, default=None, metavar="SECONDS")
    p.add_argument("--json", type=Path, default=Path("bench-explore.json"), metavar="FILE",
                   help="where the figures go (default bench-explore.json)")
    p.set_defaults(func=run)


def _limits(args):
    from companion.explore.model import Limits

    given = {k: getattr(args, k) for k in ("max_depth", "max_pages", "max_elements", "max_time") if getattr(args, k) is not None}
    return Limits(**given)


def figures(report, browser_clicks: int, workers: int) -> dict:
    c = report.state.counts
    minutes = max(report.elapsed, 1e-9) / 60
    return {
        "site": report.site, "start_url": report.start_url, "workers": workers, "stopped_by": report.stopped_by,
        "pages": c.pages, "templates": c.templates, "template_pages": c.template_pages, "dropdowns": c.dropdowns,
        "elapsed_s": round(report.elapsed, 1), "pages_per_minute": round(c.pages / minutes, 2),
        "clicks_spent": c.clicks, "clicks_in_browsers": browser_clicks,
        "skipped_by_template": c.skipped_by_template, "skipped_by_list_item": c.skipped_by_list_item,
        "naive_clicks_at_least": c.naive_clicks, "ratio_naive_to_spent": round(c.naive_clicks / max(c.clicks, 1), 2),
        "skipped_explored_elsewhere": c.skipped_explored, "skipped_unsafe": c.skipped_unsafe, "failed": c.failed,
        "reruns": c.reruns, "frontier_left": sum(1 for s in report.state.stack if s.url not in report.state.done),
    }


def print_table(fig: dict) -> None:
    from rich.console import Console
    from rich.table import Table

    table = Table(title=f"bench explore: {fig['start_url']}")
    table.add_column("figure")
    table.add_column("value", justify="right")
    for key, value in fig.items():
        if key not in ("site", "start_url"):
            table.add_row(key.replace("_", " "), str(value))
    Console(file=sys.stdout, highlight=False).print(table)


def run(args: argparse.Namespace) -> int:
    from companion.bridge.launcher import LaunchOptions
    from companion.explore.explorer import explore_sites
    from companion.explore.tabs import ExploreBrowser, RemoteExploreBrowser, start_browser  # noqa: F401
    from companion.memory.store import WebsiteMemStore, site_key

    site = None
    browsers = []
    memory_dir = Path(tempfile.mkdtemp(prefix="bench-explore-"))
    extra: dict = {}
    try:
        if args.django:
            sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
            try:
                from tests.djangosite.server import DjangoSite
            except ImportError as exc:
                print(f"bench explore --django needs a source checkout with tests/djangosite: {exc}", file=sys.stderr)
                return 2
            site = DjangoSite().start()
            url = site.admin_url
        else:
            url = args.url
        offline = args.django
        browsers = [ExploreBrowser(LaunchOptions(offline=offline), profile=args.profile) for _ in range(args.workers)]
        tabs = [start_browser(b) for b in browsers]
        if site is not None:
            for b in browsers:
                site.login(b.driver)  # the log-in form's POST: before the requests counted below
            extra["db_before"] = site.db_digest()
            requests_before = len(site.requests())
        started = time.monotonic()
        with WebsiteMemStore(site_key(url), memory_dir) as store:
            (report,) = asyncio.run(explore_sites([url], {store.site: store}, tabs, _limits(args)))
        fig = figures(report, sum(t.clicks for t in tabs), args.workers)
        fig["wall_s"] = round(time.monotonic() - started, 1)
        if site is not None:
            requests = site.requests()[requests_before:]
            fig["database_unchanged"] = site.db_digest() == extra["db_before"]
            fig["non_get_requests"] = sum(1 for r in requests if r.method != "GET")
            fig["http_requests"] = len(requests)
    finally:
        for b in browsers:
            b.close()
        if site is not None:
            site.close()
    print_table(fig)
    args.json.write_text(json.dumps(fig, indent=2) + "\n", encoding="utf-8")
    print(f"figures written to {args.json}")
    return 0
