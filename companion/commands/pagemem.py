"""`webchallenger pagemem URL|FILE [--json]`: open a page in headless Chromium, divide it, print the sections."""

from __future__ import annotations

import argparse
import json
import sys
from contextlib import ExitStack

from companion.pagemem.divide import DivideOptions, divide_page
from companion.pagemem.model import PageMem


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("pagemem", help="divide a page into sections (PageMem) and print them")
    p.add_argument("target", help="a URL, or a local .html/.html.gz file (served on 127.0.0.1)")
    p.add_argument("--json", action="store_true", help="print the whole PageMem as JSON")
    p.add_argument("--details", action="store_true", help="also print each section's details string")
    p.add_argument("--max-tokens", type=int, default=DivideOptions().max_tokens, help="token bound of a normal section")
    p.set_defaults(func=run)


def take_snapshot(target: str):
    """Snapshot a URL or local file through headless Chromium with the extension."""
    from companion.bridge.launcher import LaunchOptions, launch_browser
    from companion.bridge.pageserver import serve_if_local_file

    with ExitStack() as stack:
        url = serve_if_local_file(stack, target, decompress=True)
        browser = stack.enter_context(launch_browser(LaunchOptions(offline=url is not None)))
        return browser.snapshot(url or target)


def format_sections(pm: PageMem, details: bool = False) -> str:
    lines = [f"{pm.title or '(no title)'} — {pm.url}", f"template {pm.template_id}, {len(pm.sections)} sections", ""]
    lines.append(f"{'id':<6}{'kind':<10}{'tag':<10}{'box (x,y,w,h)':<26}{'elements':>9}{'items':>7}{'tokens':>8}  signature")
    for s in pm.sections:
        b = s.box
        box = f"{b.x:.0f},{b.y:.0f},{b.w:.0f},{b.h:.0f}" if b else "-"
        n = sum(1 for _ in s.all_elements())
        lines.append(f"{s.id:<6}{s.kind:<10}{s.tag[:9]:<10}{box:<26}{n:>9}{len(s.items):>7}{s.tokens:>8}  {s.signature}")
        if details:
            lines.extend("      " + line for line in s.details.splitlines())
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    try:
        snapshot = take_snapshot(args.target)
    except Exception as e:
        print(f"could not snapshot {args.target}: {e}", file=sys.stderr)
        return 2
    pm = divide_page(snapshot, DivideOptions(max_tokens=args.max_tokens))
    if args.json:
        print(json.dumps(pm.model_dump(mode="json", exclude_none=True), indent=1, ensure_ascii=False))
    else:
        print(format_sections(pm, args.details))
    return 0
