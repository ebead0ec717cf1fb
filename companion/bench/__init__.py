"""Benchmark harnesses: the code that sets up and scores a benchmark's episodes, apart from the command that
prints them (companion/commands/bench_*.py). MiniWoB++ lives here (miniwob.py, miniwob_tasks.py)."""
