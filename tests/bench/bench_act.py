#!/usr/bin/env python3
"""Benchmark the ACT workflows with a real model (figures, not assertions): one compound action each on the
act_* fixture pages in headless Chromium with the extension, timing wall clock, LLM calls and tokens, and
reading the page afterwards to say whether the workflow did the right thing.

    .venv/bin/python tests/bench/bench_act.py [--llm embedded] [--only login,dropdown] [--out bench-results/act.json]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from selenium.webdriver.common.by import By  # noqa: E402

from benchmarks.cli import serve_stand_in  # noqa: E402
from companion.cli import uses_lexical  # noqa: E402
from companion import llm  # noqa: E402
from companion.act import AgentContext, execute  # noqa: E402
from companion.act.candidates import element_candidate  # noqa: E402
from companion.bridge.launcher import LaunchOptions, launch_browser  # noqa: E402
from companion.bridge.pageserver import PagePair  # noqa: E402
from companion.llm.config import add_llm_arguments  # noqa: E402

# name -> (page, task, element name to act on, css of the result, expected result text)
CASES = {
    "login": ("act_login.html", "Log in as alice with password hunter22", "Username", "#result", "Logged in as alice (password length 8)"),
    "dropdown": ("act_dropdown.html", "Choose the ocean blue paint colour", "Choose a colour", "#chosen", "Ocean blue"),
    "search": ("act_search.html", "Search the store for a red kettle", "Search products", "#results", "Results for: red kettle"),
    "select": ("act_select.html", "Choose express shipping (2 days)", "Shipping speed", "#chosen", "Express (2 days)"),
    "upload": ("act_upload.html", "Upload a text file named list.txt containing: milk, tea", "Notes file", "#shown", "list.txt: milk, tea"),
}


async def run_case(browser, pages: PagePair, name: str, files: Path) -> dict:
    page, task, element, css, expected = CASES[name]
    browser.open(pages.url(page))
    ctx = AgentContext(session=browser.session, task=task, files_dir=files / name)
    await ctx.refresh()
    el = next(e for e in ctx.pagemem.all_elements() if e.name == element)
    candidate = element_candidate(el, ctx.pagemem.section_of(el.ref).id)
    started = time.perf_counter()
    error = ""
    with llm.track_usage() as tally:
        try:
            outcome = await execute(ctx, candidate, "benchmark")
            actions = outcome.actions
        except Exception as exc:  # a benchmark reports failures as figures
            actions, error = [], f"{type(exc).__name__}: {exc}"
    wall = time.perf_counter() - started
    shown = browser.driver.find_element(By.CSS_SELECTOR, css).text
    return {"workflow": name, "wall_s": round(wall, 2), "llm_calls": tally.calls, "llm_s": round(tally.latency_s, 2),
            "prompt_tokens": tally.prompt_tokens, "completion_tokens": tally.completion_tokens, "by_prompt": tally.by_prompt,
            "correct": shown == expected, "page_shows": shown, "actions": actions, "error": error}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_llm_arguments(parser)
    parser.add_argument("--only", default=",".join(CASES), help="comma-separated workflows: " + ", ".join(CASES))
    parser.add_argument("--out", default="", help="also write the figures as JSON here")
    args = parser.parse_args()
    if uses_lexical(args):  # `--llm lexical`: its server, as `webchallenger` starts it
        serve_stand_in()
    llm.use_llm_from_args(args)
    results = []
    with PagePair(ROOT / "tests" / "fixtures" / "pages") as pages, \
            launch_browser(LaunchOptions(extension=ROOT / "dist" / "extension")) as browser, \
            tempfile.TemporaryDirectory() as tmp:
        for name in [n.strip() for n in args.only.split(",") if n.strip()]:
            result = browser.run(run_case(browser, pages, name, Path(tmp)), timeout=900)
            results.append(result)
            print(json.dumps(result), flush=True)
    if args.out:
        Path(args.out).parent.mkdir(parents=True, exist_ok=True)
        Path(args.out).write_text(json.dumps(results, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
