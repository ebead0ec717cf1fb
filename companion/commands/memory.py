"""`webchallenger memory ls | show SITE | rm SITE | allow HOST | block HOST | ask HOST`.

ls and show say what was learned per site (pages, templates, dropdowns, bookmarks) and whether the site may
be learned while the user browses (policy.py); rm deletes a site's memory (or one page of it); allow, block
and ask set that policy. `--json` prints typed models (SiteListing, SiteMemoryView) for machines. A damaged
memory or policy file is reported with where it was kept, never changed.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from pydantic import BaseModel, Field

from companion.memory import MemoryFileError, WebsiteMemStore, list_sites, remove_site, site_key
from companion.memory.learning_consent import DEFAULT_CONSENT, CONSENT_CHOICES, ConsentChoice, read_consent, set_learning_consent
from companion.memory.records import DropdownRecord
from companion.memory.storage import MemoryBusyError
from companion.pagemem.model import Bookmark, PageMem, Template


POLICY_HELP = {"allow": "learn this site's pages while you browse it",
               "block": "never learn this site while you browse it",
               "ask": "ask before learning this site (the default)"}


class SiteListing(BaseModel):
    """One line of `memory ls`."""

    site: str
    learning: ConsentChoice
    learning_is_default: bool = Field(description="no choice was made for this site: the default applies")
    # None when the memory file is unreadable (see error)
    pages: int | None = 0
    templates: int | None = 0
    dropdowns: int | None = 0
    bookmarks: int | None = 0
    file: str | None = Field(None, description="the site's memory file; None when only a policy is set")
    bytes: int | None = None
    error: str | None = Field(None, description="why the memory file could not be read (it was kept as it was)")


class SiteMemoryView(BaseModel):
    """`memory show SITE --json`: what was learned about one site."""

    site: str
    learning: ConsentChoice
    pages: list[PageMem]
    templates: list[Template]
    dropdowns: list[DropdownRecord]
    bookmarks: list[Bookmark]


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("memory", help="per-site memory (WebsiteMem): list, show, remove; learning allow/block/ask")
    sub = p.add_subparsers(dest="memory_command", required=True)
    ls = sub.add_parser("ls", help="sites with memory or a learning choice: pages, templates, dropdowns, bookmarks, policy")
    ls.add_argument("--json", action="store_true", help="print a JSON list (SiteListing objects)")
    ls.set_defaults(func=run_ls)
    show = sub.add_parser("show", help="what was learned about one site")
    show.add_argument("site", help="site key or any URL of the site")
    show.add_argument("--json", action="store_true", help="print pages, templates, dropdown elements and bookmarks as JSON")
    show.set_defaults(func=run_show)
    rm = sub.add_parser("rm", help="delete one site's memory (its learning choice stays)")
    rm.add_argument("site", help="site key or any URL of the site")
    rm.add_argument("--page", metavar="URL", help="delete only this page of the site")
    rm.set_defaults(func=run_rm)
    for policy in CONSENT_CHOICES:
        cmd = sub.add_parser(policy, help=POLICY_HELP[policy])
        cmd.add_argument("host", help="host (host:port), site key or any URL of the site")
        cmd.set_defaults(func=run_set_policy, policy=policy)


def _policies() -> dict[str, ConsentChoice]:
    try:
        return dict(read_consent().sites)
    except MemoryFileError as e:
        print(f"warning: {e} Every site is treated as '{DEFAULT_CONSENT}'.", file=sys.stderr)
        return {}


def _listing(site: str, path: Path | None, policies: dict[str, ConsentChoice]) -> SiteListing:
    row = SiteListing(site=site, learning=policies.get(site, DEFAULT_CONSENT), learning_is_default=site not in policies)
    if path is None:
        return row
    row.file = str(path)
    try:
        row.bytes = path.stat().st_size
        with WebsiteMemStore(site, path.parent) as store:
            counts = store.stats()
            row.pages, row.templates, row.bookmarks = counts["pages"], counts["templates"], counts["bookmarks"]
            row.dropdowns = len(store.dropdowns())
    except (MemoryFileError, MemoryBusyError, OSError) as e:
        row.error = str(e)
        row.pages = row.templates = row.dropdowns = row.bookmarks = None
    return row


def run_ls(args: argparse.Namespace) -> int:
    policies = _policies()
    files = dict(list_sites())
    rows = [_listing(site, files.get(site), policies) for site in sorted(set(files) | set(policies))]
    if args.json:
        print("[" + ",\n".join(r.model_dump_json() for r in rows) + "]")
        return 0
    if not rows:
        print("no site memory yet")
        return 0
    width = max(24, *(len(r.site) for r in rows))
    print(f"{'SITE':<{width}}  {'PAGES':>5}  {'TEMPLATES':>9}  {'DROPDOWNS':>9}  {'BOOKMARKS':>9}  LEARNING")
    for r in rows:
        learning = r.learning + (" (default)" if r.learning_is_default else "")
        if r.error:
            print(f"{r.site:<{width}}  {'?':>5}  {'?':>9}  {'?':>9}  {'?':>9}  {learning}")
            print(f"  unreadable: {r.error}")
        else:
            print(f"{r.site:<{width}}  {r.pages:>5}  {r.templates:>9}  {r.dropdowns:>9}  {r.bookmarks:>9}  {learning}")
    return 0


def _summary_lines(pm: PageMem) -> list[str]:
    """What the memory says about a page, for reading: its summary, then each section's purpose and summary."""
    lines = [f"      {pm.summary}"] if pm.summary else []
    for s in pm.sections:
        said = [text for text in (s.purpose, s.summary) if text]
        if said:
            lines.append(f"      {s.id} ({s.kind}): " + " — ".join(said))
    return lines or ["      (no summaries yet: explored without the LLM, or not summarised)"]


