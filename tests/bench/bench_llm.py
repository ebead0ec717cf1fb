#!/usr/bin/env python3
"""Benchmark the embedded LLMs on this machine (figures, not assertions). Same as `webchallenger bench llm`.

    .venv/bin/python tests/bench/bench_llm.py [--models smollm2-135m] [--out bench-results/llm.json]
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from benchmarks.commands.llm import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
