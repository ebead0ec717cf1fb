"""`webchallenger snapshot URL|FILE`: open a page in headless Chromium with the extension and print its
snapshot (the wire format) on stdout, timings on stderr. Files (also .html.gz) are served from 127.0.0.1."""

from __future__ import annotations

import argparse
import sys
import time
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # heavy (selenium, uvicorn): imported when the command runs, not when the CLI starts
    from companion.bridge.launcher import LaunchedBrowser
    from companion.protocol import Snapshot


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("snapshot", help="print the snapshot of a page as JSON",
                                   description=__doc__)
    parser.add_argument("target", help="an http(s) URL, or a local .html / .html.gz file")
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds for the page load and the snapshot")
    parser.add_argument("--online", action="store_true",
                        help="let a local file's page fetch from the network (default: only 127.0.0.1 resolves)")
    parser.add_argument("--indent", type=int, default=None, help="pretty-print with this indent")
    parser.set_defaults(func=run)


@dataclass
class SnapshotTiming:
    load_s: float  # browser.open(): navigation until the load event
    roundtrip_ms: float  # request sent until the companion holds the parsed Snapshot
    parse_ms: float  # of which: validating the received JSON into pydantic models
    in_page_ms: float  # serialization inside the page, summed over frames (reported by the extension)
    json_bytes: int
    frames: int
    elements: int

    def line(self) -> str:
        return (f"load {self.load_s:.2f} s, snapshot {self.roundtrip_ms:.0f} ms (in-page {self.in_page_ms:.0f} ms, "
                f"parse {self.parse_ms:.0f} ms), {self.elements} elements in {self.frames} frame(s), {self.json_bytes} bytes")


def snapshot_url(browser: "LaunchedBrowser", url: str, timeout: float = 60.0) -> tuple["Snapshot", SnapshotTiming]:
    """Open `url` in the controlled tab and take its snapshot; the core of the command, reused by tests."""
    t0 = time.perf_counter()
    browser.open(url)
    load_s = time.perf_counter() - t0
    session = browser.session
    snapshot = browser.run(session.snapshot(timeout=timeout), timeout + 5)
    timing = session.last_snapshot_timing
    return snapshot, SnapshotTiming(
        load_s=load_s, roundtrip_ms=timing.total_ms, parse_ms=timing.parse_ms, in_page_ms=snapshot.timing_ms or 0.0,
        json_bytes=timing.raw_bytes, frames=len(snapshot.frames), elements=sum(len(f.elements) for f in snapshot.frames))


def run(args: argparse.Namespace) -> int:
    from companion.bridge.errors import BridgeError
    from companion.bridge.launcher import LaunchError, LaunchOptions, LaunchedBrowser
    from companion.bridge.pageserver import serve_if_local_file

    target = args.target
    if "://" not in target and not Path(target).is_file():
        print(f"webchallenger snapshot: {target} is neither a URL nor a file", file=sys.stderr)
        return 2
    try:
        with ExitStack() as stack:
            local_url = serve_if_local_file(stack, target)
            is_file = local_url is not None
            url = local_url or target
            t0 = time.perf_counter()
            browser = stack.enter_context(LaunchedBrowser(LaunchOptions(offline=not args.online if is_file else False,
                                                                        page_load_timeout=args.timeout)))
            launch_s = time.perf_counter() - t0
            snapshot, timing = snapshot_url(browser, url, args.timeout)
            sys.stdout.write(snapshot.model_dump_json(exclude_none=True, indent=args.indent) + "\n")
            sys.stdout.flush()
            print(f"{url}: launch+pair {launch_s:.2f} s, {timing.line()}", file=sys.stderr)
    except (LaunchError, BridgeError, TimeoutError) as exc:
        print(f"webchallenger snapshot: {exc}", file=sys.stderr)
        return 1
    return 0
