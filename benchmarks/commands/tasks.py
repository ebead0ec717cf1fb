"""`webchallenger bench tasks [FILE]`: the real-app task suite (WebArena-style) on the shop admin test site.

Each task of FILE (default tests/djangosite/tasks.json; format in benchmarks/task_suite.py) runs with the
agent in a fresh headless Chromium with the extension, logged in, with a fresh memory; lookups are judged by
their answer, changes by the site's database (reset to the seed before each of them). `--memory explore`
explores the site once first (`webchallenger explore --no-summaries`) and gives every task a copy of that
memory; `--memory both` runs the suite without and then with it. Confirmations are answered yes.
Prints a table (per task, then success per kind and overall) and writes every figure to a JSON file. A task that
starts logged out at the log-in page (`"needs_login": false`, credentials in its intent, as WebArena's) is
marked "@login" in the table, and counted apart ("at log-in", summary key "at_login"), not among the lookups
and changes, which start logged in.
Figures, not pass/fail: the exit code is 0 whenever the bench ran (1 when the harness could not run a task).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import time
from contextlib import ExitStack
from pathlib import Path

from companion.bridge.locations import REPO_ROOT

DEFAULT_SUITE = REPO_ROOT / "tests" / "djangosite" / "tasks.json"


def register(bench_subparsers: argparse._SubParsersAction) -> None:
    from benchmarks.explore_memory import ExploreLimits
    from benchmarks.task_runner import DEFAULT_MAX_STEPS

    limits = ExploreLimits()
    p = bench_subparsers.add_parser("tasks", help="real-app tasks on the shop admin site, judged by answer or database",
                                    description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("file", nargs="?", type=Path, default=DEFAULT_SUITE, help="the task file (default: %(default)s)")
    p.add_argument("--llm", metavar="SPEC", help="as for `run`: embedded[:model] | openai:URL#model | lexical | ... (default: embedded)")
    p.add_argument("--max-steps", type=int, default=DEFAULT_MAX_STEPS, metavar="N", help="step budget per task (default %(default)s)")
    p.add_argument("--memory", choices=["none", "explore", "both"], default="none",
                   help="start each task with no memory, with a copy of one exploration of the site, or run both")
    p.add_argument("--only", default="", metavar="ID,ID", help="run only these tasks")
    p.add_argument("--kind", choices=["lookup", "change"], help="run only lookups or only changes")
    p.add_argument("--explore-max-pages", type=int, default=limits.max_pages, metavar="N",
                   help="--memory explore: pages the exploration registers (default %(default)s)")
    p.add_argument("--explore-max-time", type=float, default=limits.max_time, metavar="SECONDS",
                   help="--memory explore: time of the exploration (default %(default)g)")
    p.add_argument("--task-timeout", type=float, default=None, metavar="SECONDS", help="stop a task after this long")
    p.add_argument("--out", type=Path, default=None, metavar="FILE",
                   help="the JSON result (default: bench-results/tasks-<time>.json); written after every task. When "
                        "FILE exists, the run goes on from it: its finished tasks are kept, not run again, and the new "
                        "ones are appended (a long run may be split over sessions)")
    p.add_argument("--work-dir", type=Path, default=None, metavar="DIR",
                   help="keep each run's memory and checkpoints here (default: a temporary directory, removed); "
                        "an exploration kept here is reused by the next run with the same DIR")
    p.add_argument("--record", type=Path, default=None, metavar="DIR",
                   help="record each task (LLM calls, browser requests, pages) as DIR/<task id>.jsonl for `webchallenger replay`")
    p.add_argument("--show", action="store_true", help="visible browser windows (needs a display)")
    p.add_argument("-v", "--verbose", action="store_true", help="print each step of each task")
    p.set_defaults(func=run)


def _fail(message: str, code: int = 2) -> int:
    print(f"webchallenger bench tasks: {message}", file=sys.stderr)
    return code


def _llm(spec: str | None):
    """The process's LLM client for every task (the embedded model fetched first when it is missing)."""
    from companion import llm

    client = llm.LLMClient(spec=spec)
    llm.set_client(client)
    if client.settings.kind == "embedded" and not client.settings.gguf_path:
        from companion.llm.model_files import ensure_model

        ensure_model(client.settings.model, install=True, log=lambda m: print(f"[model] {m}", file=sys.stderr, flush=True))
    return client