def run_show(args: argparse.Namespace) -> int:
    site = site_key(args.site)
    files = dict(list_sites())
    if site not in files:
        print(f"no memory for {site}", file=sys.stderr)
        return 1
    policies = _policies()
    try:
        with WebsiteMemStore(site, files[site].parent) as store:
            mem = store.load()
            dropdowns = store.dropdowns()
            stats = store.stats()
    except (MemoryFileError, MemoryBusyError, OSError) as e:
        print(str(e), file=sys.stderr)
        return 1
    view = SiteMemoryView(site=site, learning=policies.get(site, DEFAULT_CONSENT),
                          pages=[mem.pages[u] for u in sorted(mem.pages)], templates=mem.templates,
                          dropdowns=dropdowns, bookmarks=mem.bookmarks)
    if args.json:
        print(view.model_dump_json(indent=1))
        return 0
    learning = view.learning + ("" if site in policies else " (default)")
    print(f"site {site}: learning {learning}; " + ", ".join(f"{v} {k}" for k, v in stats.items()))
    for pm in view.pages:
        print(f"  page {pm.url}  {pm.title!r}  {len(pm.sections)} sections  template {pm.template_id or '-'}")
        print("\n".join(_summary_lines(pm)))
    for t in view.templates:
        print(f"  template {t.id}: {len(t.signatures)} sections, e.g. {t.example_url}")
    for d in view.dropdowns:
        shown = ", ".join(repr(label) for label in d.labels()[:8]) + (", ..." if len(d.elements) > 8 else "")
        print(f"  dropdown {d.role or 'element'} {d.name!r} on {d.url}: {len(d.elements)} elements ({shown})")
    for b in view.bookmarks:
        print(f"  bookmark {b.url}  {b.title!r}" + ("  (learned)" if b.learned else ""))
    return 0


def run_rm(args: argparse.Namespace) -> int:
    site = site_key(args.site)
    files = dict(list_sites())
    try:
        if args.page:
            if site not in files:
                print(f"no memory for {site}", file=sys.stderr)
                return 1
            with WebsiteMemStore(site, files[site].parent) as store:
                if store.load_page(args.page) is None:
                    print(f"no page {args.page} in the memory of {site}", file=sys.stderr)
                    return 1
                store.remove_page(args.page)
            print(f"removed page {args.page} from the memory of {site}")
            return 0
        if not remove_site(site):
            print(f"no memory for {site}", file=sys.stderr)
            return 1
    except (MemoryFileError, MemoryBusyError, OSError) as e:
        print(str(e), file=sys.stderr)
        return 1
    learning = _policies().get(site)
    print(f"removed memory of {site}" + (f" (learning stays '{learning}')" if learning else ""))
    return 0


def run_set_policy(args: argparse.Namespace) -> int:
    try:
        before = _policies().get(site_key(args.host), DEFAULT_CONSENT)
        site = set_learning_consent(args.host, args.policy)
    except (ValueError, MemoryFileError, MemoryBusyError, OSError) as e:
        print(str(e), file=sys.stderr)
        return 1
    change = "" if before == args.policy else f" (was {before})"
    print(f"learning on {site}: {args.policy}{change}")
    return 0

