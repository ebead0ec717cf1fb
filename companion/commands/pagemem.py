"""`webchallenger pagemem URL|FILE [--json] [--picture out.png]`: open a page in headless Chromium, divide it, print
the sections; with --picture, also a screenshot of the page with the sections outlined on it.

The picture is drawn by the extension itself (draw_sections, content/outline.js: the outlines the side panel's
"Show sections" draws) from the same snapshot the sections were divided from, then captured by Chromium: the
boxes in the PNG are the sections' boxes, and no image library is needed. A page taller than the window is
captured whole (up to MAX_PICTURE_PX) in a window as tall as the page and as wide as its layout.
"""

from __future__ import annotations

import argparse
import base64
import json
import sys
from contextlib import ExitStack
from pathlib import Path

from companion.pagemem.divide import DivideOptions, divide_page
from companion.pagemem.model import PageMem
from companion.protocol import Snapshot

# Chromium cannot capture a texture much larger than this; a longer page is captured down to here.
MAX_PICTURE_PX = 16384


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("pagemem", help="divide a page into sections (PageMem) and print them")
    p.add_argument("target", help="a URL, or a local .html/.html.gz file (served on 127.0.0.1)")
    p.add_argument("--json", action="store_true", help="print the whole PageMem as JSON")
    p.add_argument("--details", action="store_true", help="also print each section's details string")
    p.add_argument("--max-tokens", type=int, default=DivideOptions().max_tokens, help="token bound of a normal section")
    p.add_argument("--picture", type=Path, metavar="PNG",
                   help="also write a screenshot of the whole page with each section outlined (id, kind, first line)")
    p.set_defaults(func=run)


def take_snapshot(target: str):
    """Snapshot a URL or local file through headless Chromium with the extension."""
    with ExitStack() as stack:
        browser, url = open_browser(stack, target)
        return browser.snapshot(url)


def open_browser(stack: ExitStack, target: str):
    """Headless Chromium with the extension (closed with `stack`), and the URL to open for `target` (a local file
    is served on 127.0.0.1 meanwhile)."""
    from companion.bridge.launcher import LaunchOptions, launch_browser
    from companion.bridge.pageserver import serve_if_local_file

    url = serve_if_local_file(stack, target, decompress=True)
    browser = stack.enter_context(launch_browser(LaunchOptions(offline=url is not None)))
    return browser, url or target


def picture_png(browser, pagemem: PageMem, snapshot: Snapshot) -> bytes:
    """The page in the browser's active tab with the sections of `pagemem` (divided from `snapshot`) outlined."""
    from companion.panel.sections import outlines_message

    driver = browser.driver
    browser.run(browser.session.draw_sections(outlines_message(pagemem, snapshot, None)))
    if snapshot.scroll.height <= snapshot.viewport.height:
        return driver.get_screenshot_as_png()
    # A longer page: the window is made as tall as the document for the capture, so the outlines (fixed to the
    # window) cover all of it. Its width stays the page's layout width (the window's, less the scrollbar that
    # goes away), so the page is laid out as it was when divided.
    width = int(driver.execute_script("return document.documentElement.clientWidth"))
    height = int(min(snapshot.scroll.height, MAX_PICTURE_PX))
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})
    try:
        shot = driver.execute_cdp_cmd("Page.captureScreenshot", {"format": "png"})
    finally:
        driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
    return base64.b64decode(shot["data"])


def write_picture(path: Path, png: bytes) -> None:
    from companion.paths import private_file

    # A screenshot of a page can show what the user is logged in to: private, as every file the product writes.
    with private_file(path, "wb") as out:
        out.write(png)


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
    from companion.bridge.pageserver import missing_local_file

    missing = missing_local_file(args.target)
    if missing:  # before a browser starts, and in words rather than the browser's stack trace
        print(f"webchallenger pagemem: {missing}", file=sys.stderr)
        return 2
    with ExitStack() as stack:
        try:
            browser, url = open_browser(stack, args.target)
            snapshot = browser.snapshot(url)
        except Exception as e:
            # Selenium's errors carry the driver's stack trace in str(); its .msg is the sentence a person reads.
            print(f"could not snapshot {args.target}: {getattr(e, 'msg', None) or e}", file=sys.stderr)
            return 2
        pm = divide_page(snapshot, DivideOptions(max_tokens=args.max_tokens))
        if args.picture is not None:
            try:
                write_picture(args.picture, picture_png(browser, pm, snapshot))
            except Exception as e:
                print(f"could not write the picture {args.picture}: {e}", file=sys.stderr)
                return 2
    if args.json:
        print(json.dumps(pm.model_dump(mode="json", exclude_none=True), indent=1, ensure_ascii=False))
    else:
        print(format_sections(pm, args.details))
    return 0
