"""Benchmark of the embedded models on this machine: one constrained choice, and a ~1,500-token prompt.

    python -m benchmarks.commands.llm [--models qwen2.5-coder-1.5b,qwen2.5-coder-0.5b,smollm2-135m] [--out FILE]

Each model runs in its own subprocess so load time and resident memory are its own. Figures, not assertions:
the numbers depend on the machine and on what else runs on it.
"""

from __future__ import annotations

import argparse
import asyncio
import gzip
import json
import re
import resource
import subprocess
import sys
import time
from pathlib import Path

from companion.llm.model_files import DEFAULT_MODEL, EMBEDDED_MODELS

ROOT = Path(__file__).resolve().parents[2]
CORPUS = Path("/work/shared/corpus")
TARGET_PROMPT_TOKENS = 1500


def _page_text(chars: int) -> str:
    """Real page text for the long prompt: visible text of corpus pages if present, else a generated listing."""
    pages = sorted(CORPUS.glob("*/*.html.gz")) if CORPUS.exists() else []
    text = ""
    if pages:
        from lxml import html

        for page in pages[:20]:
            tree = html.fromstring(gzip.decompress(page.read_bytes()))
            for bad in tree.xpath("//script|//style|//noscript"):
                bad.drop_tree()
            text += " " + re.sub(r"\s+", " ", tree.text_content())
            if len(text) > chars:
                break
    if len(text) < chars:
        text += " ".join(f"row {i}: product {i} costs ${i % 50 + 5}.{i % 100:02d}, rated {i % 5 + 1} stars." for i in range(chars // 40))
    return text[:chars].strip()


async def _bench_one(name: str, threads: int) -> dict:
    from companion.llm import Extraction, LLMClient

    client = LLMClient(spec=f"embedded:{name}", n_ctx=8192, n_parallel=1, threads=threads, timeout_s=600)
    started = time.monotonic()
    info = await client.probe()
    result: dict = {"model": name, "load_s": round(time.monotonic() - started, 2), "n_ctx": info["n_ctx"]}
    import httpx

    meta = (httpx.get(f"{client.base_url}/models", timeout=10).json().get("data") or [{}])[0].get("meta") or {}
    result["gguf"] = {k: meta.get(k) for k in ("ftype", "n_params", "n_ctx_train")}

    options = ["Sign in", "Search for products", "Open the shopping cart", "Read the help pages", "Change the language"]
    choice_vars = {"question": "Task: find the price of a red kettle. Which action comes first?", "options": options}
    # Two runs: the first pays for the whole prompt, the second finds the system prefix in the server's cache.
    for label in ("choice_cold", "choice_warm"):
        reply = await client.choose("choice_probe", {**choice_vars, "question": choice_vars["question"] + (" " if label == "choice_warm" else "")},
                                    n=len(options), reason=False)
        u = reply.usage
        result[label] = {"latency_s": round(u.latency_s, 2), "prompt_tokens": u.prompt_tokens, "completion_tokens": u.completion_tokens,
                         "cached_tokens": u.cached_tokens, "index": reply.answer.index, "mode": u.mode}
    reply = await client.choose("action_selection", {"task": "Find the price of a red kettle", "history": "", "observation": "The shop's home page.",
                                                     "candidates": options + ["End task"]}, n=len(options) + 1)
    u = reply.usage
    result["choice_with_reason"] = {"latency_s": round(u.latency_s, 2), "prompt_tokens": u.prompt_tokens, "completion_tokens": u.completion_tokens,
                                    "index": reply.answer.index, "reason": reply.answer.reason}

    # ~1,500 prompt tokens (about 4 characters per token for English page text). Two answers: a constrained
    # choice (the time is almost all prompt processing) and a realistic bounded extraction (adds generation).
    details = _page_text(TARGET_PROMPT_TOKENS * 4 - 400)
    long_choice = {"question": "Page text:\n" + details + "\n\nWhat kind of page is this?",
                   "options": ["a news article", "a shop", "a login form", "a search result list"]}
    reply = await client.choose("choice_probe", long_choice, n=4, reason=False)
    u = reply.usage
    result["long_prompt_choice"] = {"latency_s": round(u.latency_s, 2), "prompt_tokens": u.prompt_tokens,
                                    "completion_tokens": u.completion_tokens, "cached_tokens": u.cached_tokens}
    variables = {"task": "Summarise what this page offers and note any prices or dates.", "history": "", "page_title": "Article",
                 "url": "http://127.0.0.1/article", "section_purpose": "Main content", "details": details}
    try:
        reply = await client.ask("detail_extraction", variables, Extraction, max_tokens=370)
        u = reply.usage
        result["long_prompt_extraction"] = {"latency_s": round(u.latency_s, 2), "prompt_tokens": u.prompt_tokens,
                                            "completion_tokens": u.completion_tokens, "cached_tokens": u.cached_tokens, "attempts": u.attempts}
    except Exception as exc:  # a tiny model may never produce a valid extraction: report it, keep the other figures
        result["long_prompt_extraction"] = {"error": str(exc)[:200]}
    result["max_rss_mb"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)
    await client.aclose()
    return result


def _table(results: list[dict]) -> str:
    lines = ["| model | load s | choice cold s (prompt tok) | choice warm s | choice+reason s (gen tok) | ~1.5k-token prompt, choice s (tok) | ~1.5k-token prompt, extraction s (gen tok) | RSS MB |",
             "|---|---|---|---|---|---|---|---|"]
    for r in results:
        if "error" in r:
            lines.append(f"| {r['model']} | error: {r['error']} |||||||")
            continue
        lc, ex = r["long_prompt_choice"], r["long_prompt_extraction"]
        extraction = f"{ex['latency_s']} ({ex['completion_tokens']})" if "latency_s" in ex else "invalid output"
        lines.append(
            f"| {r['model']} | {r['load_s']} | {r['choice_cold']['latency_s']} ({r['choice_cold']['prompt_tokens']}) | "
            f"{r['choice_warm']['latency_s']} | {r['choice_with_reason']['latency_s']} ({r['choice_with_reason']['completion_tokens']}) | "
            f"{lc['latency_s']} ({lc['prompt_tokens']}) | {extraction} | {r['max_rss_mb']} |"
        )
    return "\n".join(lines)


def run(models: list[str], threads: int, out: Path | None) -> int:
    results = []
    for name in models:
        proc = subprocess.run([sys.executable, "-m", "benchmarks.commands.llm", "--one", name, "--threads", str(threads)],
                              cwd=ROOT, capture_output=True, text=True)
        lines = [line for line in proc.stdout.splitlines() if line.startswith("{")]
        results.append(json.loads(lines[-1]) if proc.returncode == 0 and lines else {"model": name, "error": proc.stderr.strip()[-300:]})
        print(json.dumps(results[-1]), flush=True)
    print(_table(results))
    if out:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(json.dumps(results, indent=1) + "\n")
    return 0 if all("error" not in r for r in results) else 1


def register(bench_subparsers) -> None:
    """For `webchallenger bench llm` (benchmarks/cli.py BENCH_MODULES)."""
    parser = bench_subparsers.add_parser("llm", help="embedded models: one constrained choice and a ~1,500-token prompt")
    _arguments(parser)
    parser.set_defaults(func=lambda a: run(a.models.split(","), a.threads, Path(a.out) if a.out else None))


def _arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--models", default=",".join([DEFAULT_MODEL, "qwen2.5-coder-0.5b", "smollm2-135m"]))
    parser.add_argument("--threads", type=int, default=0, help="0 = the default (all cores but one)")
    parser.add_argument("--out", default=str(ROOT / "bench-results" / "llm.json"))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    _arguments(parser)
    parser.add_argument("--one", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.one:
        if args.one not in EMBEDDED_MODELS:
            print(f"unknown model {args.one}", file=sys.stderr)
            return 2
        print(json.dumps(asyncio.run(_bench_one(args.one, args.threads))))
        return 0
    return run(args.models.split(","), args.threads, Path(args.out) if args.out else None)


if __name__ == "__main__":
    sys.exit(main())
