"""`webchallenger bench tokens DIR [--json]`: observation size against the element-level baseline.

For every page of DIR (gzip or plain HTML, as DIR/*.html[.gz] or DIR/<group>/*.html[.gz]; snapshots come
from the corpus snapshot cache of benchmarks/corpus.py and missing ones are recorded once through
headless Chromium with the extension unless --no-record):
- baseline: tokens of the whole page rendered as one accessibility-style outline;
- observation: tokens of the observation the actor reads after one observation step (Observation.summary,
  the "Current page:" of the action-selection prompt: the page task summary, or the sections' own text for a
  page small enough to show whole);
- sent: tokens of every prompt of that step, the largest single prompt, the number of calls — cold, and
  again for a second visit whose section summaries and purposes come from WebsiteMem ("warm").
The step runs the real pipeline, the real prompt templates and the real client with the lexical stand-in in
place of a model (benchmarks/lexical.py: options ranked by word overlap with the task, over HTTP on 127.0.0.1),
so no model is needed and the figures are reproducible. Sizes are our count of each rendered prompt (the
budget's measure), not the server's. Nothing here is timed.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Iterable

from benchmarks.corpus import cache_name, record_corpus, snapshot_cache_dir
from benchmarks.lexical import lexical_server
from companion.llm.client import LLMClient
from companion.memory.store import WebsiteMemStore
from companion.observe import Budget, PageObserver
from companion.pagemem.divide import divide_page
from companion.pagemem.render import details_string, render_nodes
from companion.pagemem.tokens import count_tokens
from companion.pagemem.tree import build_tree
from companion.protocol import Snapshot

LARGE_PAGE = 5000  # baseline tokens above which the 40 % target applies
TARGET_RATIO = 0.40


def register(bench_subparsers: argparse._SubParsersAction) -> None:
    p = bench_subparsers.add_parser("tokens", help="observation tokens vs the whole-page outline, per page")
    p.add_argument("dir", type=Path, help="directory of pages (*.html / *.html.gz, flat or one level of groups)")
    p.add_argument("--cache", type=Path, default=None, help="snapshot cache (default: <cache dir>/corpus-snapshots)")
    p.add_argument("--no-record", action="store_true", help="use cached snapshots only; do not start a browser")
    p.add_argument("--budget", type=int, default=Budget().max_prompt_tokens, help="prompt token bound")
    p.add_argument("--limit", type=int, default=None, help="at most this many pages")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=run)


def page_files(directory: Path) -> list[Path]:
    out: list[Path] = []
    for pattern in ("*.html.gz", "*.html", "*/*.html.gz", "*/*.html"):
        out.extend(sorted(directory.glob(pattern)))
    return out


def task_for(snapshot: Snapshot) -> str:
    title = " ".join(snapshot.title.split())[:120] or "this page"
    return f"Read '{title}' and note its key facts"


def baseline_tokens(snapshot: Snapshot) -> int:
    """The element-level baseline: the whole page as one outline, in the same renderer as sections."""
    return count_tokens(details_string(render_nodes(build_tree(snapshot).roots)))


async def measure(snapshot: Snapshot, budget: Budget) -> dict:
    """One cold observation step (nothing cached), then the same page visited again with the section
    summaries and purposes in WebsiteMem (a real store in a temporary directory)."""
    # The store is real; on tmpfs when there is one, so its fsyncs do not turn the bench into a disk test.
    shm = "/dev/shm" if Path("/dev/shm").is_dir() else None
    lexical_server()
    client = LLMClient(spec="lexical")
    with tempfile.TemporaryDirectory(prefix="wc-bench-mem-", dir=shm) as tmp, WebsiteMemStore("bench", directory=Path(tmp)) as store:
        try:
            pagemem = divide_page(snapshot)
            obs = await PageObserver(store, client=client, budget=budget, max_selected=3).observe(task_for(snapshot), "", pagemem)
            warm = await PageObserver(store, client=client, budget=budget, max_selected=3).observe(
                task_for(snapshot), "", divide_page(snapshot))
        finally:
            await client.aclose()
    base = baseline_tokens(snapshot)
    return {
        "baseline_tokens": base,
        "observation_tokens": count_tokens(obs.summary),
        "sent_tokens": obs.usage.prompt_tokens,
        "sent_tokens_warm": warm.usage.prompt_tokens,
        "calls_warm": warm.usage.count,
        "max_prompt_tokens": obs.usage.max_prompt_tokens,
        "calls": obs.usage.count,
        "calls_by_prompt": obs.usage.by_prompt(),
        "sections": len(pagemem.sections),
        "modal": obs.modal,
        "ratio": round(count_tokens(obs.summary) / base, 4) if base else None,
    }


def bench(snapshots: Iterable[tuple[str, Snapshot]], budget: Budget) -> dict:
    rows: dict[str, dict] = {}
    failures: dict[str, str] = {}
    for name, snap in snapshots:
        try:
            rows[name] = asyncio.run(measure(snap, budget))
        except Exception as e:  # one bad page must not hide the others' figures
            failures[name] = f"{type(e).__name__}: {e}"
    large = [r for r in rows.values() if r["baseline_tokens"] > LARGE_PAGE and r["ratio"] is not None]
    ratios = [r["ratio"] for r in large]
    sent = [r["sent_tokens"] / r["baseline_tokens"] for r in large]
    warm = [r["sent_tokens_warm"] / r["baseline_tokens"] for r in large]
    return {
        "pages": len(rows),
        "budget": budget.max_prompt_tokens,
        "max_prompt_tokens": max((r["max_prompt_tokens"] for r in rows.values()), default=0),
        "pages_over_budget": sorted(n for n, r in rows.items() if r["max_prompt_tokens"] > budget.max_prompt_tokens),
        "large_pages": len(large),
        "median_ratio_large_pages": round(statistics.median(ratios), 4) if ratios else None,
        "large_pages_over_target": sum(1 for x in ratios if x > TARGET_RATIO),
        "median_sent_ratio_large_pages": round(statistics.median(sent), 4) if sent else None,
        "median_warm_sent_ratio_large_pages": round(statistics.median(warm), 4) if warm else None,
        "median_calls_warm": statistics.median([r["calls_warm"] for r in rows.values()]) if rows else 0,
        "median_calls": statistics.median([r["calls"] for r in rows.values()]) if rows else 0,
        "max_calls": max((r["calls"] for r in rows.values()), default=0),
        "median_baseline_tokens": statistics.median([r["baseline_tokens"] for r in rows.values()]) if rows else 0,
        "per_page": rows,
        "failures": failures,
    }


def _load(files: list[Path], cache: Path) -> Iterable[tuple[str, Snapshot]]:
    import gzip

    for f in files:
        path = cache / cache_name(f)
        if path.exists():
            yield path.name.removesuffix(".json.gz"), Snapshot.model_validate_json(gzip.decompress(path.read_bytes()))


def _record_missing(directory: Path, files: list[Path], cache: Path) -> None:
    missing = [f for f in files if not (cache / cache_name(f)).exists()]
    if not missing:
        return
    progress = lambda s: print(s, file=sys.stderr)  # noqa: E731
    # record_corpus reads <corpus>/<group>/<page>; flat pages are presented to it through a symlinked group.
    with tempfile.TemporaryDirectory(prefix="wc-bench-tokens-") as tmp:
        root = Path(tmp)
        grouped = [f for f in missing if f.parent != directory]
        if grouped:
            record_corpus(directory, cache, progress=progress)
        if len(grouped) < len(missing):
            (root / directory.resolve().name).symlink_to(directory.resolve(), target_is_directory=True)
            record_corpus(root, cache, progress=progress)


def run(args: argparse.Namespace) -> int:
    directory: Path = args.dir
    if not directory.is_dir():
        print(f"not a directory: {directory}", file=sys.stderr)
        return 2
    cache = args.cache or snapshot_cache_dir()
    cache.mkdir(parents=True, exist_ok=True)
    files = page_files(directory)[: args.limit] if args.limit else page_files(directory)
    if not files:
        print(f"no *.html or *.html.gz pages in {directory}", file=sys.stderr)
        return 2
    if not args.no_record:
        _record_missing(directory, files, cache)
    report = bench(_load(files, cache), Budget(max_prompt_tokens=args.budget))
    report["pages_without_snapshot"] = len(files) - report["pages"] - len(report["failures"])
    if args.json:
        print(json.dumps(report))
        return 0
    print(f"{'page':<48} {'baseline':>8} {'observ.':>8} {'ratio':>6} {'sent':>7} {'max prompt':>10} {'calls':>5}")
    for name, r in report["per_page"].items():
        ratio = f"{r['ratio']:.2f}" if r["ratio"] is not None else "-"
        print(f"{name[:48]:<48} {r['baseline_tokens']:>8} {r['observation_tokens']:>8} {ratio:>6} "
              f"{r['sent_tokens']:>7} {r['max_prompt_tokens']:>10} {r['calls']:>5}")
    print(f"pages: {report['pages']} (no snapshot: {report['pages_without_snapshot']}, failed: {len(report['failures'])})")
    print(f"largest single prompt: {report['max_prompt_tokens']} tokens (bound {report['budget']}; "
          f"pages over it: {len(report['pages_over_budget'])})")
    print(f"pages above {LARGE_PAGE} baseline tokens: {report['large_pages']}; median observation/baseline "
          f"{report['median_ratio_large_pages']} (target <= {TARGET_RATIO}); over target: {report['large_pages_over_target']}; "
          f"median sent/baseline {report['median_sent_ratio_large_pages']} "
          f"(summaries cached in WebsiteMem: {report['median_warm_sent_ratio_large_pages']})")
    print(f"calls per page: median {report['median_calls']}, max {report['max_calls']}; "
          f"with cached summaries: median {report['median_calls_warm']}")
    for name, err in report["failures"].items():
        print(f"  FAILED {name}: {err}")
    return 1 if report["failures"] or report["pages_over_budget"] else 0
