"""`webchallenger install-browser`: register the native messaging host, so the extension pairs with the
companion, and starts it, with no token to copy."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

BROWSER_CHOICES = ("chrome", "chromium", "edge")


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "install-browser", help="let the extension pair with (and start) the companion: no token to copy",
        description="Register WebChallenger's native messaging host for Chrome, Chromium and Edge. The extension then "
                    "asks it for the companion's port and pairing token, and to start the companion when none runs. "
                    "Only this extension's id may use it. Restart the browser afterwards.")
    parser.add_argument("--browser", action="append", choices=BROWSER_CHOICES, metavar="NAME",
                        help="chrome, chromium or edge; repeatable (default: each one whose profile directory exists)")
    parser.add_argument("--user-data-dir", action="append", type=Path, default=[], metavar="DIR",
                        help="also (or only) a browser started with --user-data-dir DIR; repeatable")
    parser.add_argument("--allow-origin", action="append", default=[], metavar="ORIGIN",
                        help="also this extension origin (a development build with another id)")
    parser.add_argument("--uninstall", action="store_true", help="remove the registration instead")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from companion.native.install import install, targets, uninstall

    found = targets(args.browser, args.user_data_dir)
    if args.uninstall:
        removed = uninstall(found)
        for path in removed:
            print(f"removed {path}")
        if not removed:
            print("nothing was registered for: " + ", ".join(t.label for t in found))
        return 0
    try:
        written = install(found, args.allow_origin)
    except (OSError, ValueError) as exc:
        print(f"webchallenger install-browser: {exc}", file=sys.stderr)
        return 1
    for target, path in zip(found, written):
        print(f"{target.label}: {path}")
    print("Restart the browser; the extension then pairs by itself (and starts the companion when none runs).")
    return 0
