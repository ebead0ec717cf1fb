"""The `webchallenger` command. Each subcommand lives in its own module under companion.commands."""

from __future__ import annotations

import argparse
import importlib
import sys

# Each module defines register(subparsers) and sets a `func(args) -> int` default on its parser.
COMMAND_MODULES = [
    "companion.commands.serve",
    "companion.commands.snapshot",
    "companion.commands.bench",
    "companion.commands.llm",
    "companion.commands.pagemem",
    "companion.commands.memory",
    "companion.commands.run",
    "companion.commands.explore",
    "companion.commands.replay",
    "companion.commands.export",
    "companion.commands.install_browser",
]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="webchallenger", description="A web agent in your own Chrome, thinking with a local LLM.")
    sub = parser.add_subparsers(dest="command", required=True)
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
