"""`webchallenger bench divide`: DividePage over every corpus page — time, sections, tokens, invariants.

Snapshots come from the cache (benchmarks/corpus.py); missing ones are recorded first through
headless Chromium with the extension (once; `--no-record` skips that). Reports the median and 95th
percentile divide time per page, sections per page, the token distribution of sections by kind, and
every page that breaks an invariant (check.py). Exit code 1 when any page does.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

from benchmarks.divide_check import division_problems
from benchmarks.corpus import default_corpus_dir, failed_pages, load_cached, record_corpus, snapshot_cache_dir
from companion.pagemem.divide import DivideOptions, divide_page

REPEATS = 3  # per page: the minimum of a few runs hides the scheduler noise of a shared machine


def register(bench_subparsers: argparse._SubParsersAction) -> None:
    p = bench_subparsers.add_parser("divide", help="DividePage over the corpus: time per page, sections, tokens")
    p.add_argument("--corpus", type=Path, default=None, help="directory of */*.html.gz pages (default: the shared corpus)")
    p.add_argument("--cache", type=Path, default=None, help="snapshot cache (default: <cache dir>/corpus-snapshots)")
    p.add_argument("--no-record", action="store_true", help="use cached snapshots only; do not start a browser")
    p.add_argument("--retry-failed", action="store_true", help="try again to snapshot pages that failed before")
    p.add_argument("--max-tokens", type=int, default=DivideOptions().max_tokens)
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    p.set_defaults(func=run)


def percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    k = (len(ordered) - 1) * q
    lo = int(k)
    hi = min(lo + 1, len(ordered) - 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (k - lo)


def bench(snapshots, options: DivideOptions) -> dict:
    times: list[float] = []
    cpu_times: list[float] = []  # CPU time: what the division costs, whatever else shares the machine
    sections: list[int] = []
    elements: list[int] = []
    tokens: dict[str, list[int]] = {}
    failures: dict[str, list[str]] = {}
    crashed = 0
    for name, snap in snapshots:
        best = best_cpu = float("inf")
        try:
            for _ in range(REPEATS):
                t0, c0 = time.perf_counter(), time.process_time()
                pm = divide_page(snap, options)
                best = min(best, (time.perf_counter() - t0) * 1000)
                best_cpu = min(best_cpu, (time.process_time() - c0) * 1000)
            problems = division_problems(snap, pm, options)
        except Exception as e:  # division must never fail: report it as a failure, keep going
            failures[name] = [f"{type(e).__name__}: {e}"]
            crashed += 1
            continue
        if problems:
            failures[name] = problems
        times.append(best)
        cpu_times.append(best_cpu)
        sections.append(len(pm.sections))
        elements.append(sum(len(f.elements) for f in snap.frames))
        for s in pm.sections:
            tokens.setdefault(s.kind, []).append(s.tokens)
            for item in s.items:
                tokens.setdefault("list_item", []).append(item.tokens)
    dist = {kind: {"count": len(v), "median": statistics.median(v), "p95": percentile(v, 0.95), "max": max(v)}
            for kind, v in sorted(tokens.items())}
    return {
        "pages": len(times) + crashed,
        "divided": len(times),
        "max_tokens": options.max_tokens,
        "divide_ms": {"median": statistics.median(times) if times else 0, "p95": percentile(times, 0.95),
                      "max": max(times, default=0)},
        "divide_cpu_ms": {"median": statistics.median(cpu_times) if cpu_times else 0, "p95": percentile(cpu_times, 0.95),
                          "max": max(cpu_times, default=0)},
        "elements_per_page": {"median": statistics.median(elements) if elements else 0, "max": max(elements, default=0)},
        "sections_per_page": {"median": statistics.median(sections) if sections else 0, "p95": percentile(sections, 0.95),
                              "max": max(sections, default=0)},
        "section_tokens": dist,
        "failures": failures,
    }


def run(args: argparse.Namespace) -> int:
    corpus = args.corpus or default_corpus_dir()
    cache = args.cache or snapshot_cache_dir()
    cache.mkdir(parents=True, exist_ok=True)
    if not args.no_record:
        recorded, failed = record_corpus(corpus, cache, progress=lambda s: print(s, file=sys.stderr),
                                         retry_failed=args.retry_failed)
        if recorded or failed:
            print(f"recorded {recorded} snapshots into {cache}; {len(failed)} pages could not be snapshotted",
                  file=sys.stderr)
    report = bench(load_cached(cache), DivideOptions(max_tokens=args.max_tokens))
    report["not_snapshotted"] = failed_pages(cache)
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        d, s = report["divide_ms"], report["sections_per_page"]
        print(f"pages divided: {report['divided']}  (snapshots in {cache})")
        c = report["divide_cpu_ms"]
        print(f"divide time per page (wall, best of {REPEATS}): median {d['median']:.1f} ms, p95 {d['p95']:.1f} ms, max {d['max']:.1f} ms")
        print(f"divide time per page (CPU, best of {REPEATS}):  median {c['median']:.1f} ms, p95 {c['p95']:.1f} ms, max {c['max']:.1f} ms")
        print(f"elements per page: median {report['elements_per_page']['median']}, max {report['elements_per_page']['max']}")
        print(f"sections per page: median {s['median']}, p95 {s['p95']:.0f}, max {s['max']}")
        print("section tokens by kind:")
        for kind, v in report["section_tokens"].items():
            print(f"  {kind:<9} n={v['count']:<6} median {v['median']:<6} p95 {v['p95']:<8.0f} max {v['max']}")
        if report["not_snapshotted"]:
            print(f"pages the browser could not snapshot (not divided): {len(report['not_snapshotted'])}")
            for name, why in report["not_snapshotted"].items():
                print(f"  {name}: {why.splitlines()[0][:160] if why else '?'}")
        print(f"pages breaking an invariant: {len(report['failures'])}")
        for name, problems in report["failures"].items():
            print(f"  {name}: {'; '.join(problems)}")
    return 1 if report["failures"] else 0
