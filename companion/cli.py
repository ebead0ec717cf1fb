"""The `webchallenger` command. Each subcommand lives in its own module under companion.commands."""

from __future__ import annotations

import argparse
import importlib
import os
import sys

# Each module defines register(subparsers) and sets a `func(args) -> int` default on its parser. BENCH marks where
# `bench` goes: its commands live in the benchmarks package (_benchmarks).
BENCH = "bench"
COMMAND_MODULES = [
    "companion.commands.serve",
    "companion.commands.snapshot",
    BENCH,
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
        module = _benchmarks() if name == BENCH else importlib.import_module(name)
        module.register(sub)
    return parser


# A reader that went away (`webchallenger memory show --json | head`) ends the command quietly, as with any
# Unix tool; 128 + SIGPIPE is the status a shell expects of it.
EXIT_BROKEN_PIPE = 141


def _benchmarks():
    """`webchallenger bench ...` (the benchmark front ends and their harnesses) and `--llm lexical` (the no-model
    stand-in that the product's client connects to but never starts).

    They live in the top-level `benchmarks` package beside the product, not in it: episodes, scoring and a no-model
    stand-in are harness code. This is the one place companion/ loads that package, at call time, so no product
    module depends on its harness."""
    import benchmarks.cli

    return benchmarks.cli


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    _benchmarks().serve_stand_in(args)
    try:
        code = int(args.func(args) or 0)
        sys.stdout.flush()  # here, not at exit: a closed pipe then raises where it is handled
        return code
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # Python flushes stdout again at exit: point it at /dev/null so that flush has nowhere to fail.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_BROKEN_PIPE


if __name__ == "__main__":
    sys.exit(main())
