"""`webchallenger bench miniwob`: the agent on MiniWoB++ tasks through the real extension, scored by the pages.

    webchallenger bench miniwob --llm lexical                       # every included task, seed 0
    webchallenger bench miniwob --tasks click-button,enter-text --seeds 3 --llm embedded --out miniwob.json
    webchallenger bench miniwob --category forms --seeds 0,7 --max-steps 8
    webchallenger bench miniwob --list                              # the tasks by behaviour, and those left out
    webchallenger bench miniwob --tasks click-button --llm embedded --peer browser-use   # browser-use beside it
    webchallenger bench miniwob --seeds 82, --llm embedded --out s82.json --append  # go on with a split run

Episodes run one by one in one headless Chromium (benchmarks/miniwob.py); each prints one line as it ends,
and the JSON result (--out) is rewritten after every episode, so a long run can be watched and is never lost.
With --append a run goes on in the file it names: the episodes already there are kept and not run again, the new
ones join them, and each part's date and wall time are listed, so a run split over sessions is one result.
The closing table has success per task and overall, with steps, LLM calls, prompt and completion tokens and wall
time. Figures, not assertions: `--llm lexical` is the no-model baseline and harness check.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import time
from pathlib import Path

DEFAULT_MAX_STEPS = 10


def register(bench_subparsers: argparse._SubParsersAction) -> None:
    from companion.llm.config import add_llm_arguments

    p = bench_subparsers.add_parser("miniwob", help="the agent on MiniWoB++ tasks in headless Chromium, scored by the pages",
                                    description=__doc__.split("\n\n")[0])
    p.add_argument("--tasks", default="", metavar="A,B,...", help="these tasks (default: every included task)")
    p.add_argument("--category", default=None, metavar="NAME", help="the tasks of one behaviour group (see --list)")
    p.add_argument("--seeds", default="1", metavar="N|S1,S2,...",
                   help="a count N (seeds 0..N-1) or a comma list of seeds (one seed 5: '5,'); default 1")
    add_llm_arguments(p)
    p.add_argument("--max-steps", type=int, default=DEFAULT_MAX_STEPS, metavar="N", help=f"step budget per episode (default {DEFAULT_MAX_STEPS})")
    p.add_argument("--episode-timeout", type=float, default=None, metavar="S",
                   help="wall limit per episode in seconds (default 600; MiniWoB's own limit is raised above it)")
    p.add_argument("--out", type=Path, default=None, metavar="FILE", help="write the JSON result here (rewritten after each episode)")
    p.add_argument("--append", action="store_true",
                   help="go on with the run in --out: keep its episodes, run only the task and seed pairs it lacks; "
                        "refused when its LLM, step budget or peer differ")
    p.add_argument("--list", action="store_true", help="print the tasks by behaviour and the excluded ones, then exit")
    p.add_argument("--peer", choices=["browser-use"], default=None,
                   help="also run browser-use (from .venv-peer, installed on first use) on the same tasks, seeds, step "
                        "budget and LLM endpoint, episodes set up the same way; both rows in one table")
    p.add_argument("-v", "--verbose", action="store_true", help="print the agent's steps and actions")
    p.set_defaults(func=run)


def parse_seeds(text: str) -> list[int]:
    """'3' -> [0, 1, 2]; '0,7' -> [0, 7]; '5,' -> [5]."""
    text = text.strip()
    try:
        if "," in text:
            seeds = [int(s) for s in text.split(",") if s.strip()]
        else:
            seeds = list(range(int(text)))
    except ValueError:
        raise ValueError(f"--seeds: {text!r} is neither a count nor a comma list of integers") from None
    if not seeds:
        raise ValueError("--seeds: no seed given")
    return seeds


def summarize(episodes: list[dict]) -> dict:
    """Per task and overall: success, mean reward of the scored episodes, means of the costs."""
    def figures(group: list[dict]) -> dict:
        scored = [e["reward"] for e in group if e["reward"] is not None]
        mean = lambda key: round(statistics.fmean(e[key] for e in group), 2) if group else 0.0  # noqa: E731
        ended: dict[str, int] = {}
        for e in group:
            ended[e["ended_by"]] = ended.get(e["ended_by"], 0) + 1
        return {"episodes": len(group), "successes": sum(e["success"] for e in group),
                "success_rate": round(sum(e["success"] for e in group) / len(group), 3) if group else 0.0,
                "mean_reward": round(statistics.fmean(scored), 3) if scored else None,
                "steps": mean("steps"), "calls": mean("calls"), "prompt_tokens": mean("prompt_tokens"),
                "completion_tokens": mean("completion_tokens"), "wall_s": mean("wall_s"), "ended_by": ended,
                "fallbacks": sum(e.get("fallbacks", 0) for e in group),
                "lost_to_llm": sum(bool(e.get("llm_error")) for e in group),
                # Per call, what the server read anew and what it took from its cache: on a CPU the new ones cost.
                "new_tokens_per_call": per_call(group, lambda e: e["prompt_tokens"] - e.get("cached_tokens", 0)),
                "cached_tokens_per_call": per_call(group, lambda e: e.get("cached_tokens", 0))}

    def per_call(group: list[dict], tokens) -> int:
        calls = sum(e["calls"] for e in group)
        return round(sum(tokens(e) for e in group) / calls) if calls else 0

    tasks: dict[str, list[dict]] = {}
    for e in episodes:
        tasks.setdefault(e["task"], []).append(e)
    per_task = {t: {"category": group[0]["category"], **figures(group)} for t, group in tasks.items()}
    return {"tasks": per_task, "overall": figures(episodes)}


def format_table(summary: dict, peer: dict | None = None, peer_name: str = "browser-use") -> str:
    """The per-task table; with `peer` (the peer's summarize()), its row under ours for each task and overall."""
    agent = f"{'agent':13} " if peer else ""
    head = f"{'task':30} {'category':11} {agent}{'success':>8} {'reward':>7} {'steps':>6} {'calls':>6} {'prompt':>8} {'compl':>6} {'wall s':>7} {'fallb':>5} {'llm-lost':>8}"
    lines = [head, "-" * len(head)]

    def row(name: str, category: str, f: dict, who: str = "webchallenger") -> str:
        reward = "-" if f["mean_reward"] is None else f"{f['mean_reward']:.2f}"
        return (f"{name:30} {category:11} {(who[:13] + ' ').ljust(14) if peer else ''}{f['successes']:>3}/{f['episodes']:<4} {reward:>7} "
                f"{f['steps']:>6.1f} {f['calls']:>6.1f} {f['prompt_tokens']:>8.0f} {f['completion_tokens']:>6.0f} {f['wall_s']:>7.1f} "
                f"{f.get('fallbacks', 0):>5} {f.get('lost_to_llm', 0):>8}")

    for name, f in summary["tasks"].items():
        lines.append(row(name, f["category"], f))
        if peer and name in peer["tasks"]:
            lines.append(row("", "", peer["tasks"][name], peer_name))
    lines.append("-" * len(head))
    overall = summary["overall"]
    lines.append(row("overall", "", overall))
    if peer:
        lines.append(row("", "", peer["overall"], peer_name))
    lines.append(f"success rate {overall['success_rate']:.1%}; episodes ended by " +
                 ", ".join(f"{k}: {v}" for k, v in sorted(overall["ended_by"].items())) +
                 " (means per episode; tokens as the server counted them; fallb: calls a stand-in answered, "
                 "llm-lost: episodes the agent lost to an LLM error, both totals)")
    lines.append(f"prompt tokens per call: {overall.get('new_tokens_per_call', 0)} new, "
                 f"{overall.get('cached_tokens_per_call', 0)} from the server's cache")
    if peer:
        lines.append(f"{peer_name}: success rate {peer['overall']['success_rate']:.1%}; episodes ended by " +
                     ", ".join(f"{k}: {v}" for k, v in sorted(peer["overall"]["ended_by"].items())) +
                     " (one of its steps may hold several actions)")
    return "\n".join(lines)


def _list_tasks() -> int:
    from benchmarks.miniwob_tasks import EXCLUDED, GROUPS

    for name, tasks in GROUPS.items():
        print(f"{name} ({len(tasks)}): {', '.join(tasks)}")
    print(f"\nexcluded ({len(EXCLUDED)}):")
    for task, why in EXCLUDED.items():
        print(f"  {task}: {why}")
    return 0


def _write(path: Path, data: dict) -> None:
    from companion.paths import write_private_text

    write_private_text(path, json.dumps(data, indent=1) + "\n")


class AppendError(ValueError):
    """--append was asked for with a file it cannot go on with; the file is left as it is."""


def read_earlier_run(path: Path | None, *, llm: str, max_steps: int, peer: str | None) -> dict | None:
    """The run --append goes on with: the JSON result at `path`, or None when there is none yet. AppendError when
    it is unreadable or was run otherwise (another LLM, step budget or peer): the parts would not add up."""
    if path is None:
        raise AppendError("--append needs --out, the result file to go on with")
    if not path.exists():
        return None
    try:
        data = json.loads(path.read_text())
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise AppendError(f"--append: {path} is no readable result ({exc}); it was left as it is") from None
    if not isinstance(data, dict) or data.get("benchmark") != "miniwob" or not isinstance(data.get("episodes"), list):
        raise AppendError(f"--append: {path} is no MiniWoB result; it was left as it is")
    there = {"llm": data.get("llm"), "max_steps": data.get("max_steps"),
             "peer": (data.get("peer") or {}).get("agent")}  # a file written before parts were kept names it here only
    differs = [f"{name} {there[key]!r} there, {value!r} here" for name, key, value in
               (("LLM", "llm", llm), ("step budget", "max_steps", max_steps), ("peer", "peer", peer)) if there[key] != value]
    if differs:
        raise AppendError(f"--append: {path} was run otherwise ({'; '.join(differs)}); its figures and these would "
                          "not add up, so write to another file")
    return data


def _trace(event) -> None:
    from companion.commands.run import format_event

    line = format_event(event)
    if line:
        print(line, flush=True)


def _peer_runner(peer: str | None, html: Path, timeout: float):
    """browser-use's episode runner (benchmarks/peer.py) when --peer asks for it, else nothing."""
    import contextlib

    if not peer:
        return contextlib.nullcontext()
    from benchmarks.peer import PeerMiniWoB

    return PeerMiniWoB(html, episode_timeout_s=timeout)


def run(args: argparse.Namespace) -> int:
    from companion import llm
    from benchmarks.miniwob import DEFAULT_EPISODE_TIMEOUT_S, MINIWOB_VERSION, MiniWoBError, MiniWoBHarness, ensure_miniwob_html
    from benchmarks.miniwob_tasks import EXCLUDED, select_tasks
    from benchmarks.peer import PeerError
    from companion.bridge.launcher import LaunchError
    from companion.llm.config import LLMConfigError

    if args.list:
        return _list_tasks()
    try:
        tasks = select_tasks([t.strip() for t in args.tasks.split(",") if t.strip()], args.category)
        seeds = parse_seeds(args.seeds)
    except ValueError as exc:
        print(f"webchallenger bench miniwob: {exc}", file=sys.stderr)
        return 2
    if args.max_steps < 1:
        print("webchallenger bench miniwob: --max-steps must be at least 1", file=sys.stderr)
        return 2
    try:
        client = llm.use_llm_from_args(args)
    except (LLMConfigError, FileNotFoundError, ValueError) as exc:
        print(f"webchallenger bench miniwob: {exc}", file=sys.stderr)
        return 2
    if client.settings.kind == "embedded" and not client.settings.gguf_path:
        from companion.llm.model_files import ModelError, ensure_model

        try:
            ensure_model(client.settings.model, install=True, log=lambda m: print(f"[model] {m}", flush=True))
        except ModelError as exc:
            print(f"webchallenger bench miniwob: {exc}", file=sys.stderr)
            return 1
    try:
        html = ensure_miniwob_html(lambda m: print(f"[miniwob] {m}", flush=True))
    except (MiniWoBError, OSError) as exc:
        print(f"webchallenger bench miniwob: {exc}", file=sys.stderr)
        return 1
    endpoint = None
    if args.peer:
        from benchmarks.peer import PeerUnavailable, ensure_peer, llm_endpoint
        from companion.llm.model_files import ModelError

        try:
            endpoint = llm_endpoint(client)  # first: it refuses --llm lexical before anything is installed
            ensure_peer(install=True, log=lambda m: print(f"[peer] {m}", flush=True))
        except (PeerUnavailable, ModelError) as exc:
            print(f"webchallenger bench miniwob: --peer {args.peer}: {exc}", file=sys.stderr)
            return 2
    earlier = None
    if args.append:
        try:
            earlier = read_earlier_run(args.out, llm=client.settings.spec, max_steps=args.max_steps, peer=args.peer)
        except AppendError as exc:
            print(f"webchallenger bench miniwob: {exc}", file=sys.stderr)
            return 2
    timeout = args.episode_timeout or DEFAULT_EPISODE_TIMEOUT_S
    meta = {"benchmark": "miniwob", "miniwob_version": MINIWOB_VERSION, "llm": client.settings.spec,
            "max_steps": args.max_steps, "seeds": seeds, "episode_timeout_s": timeout,
            "date": time.strftime("%Y-%m-%d %H:%M:%S %z"), "machine": f"{platform.node()} {platform.machine()} "
            f"{os.cpu_count()} CPUs, {platform.python_implementation()} {platform.python_version()}",
            "tasks_run": tasks, "excluded": EXCLUDED}
    episodes: list[dict] = []
    peer_episodes: list[dict] = []
    parts: list[dict] = []
    if earlier:
        episodes = list(earlier["episodes"])
        peer_episodes = list((earlier.get("peer") or {}).get("episodes", []))
        # A file from before parts were kept, or one whose run was killed, has no wall time: its episodes' is close.
        parts = list(earlier.get("parts") or [{"date": earlier.get("date"), "episodes": len(episodes),
                                               "wall_s": earlier.get("wall_s") or round(sum(e["wall_s"] for e in episodes), 1)}])
        meta["date"] = earlier.get("date", meta["date"])
        meta["tasks_run"] = list(dict.fromkeys([*earlier.get("tasks_run", []), *tasks]))
        meta["seeds"] = list(dict.fromkeys([*earlier.get("seeds", []), *seeds]))
    done = {(e["task"], e["seed"]) for e in episodes}
    todo = [(task, seed) for task in tasks for seed in seeds if (task, seed) not in done]
    kept = len(episodes)
    part = {"date": time.strftime("%Y-%m-%d %H:%M:%S %z"), "episodes": 0, "wall_s": 0.0}
    parts.append(part)
    total = len(episodes) + len(todo)
    peer_version = [""]  # known once its worker runs

    def result_json() -> dict:
        part["episodes"] = len(episodes) - kept
        part["wall_s"] = round(time.monotonic() - started, 1)
        data = {**meta, "parts": parts, "model": client.model or (endpoint.model if endpoint else ""), **summarize(episodes), "episodes": episodes}
        if args.peer:
            data["peer"] = {"agent": args.peer, "version": peer_version[0], "llm_base_url": endpoint.base_url,
                            **(summarize(peer_episodes) if peer_episodes else {}), "episodes": peer_episodes}
        return data

    print(f"MiniWoB++ {MINIWOB_VERSION}: {len(tasks)} task(s) x {len(seeds)} seed(s), LLM {client.settings.spec}, "
          f"{args.max_steps} steps per episode", flush=True)
    if earlier:
        print(f"going on with {args.out}: {len(done)} episode(s) kept, {len(todo)} to run", flush=True)
    started = time.monotonic()
    try:
        with MiniWoBHarness(html, episode_timeout_s=timeout, on_event=_trace if args.verbose else None) as harness, \
                _peer_runner(args.peer, html, timeout) as peer:
            peer_version[0] = peer.worker.version if peer else ""
            for task, seed in todo:
                result = harness.run_episode(task, seed, args.max_steps)
                episodes.append(result.model_dump())
                reward = "-" if result.reward is None else f"{result.reward:g}"
                print(f"[{len(episodes)}/{total}] {task} seed {seed}: reward {reward}, {result.steps} step(s), "
                      f"{result.calls} calls, {result.wall_s:.1f} s — {result.reason}", flush=True)
                if peer:  # right after ours, so both see the same machine load
                    other = peer.run_episode(task, seed, endpoint, args.max_steps)
                    peer_episodes.append(other.model_dump())
                    reward = "-" if other.reward is None else f"{other.reward:g}"
                    print(f"[{len(peer_episodes)}/{total}] {task} seed {seed} ({args.peer}): reward {reward}, {other.steps} "
                          f"step(s), {other.calls} calls, {other.wall_s:.1f} s — {other.reason}", flush=True)
                if args.out:
                    _write(args.out, result_json())
    except (LaunchError, OSError) as exc:
        print(f"webchallenger bench miniwob: cannot start the browser: {exc}", file=sys.stderr)
        return 1
    except PeerError as exc:
        print(f"webchallenger bench miniwob: --peer {args.peer}: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("\ninterrupted: the figures below cover the episodes that ended", file=sys.stderr)
    if not episodes:
        return 1
    summary = summarize(episodes)
    meta["wall_s"] = round(sum(p["wall_s"] or 0 for p in parts[:-1]) + time.monotonic() - started, 1)
    print()
    print(format_table(summary, summarize(peer_episodes) if peer_episodes else None, args.peer or "browser-use"))
    if args.out:
        _write(args.out, result_json())
        print(f"\nJSON result: {args.out}")
    return 0
