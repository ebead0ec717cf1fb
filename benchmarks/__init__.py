"""Benchmark harnesses, beside the product rather than in it: the code that sets up and scores a benchmark's
episodes (MiniWoB++ in miniwob.py and miniwob_tasks.py, the Django admin task suite in task_*.py, browser-use as the
peer in peer*.py, the page corpus in corpus.py), the no-model stand-in behind `--llm lexical` (lexical.py), and the
`webchallenger bench <name>` front ends that print their figures (commands/, registered by cli.py).

companion/cli.py loads this package in one place; nothing in companion/ imports it otherwise.
"""
