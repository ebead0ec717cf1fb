"""`webchallenger bench snapshot`: what a snapshot costs, against the cost of merely walking the DOM.

For a synthetic 10,000-element page and for corpus pages (gzipped HTML served on 127.0.0.1), it measures
side by side, in one browser:
  - walk:      the in-page bare DOM walk that only counts elements (the floor; extension's countOnly)
  - in-page:   the in-page serialization of the top frame (extension's snapshotFrame)
  - companion: request sent -> the companion holds the parsed, validated Snapshot (all frames)
  - wait:      of which request sent -> raw reply received (injection, in-page work, transfers)
  - parse:     of which pydantic validation of the received JSON (wall time, and CPU time of the
               server thread, which a busy machine does not inflate)
  - size:      the JSON bytes on the wire
Medians over --runs repetitions; ratios are against the floor. Figures, not pass/fail.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from dataclasses import asdict
from pathlib import Path

from benchmarks.snapshot import FloorProbe, PageFigures, measure_page, synthetic_page
from companion.bridge.locations import REPO_ROOT

DEFAULT_CORPUS = REPO_ROOT.parent / "shared" / "corpus"


def register(bench_subparsers: argparse._SubParsersAction) -> None:
    parser = bench_subparsers.add_parser("snapshot", help="snapshot cost: synthetic 10k-element page and corpus",
                                         description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS, help=f"directory of *.html.gz pages (default {DEFAULT_CORPUS})")
    parser.add_argument("--limit", type=int, default=0, help="only the first N corpus pages (0: all)")
    parser.add_argument("--runs", type=int, default=5, help="repetitions per page (median reported)")
    parser.add_argument("--elements", type=int, default=10_000, help="elements in the synthetic page")
    parser.add_argument("--json", action="store_true", help="print all figures as JSON on stdout")
    parser.set_defaults(func=run)


# --------------------------------------------------------------------------- reporting


def _fmt(value: float | None, unit: str = "ms") -> str:
    return "n/a" if value is None else f"{value:.1f} {unit}"


def _ratio(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.1f}x"


def describe(f: PageFigures) -> str:
    if f.error:
        return f"{f.page}: ERROR {f.error}"
    return (f"{f.page}: {f.elements} elements, {f.frames} frame(s), {f.json_bytes / 1024:.0f} KiB\n"
            f"  walk (floor)      {_fmt(f.walk_ms)}\n"
            f"  in-page snapshot  {_fmt(f.in_page_ms)}  = {_ratio(f.ratio(f.in_page_ms))} floor   (all frames: {_fmt(f.in_page_all_frames_ms)})\n"
            f"  companion parsed  {_fmt(f.companion_ms)}  = {_ratio(f.ratio(f.companion_ms))} floor   "
            f"(of which waiting for the reply {_fmt(f.wait_ms)}, parse {_fmt(f.parse_ms)}; parse CPU {_fmt(f.parse_cpu_ms)})")


def summarize(pages: list[PageFigures]) -> dict:
    ok = [p for p in pages if not p.error]

    def stats(values: list[float]) -> dict | None:
        values = sorted(v for v in values if v is not None)
        if not values:
            return None
        return {"median": statistics.median(values), "p90": values[min(len(values) - 1, int(0.9 * len(values)))], "max": values[-1]}

    return {
        "pages": len(pages), "failed": len(pages) - len(ok),
        "elements": stats([p.elements for p in ok]),
        "json_kib": stats([p.json_bytes / 1024 for p in ok]),
        "walk_ms": stats([p.walk_ms for p in ok]),
        "in_page_ms": stats([p.in_page_ms for p in ok]),
        "companion_ms": stats([p.companion_ms for p in ok]),
        "wait_ms": stats([p.wait_ms for p in ok]),
        "parse_ms": stats([p.parse_ms for p in ok]),
        "parse_cpu_ms": stats([p.parse_cpu_ms for p in ok]),
        "in_page_over_floor": stats([p.ratio(p.in_page_ms) for p in ok]),
        "companion_over_floor": stats([p.ratio(p.companion_ms) for p in ok]),
        "errors": [f"{p.page}: {p.error}" for p in pages if p.error],
    }


def describe_summary(s: dict) -> str:
    def row(name: str, key: str, fmt=lambda v: f"{v:.1f}") -> str:
        v = s.get(key)
        return f"  {name:<22} " + ("n/a" if not v else f"median {fmt(v['median'])}  p90 {fmt(v['p90'])}  max {fmt(v['max'])}")

    lines = [f"corpus: {s['pages']} pages, {s['failed']} failed",
             row("elements", "elements", lambda v: f"{v:.0f}"), row("JSON KiB", "json_kib"),
             row("walk (floor) ms", "walk_ms"), row("in-page snapshot ms", "in_page_ms"),
             row("companion parsed ms", "companion_ms"), row("  waiting for reply ms", "wait_ms"), row("  parse ms", "parse_ms"), row("  parse CPU ms", "parse_cpu_ms"),
             row("in-page / floor", "in_page_over_floor"), row("companion / floor", "companion_over_floor")]
    lines += [f"  failed: {e}" for e in s["errors"][:20]]
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    from companion.bridge.launcher import LaunchedBrowser, LaunchOptions
    from companion.bridge.pageserver import PageServer

    corpus_files = sorted(args.corpus.rglob("*.html.gz")) if args.corpus.is_dir() else []
    if args.limit:
        corpus_files = corpus_files[: args.limit]
    with tempfile.TemporaryDirectory(prefix="webchallenger-bench-") as tmp:
        synthetic = Path(tmp) / "synthetic.html"
        synthetic.write_text(synthetic_page(args.elements))
        with PageServer(tmp) as synth_server, LaunchedBrowser(LaunchOptions(offline=True)) as browser:
            floor = FloorProbe(browser)
            log = (lambda msg: print(msg, file=sys.stderr, flush=True))
            log(f"browser launched and paired in {sum(browser.timings.values()):.1f} s")
            synth = measure_page(browser, floor, f"synthetic-{args.elements}", synth_server.url("synthetic.html"), args.runs)
            if args.json:  # stdout is the JSON document: progress goes to stderr, in one line
                log(f"{synth.page}: " + (f"ERROR {synth.error}" if synth.error else "measured"))
            else:  # shown once, now, rather than after a corpus run of minutes
                print(describe(synth), flush=True)
            corpus: list[PageFigures] = []
            if corpus_files:
                with PageServer(args.corpus) as corpus_server:
                    t0 = time.perf_counter()
                    for i, path in enumerate(corpus_files, 1):
                        figures = measure_page(browser, floor, str(path.relative_to(args.corpus)), corpus_server.url(path), args.runs)
                        corpus.append(figures)
                        if figures.error or i % 25 == 0:
                            log(f"  [{i}/{len(corpus_files)}] {time.perf_counter() - t0:.0f} s" + (f"  {figures.page}: {figures.error}" if figures.error else ""))
            else:
                log(f"no corpus pages under {args.corpus}: synthetic page only")
            floor.close()
            summary = summarize(corpus) if corpus else None
            floor_note = floor.unavailable or f"floor measured via the extension's count-only walk ({floor.via})"
            if args.json:
                print(json.dumps({"synthetic": asdict(synth), "corpus_summary": summary,
                                  "corpus": [asdict(p) for p in corpus], "floor": floor_note}, indent=1))
            else:
                if summary:
                    print(describe_summary(summary))
                print(floor_note)
    failed = (1 if synth.error else 0) + (summary["failed"] if summary else 0)
    return 1 if failed else 0
