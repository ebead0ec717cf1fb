"""`webchallenger bench speed`: page to LLM-ready text, ours against browser-use's, on the corpus and a 10k page.

    webchallenger bench speed                                   # synthetic 10,000-element page + the whole corpus
    webchallenger bench speed --limit 20 --runs 3 --out speed.json
    webchallenger bench speed --no-peer                         # our side only

Per page: our snapshot through the real extension and companion plus the PageMem build, next to browser-use's DOM
serialization of the same page in the same Chromium (benchmarks/speed.py); the figure is ours / theirs per
page and its median. browser-use runs from its own venv (.venv-peer, `python3 build.py peer`); when it is not
installed the peer columns are left out and the run says so. Figures, not pass/fail: a JSON result file and a table.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import tempfile
import time
from pathlib import Path

DEFAULT_RUNS = 3
DEFAULT_ELEMENTS = 10_000


def register(bench_subparsers: argparse._SubParsersAction) -> None:
    p = bench_subparsers.add_parser("speed", help="snapshot + PageMem build time against browser-use's DOM serialization",
                                    description=__doc__.split("\n\n")[0])
    p.add_argument("--corpus", type=Path, default=None, help="directory of */*.html.gz pages (default: the shared corpus)")
    p.add_argument("--limit", type=int, default=0, metavar="N", help="only the first N corpus pages (0: all)")
    p.add_argument("--runs", type=int, default=DEFAULT_RUNS, metavar="N", help=f"timed repetitions per page and side, after a warm-up (default {DEFAULT_RUNS})")
    p.add_argument("--elements", type=int, default=DEFAULT_ELEMENTS, metavar="N",
                   help=f"elements in the synthetic page (default {DEFAULT_ELEMENTS}; 0: no synthetic page)")
    p.add_argument("--no-peer", action="store_true", help="measure our side only")
    p.add_argument("--out", type=Path, default=None, metavar="FILE", help="the JSON result (default: bench-results/speed-<time>.json)")
    p.set_defaults(func=run)


def _log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def run(args: argparse.Namespace) -> int:
    from benchmarks.peer import PeerError, PeerUnavailable, PeerWorker, ensure_peer
    from benchmarks.speed import format_table, measure_pages, summarize
    from companion.bridge.launcher import LaunchedBrowser, LaunchError, LaunchOptions
    from companion.bridge.pageserver import PageServer
    from benchmarks.snapshot import synthetic_page
    from benchmarks.corpus import corpus_pages, default_corpus_dir
    from companion.paths import write_private_text

    if args.runs < 1:
        print("webchallenger bench speed: --runs must be at least 1", file=sys.stderr)
        return 2
    corpus = args.corpus or default_corpus_dir()
    files = corpus_pages(corpus) if corpus.is_dir() else []
    if args.limit:
        files = files[: args.limit]
    if not files:
        _log(f"no corpus pages under {corpus}: " + ("synthetic page only" if args.elements else "nothing to measure"))
        if not args.elements:
            return 2
    peer_note = "not run (--no-peer)"
    python = None
    if not args.no_peer:
        try:
            python = ensure_peer(install=False)
        except PeerUnavailable as exc:
            peer_note = f"not run: {exc}"
            print(f"browser-use side skipped: {exc}", flush=True)
    out = args.out or Path("bench-results") / f"speed-{time.strftime('%Y%m%d-%H%M%S')}.json"
    meta = {"benchmark": "speed", "runs": args.runs, "date": time.strftime("%Y-%m-%d %H:%M:%S %z"),
            "machine": f"{platform.node()} {platform.machine()} {os.cpu_count()} CPUs, "
                       f"{platform.python_implementation()} {platform.python_version()}",
            "corpus": str(corpus), "peer": peer_note}
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="webchallenger-speed-") as tmp:
        pages: list[tuple[str, str]] = []
        servers = []
        try:
            if args.elements:
                Path(tmp, "synthetic.html").write_text(synthetic_page(args.elements))
                servers.append(PageServer(tmp).start())
                pages.append((f"synthetic-{args.elements}", servers[-1].url("synthetic.html")))
            if files:
                servers.append(PageServer(corpus, decompress=True).start())
                pages += [(f.relative_to(corpus).as_posix(), servers[-1].url(f.relative_to(corpus).as_posix())) for f in files]
            worker = None
            with LaunchedBrowser(LaunchOptions(offline=True)) as browser:
                meta["chromium"] = browser.driver.capabilities.get("browserVersion", "")
                if python is not None:
                    try:
                        worker = PeerWorker(python)
                        worker.start()
                        meta["peer"] = f"browser-use {worker.version}"
                    except (PeerError, OSError) as exc:
                        meta["peer"] = f"not run: the worker did not start: {exc}"
                        print(f"browser-use side skipped: {exc}", flush=True)
                        worker = None
                _log(f"{len(pages)} page(s), {args.runs} run(s) each; ours" + (" and browser-use" if worker else " only"))

                def progress(i: int, p) -> None:
                    theirs = p.theirs.ms if p.theirs is not None else None
                    ratio = "" if p.ratio is None else f"  ratio {p.ratio:.2f}"
                    errors = "; ".join(e for e in (p.ours.error, p.theirs.error if p.theirs else None) if e)
                    _log(f"[{i}/{len(pages)}] {p.page}: ours {p.ours.ms or 0:.1f} ms"
                         + (f", browser-use {theirs:.1f} ms" if theirs is not None else "") + ratio + (f"  ({errors})" if errors else ""))

                try:
                    results = measure_pages(pages, browser, worker, args.runs, progress)
                finally:
                    if worker is not None:
                        worker.close()
        except LaunchError as exc:
            print(f"webchallenger bench speed: cannot start the browser: {exc}", file=sys.stderr)
            return 1
        finally:
            for server in servers:
                server.stop()
    summary = summarize(results)
    meta["wall_s"] = round(time.monotonic() - started, 1)
    print(format_table(results, summary))
    write_private_text(out, json.dumps({**meta, "summary": summary, "pages": [p.as_dict() for p in results]}, indent=1) + "\n")
    print(f"\nJSON result: {out}")
    return 0 if summary["ours_failed"] == 0 else 1
