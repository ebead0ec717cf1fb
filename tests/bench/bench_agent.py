#!/usr/bin/env python3
"""Benchmark whole tasks with a real model (figures, not assertions): `webchallenger run` on small local
fixture sites, each task in a fresh headless Chromium and a fresh memory, reporting whether the answer holds
the expected value (or the agent reached the expected page), the steps, LLM calls and tokens, and the wall time.

    .venv/bin/python tests/bench/bench_agent.py [--llm embedded:qwen2.5-coder-1.5b] [--only price,search]
        [--repeat N] [--max-steps 8] [--out bench-results/agent.json]

At temperature 0 a model answers the same prompt the same way, so repeating one task mostly measures the
machine; the spread of the figure comes from the different tasks.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# name -> (task, start page under tests/fixtures/pages, what must hold: a value in the answer, or for a task
# that does something, "url:" and a pattern the URL of a page the agent reached must match)
TASKS = {
    "price": ("What is the price of the Blue kettle?", "agent_shop.html", "24.50"),
    "price-green": ("How much does the Green kettle cost?", "agent_shop.html", "31.00"),
    "price-red": ("Find the price of the Red kettle on this site.", "agent_shop.html", "19.99"),
    "search": ("Search for the steel teapot and tell me its price.", "agent_tea.html", "42.00"),
    "search-glass": ("How much is the glass teapot? Use the shop's search.", "agent_tea.html", "35.50"),
    # A total no page states: the answer adds up two prices read on the page.
    "total": ("What is the total price of the Blue kettle and the Red kettle together?", "derived_total.html", "55.50"),
    "subscribe": ("Subscribe ada@example.com to the monthly newsletter.", "agent_news.html",
                  r"url:agent_news_done\.html\?email=ada%40example\.com&freq=monthly"),
    # A form with a custom (ARIA) combobox and an autocomplete field: each counts only when an
    # option or a suggestion is picked, typed text alone leaves it empty.
    "form-combo": ("Order a plant for Ada: a Medium pot, delivered to Lisbon, wrapped in Cloth.", "form_combo.html",
                   r"url:form_combo_done\.html\?name=Ada&pot=m&city=LIS&wrap=cloth"),
    # Regions added after page entry, at the end of the document: a popover a button opens,
    # and in-page search results whose links lead to the answer.
    "late-popover": ("How much does Express delivery cost for the Blue kettle?", "late_popover.html", "9.90"),
    "late-results": ("What is the price of the Moka Express pot? Use the shop's search.", "late_results.html", "34.90"),
    # A custom menu of 100 options (WorkArena's long menus): the 87th is past what one prompt shows.
    "long-menu": ("Assign the incident to Support team 87 and save it.", "long_menu.html",
                  r"url:long_menu\.html\?assigned=Support%20team%2087"),
    # A consent dialog whose buttons do not close it, over the page with the answer.
    "cookie-wall": ("What is the price of the Blue kettle?", "agent_cookie_wall.html", "24.50"),
    # A one-word link in 9 px type, 8 x 11 px.
    "small-link": ("Open the page where I sign in to track an order.", "pm_small.html", r"url:/signin"),
    # A choose-from-the-list form: the <select> is what the task names.
    "choose-list": ("Choose Bob from the list of names and submit the form.", "filter_choose.html",
                    r"url:form_done\.html\?nick=&who=Bob"),
    # A field that already holds the value the task gives.
    "filled-field": ("Sign Kasie up for the newsletter: her name is Kasie; tick the box and send the form.",
                     "bench_filled.html", r"url:form_done\.html\?name=Kasie&news=on"),
}

DONE = re.compile(r"^== (\w+) after (\d+) step\(s\), ([\d.]+) s, (\d+) LLM calls \((\d+) prompt \+ (\d+) completion"
                  r".*, (\d+) fallback")
LLM_ERROR = re.compile(r"^Why: (LLM\w*Error|NoDecision):", re.M)  # run.py prints the LLM error's class first


def run_one(name: str, llm: str, max_steps: int, threads: int) -> dict:
    task, page, expected = TASKS[name]
    with tempfile.TemporaryDirectory(prefix="bench-agent-") as data:
        env = {**os.environ, "WEBCHALLENGER_DATA_DIR": data, "WEBCHALLENGER_LLM_THREADS": str(threads),
               "WEBCHALLENGER_LLM_TIMEOUT": os.environ.get("WEBCHALLENGER_LLM_TIMEOUT", "600")}
        started = time.monotonic()
        proc = subprocess.run([sys.executable, "-m", "companion", "run", task, "--start-url",
                               str(ROOT / "tests/fixtures/pages" / page), "--headless", "--no-confirm",
                               "--max-steps", str(max_steps), "--llm", llm],
                              cwd=ROOT, env=env, capture_output=True, text=True, timeout=3600)
        wall = time.monotonic() - started
    out = proc.stdout
    answer = next((line[len("Answer:"):].strip() for line in out.splitlines() if line.startswith("Answer:")), "")
    done = next((DONE.match(line) for line in out.splitlines() if DONE.match(line)), None)
    if expected.startswith("url:"):
        reached = re.findall(r"^== Step \d+: .* \((\S+)\)$", out, re.M)
        held = any(re.search(expected[4:], url) for url in reached)
    else:
        held = expected in answer
    result = {"task": name, "ok": proc.returncode == 0 and held, "exit": proc.returncode,
              "answer": answer, "wall_s": round(wall, 1), "transcript": out}
    if done:
        result.update(status=done.group(1).lower(), steps=int(done.group(2)), calls=int(done.group(4)),
                      prompt_tokens=int(done.group(5)), completion_tokens=int(done.group(6)), fallbacks=int(done.group(7)),
                      llm_error=bool(LLM_ERROR.search(out)))
    else:
        result.update(status="crashed", stderr=proc.stderr[-2000:])
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--llm", default="embedded:qwen2.5-coder-1.5b")
    parser.add_argument("--only", default="", help="comma-separated task names: " + ", ".join(TASKS))
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--max-steps", type=int, default=8)
    parser.add_argument("--threads", type=int, default=os.cpu_count() or 1, help="embedded model threads")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    names = [n for n in args.only.split(",") if n] or list(TASKS)
    unknown = [n for n in names if n not in TASKS]
    if unknown:
        parser.error(f"unknown task(s): {', '.join(unknown)}")

    results = []
    for _ in range(args.repeat):
        for name in names:
            print(f"[bench agent] {name} ...", file=sys.stderr, flush=True)
            r = run_one(name, args.llm, args.max_steps, args.threads)
            results.append(r)
            print(f"{r['task']:<14} {'ok' if r['ok'] else 'FAIL':<4} {r.get('status', ''):<12} steps {r.get('steps', '-'):<3} "
                  f"calls {r.get('calls', '-'):<4} fallbacks {r.get('fallbacks', '-'):<3} {'LLM-ERR ' if r.get('llm_error') else ''}"
                  f"{r['wall_s']:>7.1f} s   {r['answer'][:70]}", flush=True)
    passed = sum(r["ok"] for r in results)
    walls = sorted(r["wall_s"] for r in results)
    print(f"\n{passed} of {len(results)} tasks answered correctly; wall time median {walls[len(walls) // 2]:.1f} s, "
          f"max {walls[-1]:.1f} s ({args.llm}); {sum(r.get('fallbacks', 0) for r in results)} call(s) needed a fallback, "
          f"{sum(bool(r.get('llm_error')) for r in results)} task(s) lost to an LLM error")
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps({"llm": args.llm, "results": results}, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
