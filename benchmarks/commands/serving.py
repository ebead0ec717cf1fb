"""`webchallenger bench serving RECORDING.jsonl... [--parallel 1,2] [--cache-reuse 0,64] [--calls N]`: the embedded
server's slot count and llama.cpp's chunk reuse (`--cache-reuse`) against the same prompts, replayed from recorded
task runs (`--llm-record`, or the LLM lines of `bench tasks --record`).

On a CPU the prompt is the cost, and llama.cpp only skips the part of a prompt that a slot's KV cache already holds
(a common prefix with that slot's previous prompt). The calls of one agent step share their system text, task,
history and observation, so how the calls meet the slots decides how much of each prompt is new. This replays a
recording's calls in their recorded order, the calls that overlapped in the recording sent together again (the
agent sends a step's candidate-filtering calls concurrently), to a fresh embedded server per setting, each setting
in its own process, and reports per setting: wall time, prompt tokens, cached tokens, new tokens, new tokens per
call, and how many answers equal the recorded ones (chunk reuse shifts cached keys computed after another prefix, so
it may change an answer; with the prefix cache alone, answers differ only where batching does). Figures, not
assertions.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import subprocess
import sys
import time
from pathlib import Path

from companion.llm.config import CACHE_REUSE

ROOT = Path(__file__).resolve().parents[2]
OVERLAP_SLACK_S = 0.05


def recorded_calls(path: Path, limit: int | None = None) -> list[dict]:
    """The LLM calls of one recording, in the order they started."""
    calls = []
    for line in path.read_text().splitlines():
        record = json.loads(line)
        if "prompt" in record and "messages" in record:
            record["started"] = float(record["time"]) - float(record["latency_s"])
            calls.append(record)
    calls.sort(key=lambda r: r["started"])
    return calls[:limit] if limit else calls


def _short(answer: str | None) -> str:
    return " ".join((answer or "").split())[:160]


def waves(calls: list[dict]) -> list[list[dict]]:
    """Consecutive calls whose recorded intervals overlapped, as one wave each (sent together). A call's end is
    stamped just after its latency was measured: a call that started within OVERLAP_SLACK_S of the wave's end
    followed it."""
    out: list[list[dict]] = []
    end = float("-inf")
    for call in calls:
        if out and call["started"] < end - OVERLAP_SLACK_S:
            out[-1].append(call)
            end = max(end, float(call["time"]))
        else:
            out.append([call])
            end = float(call["time"])
    return out


async def _replay(files: list[Path], parallel: int, limit: int | None, reuse: int = 0) -> dict:
    import openai

    from companion.llm import LLMClient

    client = LLMClient(spec="embedded", n_parallel=parallel, cache_reuse=reuse, timeout_s=900)
    await client.probe()
    api = openai.AsyncOpenAI(base_url=client.base_url, api_key="none", timeout=900)
    model = (await api.models.list()).data[0].id
    totals = {"parallel": parallel, "cache_reuse": reuse, "calls": 0, "prompt_tokens": 0, "cached_tokens": 0,
              "same_answers": 0, "different": [], "wall_s": 0.0}

    async def one(call: dict) -> None:
        params = call["params"]
        response = await api.chat.completions.create(
            model=model, messages=call["messages"], max_tokens=params["max_tokens"],
            temperature=params.get("temperature", 0.0),
            response_format={"type": "json_schema", "json_schema": {"name": "answer", "strict": True,
                                                                    "schema": params["schema"]}})
        usage = response.usage
        details = getattr(usage, "prompt_tokens_details", None)
        totals["calls"] += 1
        totals["prompt_tokens"] += usage.prompt_tokens
        totals["cached_tokens"] += (details.cached_tokens or 0) if details is not None else 0
        replayed, recorded = response.choices[0].message.content, call["response"].get("text")
        totals["same_answers"] += replayed == recorded
        if replayed != recorded:  # which calls, and whether the choice itself moved or only its wording
            totals["different"].append({"prompt": call["prompt"], "recorded": _short(recorded), "replayed": _short(replayed)})

    started = time.monotonic()
    for path in files:
        for wave in waves(recorded_calls(path, limit)):
            await asyncio.gather(*(one(c) for c in wave))
    totals["wall_s"] = round(time.monotonic() - started, 1)
    totals["new_tokens"] = totals["prompt_tokens"] - totals["cached_tokens"]
    totals["new_per_call"] = round(totals["new_tokens"] / max(1, totals["calls"]))
    await client.aclose()
    return totals


def run(files: list[Path], settings: list[tuple[int, int]], limit: int | None, out: Path | None) -> int:
    """settings: (slots, cache reuse) pairs, each replayed by a fresh server in its own process."""
    results = []
    for parallel, reuse in settings:
        proc = subprocess.run([sys.executable, "-m", "benchmarks.commands.serving", "--one", str(parallel),
                               "--cache-reuse", str(reuse), *(["--calls", str(limit)] if limit else []),
                               *map(str, files)], cwd=ROOT, capture_output=True, text=True)
        lines = [line for line in proc.stdout.splitlines() if line.startswith("{")]
        result = json.loads(lines[-1]) if proc.returncode == 0 and lines else {
            "parallel": parallel, "cache_reuse": reuse, "error": proc.stderr.strip()[-400:]}
        results.append(result)
        print(json.dumps(result), flush=True)
    print("slots  reuse  calls  wall s  prompt tokens  cached    new  new/call  same answers")
    for r in results:
        if "error" not in r:
            print(f"{r['parallel']:5d}  {r['cache_reuse']:5d}  {r['calls']:5d}  {r['wall_s']:6.1f}  {r['prompt_tokens']:13d}  "
                  f"{r['cached_tokens']:6d}  {r['new_tokens']:5d}  {r['new_per_call']:8d}  {r['same_answers']:12d}")
    for r in results:
        for d in r.get("different", []):
            print(f"reuse {r['cache_reuse']}: {d['prompt']}: recorded {d['recorded']}  replayed {d['replayed']}")
    if out:
        out.parent.mkdir(parents=True, exist_ok=True)
        with out.open("a") as f:  # a run may be split over sessions: one result file, appended
            f.write(json.dumps({"files": [p.name for p in files], "calls_per_file": limit, "results": results}) + "\n")
    return 0 if all("error" not in r for r in results) else 1


def _arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("recordings", nargs="+", type=Path, help="JSONL recordings holding LLM calls")
    parser.add_argument("--parallel", default="1,2", help="slot counts to compare (comma-separated)")
    parser.add_argument("--cache-reuse", default=str(CACHE_REUSE), help="llama.cpp chunk reuse sizes to compare "
                        f"(comma-separated; 0: the common prefix only; default: the product's, {CACHE_REUSE})")
    parser.add_argument("--calls", type=int, default=None, help="the first N calls of each recording")
    parser.add_argument("--out", default=str(ROOT / "bench-results" / "serving.jsonl"))


def register(bench_subparsers) -> None:
    """For `webchallenger bench serving` (benchmarks/cli.py BENCH_MODULES)."""
    parser = bench_subparsers.add_parser("serving", help="embedded server slots against recorded prompts")
    _arguments(parser)
    parser.set_defaults(func=lambda a: run(a.recordings, _settings(a), a.calls, Path(a.out) if a.out else None))


def _settings(args: argparse.Namespace) -> list[tuple[int, int]]:
    return [(int(p), int(r)) for p in args.parallel.split(",") for r in args.cache_reuse.split(",")]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    _arguments(parser)
    parser.add_argument("--one", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.one:
        print(json.dumps(asyncio.run(_replay(args.recordings, args.one, args.calls, int(args.cache_reuse)))))
        return 0
    return run(args.recordings, _settings(args), args.calls, Path(args.out) if args.out else None)


if __name__ == "__main__":
    sys.exit(main())
