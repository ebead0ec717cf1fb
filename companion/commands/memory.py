"""`webchallenger memory ls | show SITE | rm SITE`: inspect and remove per-site memory files."""

from __future__ import annotations

import argparse
import sys

from companion.memory import MemoryFileError, WebsiteMemStore, list_sites, remove_site, site_key


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("memory", help="per-site memory (WebsiteMem): list, show, remove")
    sub = p.add_subparsers(dest="memory_command", required=True)
    ls = sub.add_parser("ls", help="list sites with a memory file")
    ls.set_defaults(func=run_ls)
    show = sub.add_parser("show", help="pages, templates, bookmarks and cache sizes of one site")
    show.add_argument("site", help="site key or any URL of the site")
    show.set_defaults(func=run_show)
    rm = sub.add_parser("rm", help="delete one site's memory file")
    rm.add_argument("site", help="site key or any URL of the site")
    rm.set_defaults(func=run_rm)


def run_ls(args: argparse.Namespace) -> int:
    sites = list_sites()
    if not sites:
        print("no site memory yet")
    for site, path in sites:
        print(f"{site:<40} {path.stat().st_size:>10} bytes  {path}")
    return 0


def run_show(args: argparse.Namespace) -> int:
    site = site_key(args.site)
    if site not in {s for s, _ in list_sites()}:
        print(f"no memory for {site}", file=sys.stderr)
        return 1
    try:
        with WebsiteMemStore(site) as store:
            stats = store.stats()
            mem = store.load()
    except MemoryFileError as e:
        print(str(e), file=sys.stderr)
        return 1
    print(f"site {site}: " + ", ".join(f"{v} {k}" for k, v in stats.items()))
    for url, pm in sorted(mem.pages.items()):
        print(f"  page {url}  {pm.title!r}  {len(pm.sections)} sections  template {pm.template_id}")
    for t in mem.templates:
        print(f"  template {t.id}: {len(t.signatures)} sections, e.g. {t.example_url}")
    for b in mem.bookmarks:
        print(f"  bookmark {b.url}  {b.title!r}")
    return 0


def run_rm(args: argparse.Namespace) -> int:
    site = site_key(args.site)
    if remove_site(site):
        print(f"removed memory of {site}")
        return 0
    print(f"no memory for {site}", file=sys.stderr)
    return 1
