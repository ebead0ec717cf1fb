"""`webchallenger bench <name>`: benchmarks that report figures (never pass/fail on time).

Each module in BENCH_MODULES defines register(bench_subparsers) and sets `func(args) -> int` on its parser.
"""

from __future__ import annotations

import argparse
import importlib

BENCH_MODULES = [
    "benchmarks.commands.snapshot",
    "benchmarks.commands.divide",
    "benchmarks.commands.memory",
    "benchmarks.commands.tokens",
    "benchmarks.commands.tasks",
    "benchmarks.commands.miniwob",
    "benchmarks.commands.speed",
    "benchmarks.commands.llm",
    "benchmarks.commands.serving",
    "benchmarks.commands.explore",
]


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("bench", help="run a benchmark and print its figures")
    bench_sub = parser.add_subparsers(dest="bench", required=True)
    for name in BENCH_MODULES:
        importlib.import_module(name).register(bench_sub)


def serve_stand_in() -> None:
    """Start the no-model stand-in (benchmarks/lexical.py) for a command whose LLM is `lexical` (companion/cli.py
    decides that); the product's client only connects to it."""
    from benchmarks.lexical import lexical_server

    lexical_server()