def format_run(run) -> str:
    mark = "ok  " if run.success else ("ERR " if run.error else "fail")
    answer = " ".join(run.answer.split())[:60]
    task = f"{run.id}@login" if run.starts_at_login else run.id
    per_step = round(statistics.median(run.step_new_tokens)) if run.step_new_tokens else 0
    line = (f"{mark} {run.memory:<7} {run.kind:<6} {task:<32} {run.status:<12} {run.steps:>5} {run.calls:>5} "
            f"{run.prompt_tokens:>8} {run.new_prompt_tokens:>8} {per_step:>8} {run.completion_tokens:>6} "
            f"{run.wall_s:>7.1f} {run.fallbacks:>5} {run.values_dropped:>7} {'yes' if run.llm_error else '-':>8}  {answer}")
    why = run.error or (run.detail if not run.success else "")
    if run.retried:
        why = f"(run twice: the first {run.retried}) {why}".strip()
    return line + (f"\n     {why[:200]}" if why else "")


HEADER = (f"{'':4} {'memory':<7} {'kind':<6} {'task':<32} {'status':<12} {'steps':>5} {'calls':>5} "
          f"{'prompt':>8} {'new':>8} {'new/step':>8} {'compl.':>6} {'wall s':>7} {'fallb':>5} {'dropped':>7} "
          f"{'llm-lost':>8}  answer   (new: prompt tokens not cached by the server; new/step: the median step)")


def print_summary(summary: dict) -> None:
    print(f"\n{'memory':<8} {'lookups':>9} {'changes':>9} {'at log-in':>9} {'overall':>9} {'errors':>6} {'steps':>6} "
          f"{'calls':>6} {'prompt':>8} {'new':>8} {'wall s':>7} {'fallb':>5} {'dropped':>7} {'llm-lost':>8}   (means per "
          "task; fallb, dropped (values no page supports), llm-lost: totals)")
    for memory, row in summary.items():
        cells = [f"{row[k]['success']}/{row[k]['tasks']}" for k in ("lookup", "change", "at_login", "overall")]
        print(f"{memory:<8} {cells[0]:>9} {cells[1]:>9} {cells[2]:>9} {cells[3]:>9} {row['errors']:>6} {row['mean_steps']:>6} "
              f"{row['mean_calls']:>6} {row['mean_prompt_tokens']:>8} {row.get('mean_new_prompt_tokens', 0):>8} "
              f"{row['mean_wall_s']:>7} {row['fallbacks']:>5} {row.get('values_dropped', 0):>7} {row['lost_to_llm']:>8}")
    print(f"\nper step (median over every step)   {'new prompt tokens':>18} {'wall s':>7}    per call: new / cached tokens")
    for memory, row in summary.items():
        retried = row.get("retried", 0)
        note = f"   ({retried} task(s) run twice after an LLM timeout)" if retried else ""
        print(f"{memory:<36} {row.get('median_step_new_tokens', 0):>18} {row.get('median_step_wall_s', 0):>7}    "
              f"{row.get('new_tokens_per_call', 0)} / {row.get('cached_tokens_per_call', 0)}{note}")
    for memory, row in summary.items():
        spent = row.get("by_prompt") or {}
        if spent:
            print(f"{memory}: new prompt tokens by prompt (calls): "
                  + ", ".join(f"{name} {new:,} ({calls})" for name, (calls, new) in list(spent.items())[:8]))


def _write_json(path: Path, data: dict) -> None:
    from companion.paths import private_dir, write_private_text

    private_dir(path.parent)
    write_private_text(path, json.dumps(data, indent=2, default=str) + "\n")


