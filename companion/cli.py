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


def build_parser(argv: list[str] | None = None) -> argparse.ArgumentParser:
    """The command line. The benchmark commands are loaded only for `bench` (and a top-level --help): the other
    commands then load nothing of the harness and start about a second sooner."""
    argv = sys.argv[1:] if argv is None else argv
    parser = argparse.ArgumentParser(prog="webchallenger", description="A web agent in your own Chrome, thinking with a local LLM.")
    sub = parser.add_subparsers(dest="command", required=True)
    for name in COMMAND_MODULES:
        if name != BENCH:
            importlib.import_module(name).register(sub)
        elif not argv or argv[0] in (BENCH, "-h", "--help"):
            _benchmarks().register(sub)
        else:
            sub.add_parser(BENCH, help="run a benchmark and print its figures")
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


def uses_lexical(args: argparse.Namespace) -> bool:
    """Whether the command's LLM is the no-model stand-in: by --llm, or by WEBCHALLENGER_LLM or llm.toml when it
    takes --llm and none was given. A bad spec is not judged here: the command reports it in its own words."""
    from companion.llm.config import LLMConfigError, load_settings

    if not hasattr(args, "llm"):
        return False
    try:
        return load_settings(args.llm).kind == "lexical"
    except LLMConfigError:
        return False


def main(argv: list[str] | None = None) -> int:
    args = build_parser(argv).parse_args(argv)
    if uses_lexical(args):
        _benchmarks().serve_stand_in()
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