def run(args: argparse.Namespace) -> int:
    from benchmarks.explore_memory import ExploreLimits, explore_site
    from benchmarks.task_runner import BenchError, RunOptions, TaskRun, pin_extension, run_tasks, summarize
    from benchmarks.task_suite import SuiteError, load_suite
    from companion.llm.config import LLMConfigError

    try:
        suite = load_suite(args.file)
        tasks = suite.select([t for t in args.only.split(",") if t] or None, args.kind)
    except SuiteError as exc:
        return _fail(str(exc))
    if not tasks:
        return _fail("no task left to run")
    if args.max_steps < 1:
        return _fail("--max-steps must be at least 1")
    modes = ["none", "explore"] if args.memory == "both" else [args.memory]
    try:
        client = _llm(args.llm)
    except (LLMConfigError, FileNotFoundError, ValueError, RuntimeError) as exc:
        return _fail(str(exc))
    out = args.out or Path("bench-results") / f"tasks-{time.strftime('%Y%m%d-%H%M%S')}.json"
    opts = RunOptions(max_steps=args.max_steps, headless=not args.show, task_timeout=args.task_timeout,
                      record_dir=args.record)
    stack = ExitStack()
    report: dict = {
        "bench": "tasks", "suite": str(args.file), "date": time.strftime("%Y-%m-%d %H:%M:%S %z"),
        "machine": {"platform": platform.platform(), "cpus": os.cpu_count()},
        "llm": client.settings.spec, "model": getattr(client.settings, "model", None), "max_steps": args.max_steps,
        "memory_modes": modes, "explore": None, "runs": [], "summary": {}, "sessions": [],
    }
    if out.exists():
        try:
            report = _continued(json.loads(out.read_text(encoding="utf-8")), report)
        except (OSError, ValueError, KeyError) as exc:
            return _fail(f"cannot go on from {out}: {exc}")
    report["sessions"].append({"started": time.strftime("%Y-%m-%d %H:%M:%S %z"), "tasks": len(tasks)})
    finished = {(r["id"], r["memory"]) for r in report["runs"]}
    if all((t.id, memory) in finished for t in tasks for memory in modes):
        print(f"every chosen task is already in {out}: nothing to run")
        print_summary(report["summary"])
        return 0

    def on_event(event) -> None:
        from companion.commands.run import format_event

        line = format_event(event)
        if line:
            print(line, flush=True)

    try:
        if args.work_dir is not None:
            work_dir = args.work_dir
            work_dir.mkdir(parents=True, exist_ok=True)
        else:
            import tempfile

            work_dir = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="wc-bench-tasks-")))
        opts.extension = pin_extension(work_dir)
        from benchmarks.app_site import start_site

        # A run split over sessions keeps its site's address: the site memory of its exploration is keyed by it.
        site = start_site(suite.site, port=int(report.get("site_port") or 0))
        stack.callback(site.close)
        same_site = report.get("site_port") == site.port
        report["site_port"] = site.port
        print(f"site: {site.admin_url}   llm: {client.settings.spec}   tasks: {len(tasks)}   memory: {', '.join(modes)}",
              flush=True)
        seed = None
        kept = work_dir / "explore" / "data" / "memory"
        if "explore" in modes and args.work_dir is not None and any(kept.glob("*.json")) and same_site:
            seed = kept  # the exploration an earlier part of this run made: the same memory for every task
            report["explore"] = report["explore"] or {"reused": str(kept)}
            print(f"reusing the exploration in {kept}", flush=True)
        elif "explore" in modes:
            print(f"exploring {site.admin_url} (--no-summaries, at most {args.explore_max_pages} pages) ...", flush=True)
            explored = explore_site(site, work_dir, ExploreLimits(max_pages=args.explore_max_pages,
                                                                  max_time=args.explore_max_time), show=args.show)
            seed = explored.memory_dir
            report["explore"] = explored.model_dump(mode="json", exclude={"memory_dir"})
            pages = _explored_pages(explored.report)
            print(f"explored in {explored.wall_s:.0f} s{f', {pages} pages' if pages is not None else ''}"
                  f"{'; it wrote to the database (restored)' if explored.db_changed else ''}", flush=True)
        print(HEADER, flush=True)
        def keep(run) -> None:  # every finished task is on disk at once: an interrupted run loses nothing
            print(format_run(run), flush=True)
            report["runs"].append(run.model_dump(mode="json"))
            report["summary"] = summarize([TaskRun.model_validate(r) for r in report["runs"]])
            _write_json(out, report)

        for memory in modes:
            todo = [t for t in tasks if (t.id, memory) not in finished]
            if len(todo) < len(tasks):
                print(f"{memory}: {len(tasks) - len(todo)} task(s) already in {out}, {len(todo)} to run", flush=True)
            run_tasks(todo, site, memory, opts, work_dir, memory_seed=seed if memory == "explore" else None,
                      on_run=keep, on_event=on_event if args.verbose else None)
    except BenchError as exc:
        return _fail(str(exc), 1)
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return 130
    finally:
        stack.close()
        if report["runs"]:
            report["summary"] = summarize([TaskRun.model_validate(r) for r in report["runs"]])
            _write_json(out, report)
    print_summary(report["summary"])
    print(f"\nresult: {out}")
    return 1 if any(r["error"] for r in report["runs"]) else 0


def _continued(earlier: dict, fresh: dict) -> dict:
    """The report of an earlier part of this run, to append to: its runs (but those the harness could not run,
    which run again) and its exploration are kept; the LLM and step budget must be the same, or the figures would
    not add up."""
    if earlier.get("bench") != "tasks":
        raise ValueError("it is not a `bench tasks` result")
    for key in ("llm", "max_steps"):
        if earlier.get(key) != fresh[key]:
            raise ValueError(f"it was run with {key} {earlier.get(key)!r}, this run has {fresh[key]!r}")
    earlier["runs"] = [r for r in earlier.get("runs", []) if not r.get("error")]
    earlier["memory_modes"] = list(dict.fromkeys([*earlier.get("memory_modes", []), *fresh["memory_modes"]]))
    earlier.setdefault("sessions", [])
    return earlier


def _explored_pages(report) -> int | None:
    """Pages registered, from explore's JSON report (a list of per-site reports)."""
    try:
        sites = report if isinstance(report, list) else [report]
        return sum(int(s["counts"]["pages"]) for s in sites)
    except (TypeError, KeyError, ValueError):
        return None
