"""`webchallenger serve`: run the companion in the foreground and wait for the extension to connect."""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import signal
import sys
from pathlib import Path

from companion.bridge.auth import DEFAULT_ALLOWED_ORIGINS, TokenError, load_or_create_token, token_path
from companion.bridge.locations import OPTIONS_URL, extension_dir

DEFAULT_PORT = 47611  # companion.bridge.server.DEFAULT_PORT; not imported so `--help` stays fast
BUSY_WITHIN_S = 10.0


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("serve", help="run the companion; the extension connects to it",
                                   description="Run the companion on ws://127.0.0.1:PORT/ws until interrupted.")
    parser.add_argument("--port", type=int, default=DEFAULT_PORT, help=f"port on 127.0.0.1 (default {DEFAULT_PORT})")
    parser.add_argument("--record", type=Path, metavar="FILE", help="append every message, both directions, to this JSONL file")
    parser.add_argument("--show-token", action="store_true", help="also print the pairing token itself")
    parser.add_argument("--allow-origin", action="append", default=[], metavar="ORIGIN",
                        help="also accept this extension origin (development builds with another id); repeatable")
    parser.add_argument("-v", "--verbose", action="store_true", help="debug logging")
    parser.add_argument("--exit-without-browser", type=float, default=None, metavar="S",
                        help="exit after S seconds in which no browser was connected (the browser's native host "
                             "starts the companion with 600)")
    parser.add_argument("--llm", metavar="SPEC", help="LLM for tasks started from the side panel (default: embedded)")
    parser.add_argument("--llm-idle-unload", type=float, default=None, metavar="S",
                        help="unload the embedded model after S seconds without a call, freeing its memory; the next "
                             "call loads it again (default: llm.toml's idle_unload_s, else 600; 0 keeps it loaded)")
    parser.add_argument("--no-passive-learning", action="store_true",
                        help="do not learn the sites you browse (per site: the side panel's switch, or "
                             "webchallenger memory allow|block|ask HOST; the default for a site is ask)")
    parser.add_argument("--no-background-summaries", action="store_true",
                        help="learn pages while you browse without summarizing them with the LLM later")
    parser.set_defaults(func=run)


# Without -v the terminal shows connections and one line per task (agent/service.py): INFO from anything else
# is a line per LLM call or per action (the HTTP client's "HTTP Request: POST ...", the act workflows' steps).
# The embedded model's load and unload are a line each, not one per call.
SERVE_INFO_LOGGERS = ("companion.bridge", "companion.agent.service", "companion.native", "companion.commands",
                      "companion.llm.embedded")


def _serve_terminal(record: logging.LogRecord) -> bool:
    return record.levelno >= logging.WARNING or record.name.startswith(SERVE_INFO_LOGGERS)


def configure_logging(verbose: bool) -> None:
    """The terminal's handler, filtered to `SERVE_INFO_LOGGERS` without -v. As with `logging.basicConfig`, logging
    that whoever runs us has already set up (a test runner, an embedding program) is left alone: the filter had been
    added to every root handler, and a test runner's capture handler then lost every other logger's INFO for good."""
    root = logging.getLogger()
    if root.handlers:
        return
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s", datefmt="%H:%M:%S"))
    if not verbose:
        handler.addFilter(_serve_terminal)
    root.addHandler(handler)
    root.setLevel(logging.DEBUG if verbose else logging.INFO)


def pairing_instructions(port: int, show_token: str | None = None) -> str:
    path = token_path()
    lines = [
        f"WebChallenger companion listening on ws://127.0.0.1:{port}/ws",
        f"Pairing token: {path} (mode 0600; show it with: cat {path})",
    ]
    if show_token:
        lines.append(f"Token: {show_token}")
    lines += [
        "To pair (once per browser profile):",
        f"  1. chrome://extensions -> Developer mode -> Load unpacked -> {extension_dir()}",
        f"  2. open the extension's options page ({OPTIONS_URL}),",
        f"     enter port {port} and the token, click Save; the status turns to \"connected\".",
    ]
    return "\n".join(lines)


def install_tasks(hub: BridgeHub, llm_spec: str | None, idle_unload_s: float | None = None) -> None:
    """Tasks typed in the extension's side panel run here (companion/agent/service.py)."""
    from companion import llm

    if idle_unload_s is not None:
        # Through the environment, so every client this process makes (the options page replaces it) takes it.
        os.environ["WEBCHALLENGER_LLM_IDLE_UNLOAD"] = f"{idle_unload_s:g}"
    from companion.agent.service import install_task_service

    if llm_spec:
        llm.set_client(llm.LLMClient(spec=llm_spec))
    install_task_service(hub)
    from companion.panel.site_info import install_site_info

    install_site_info(hub)  # the side panel's site card: counts from memory, "forget this site"
    from companion.panel.sections import install_section_outlines

    install_section_outlines(hub)  # the side panel's "Show sections"
    from companion.panel.llm_settings import install_llm_settings

    install_llm_settings(hub)  # the options page's LLM choice and Check (it replaces the --llm client when saved)


def install_passive(hub: BridgeHub, *, enabled: bool, summaries: bool):
    """Passive learning (companion/panel/passive.py) and, unless off, the background summarizer that fills in
    the summaries of what it learned while no task runs (companion/observe/summarize_later.py)."""
    from companion.panel.passive import install_passive_learning
    from companion.memory.passive import PassiveLearner
    from companion.observe.summarize_later import BackgroundSummarizer

    # Busy: a task runs, or the companion sent the browser a request within the last few seconds (a caller
    # that registers no task); the model then serves it alone.
    summarizer = BackgroundSummarizer(busy=lambda: hub.busy(within=BUSY_WITHIN_S)) if summaries and enabled else None
    learner = PassiveLearner(on_page=summarizer.enqueue if summarizer else None)
    return install_passive_learning(hub, learner, enabled=enabled), summarizer


def run(args: argparse.Namespace) -> int:
    from companion.bridge.hub import BridgeHub
    from companion.bridge.recorder import Recorder
    from companion.bridge.runner import bind_loopback, uvicorn_server
    from companion.bridge.server import BridgeSettings

    configure_logging(args.verbose)
    try:
        token = load_or_create_token()
        sock = bind_loopback(args.port)
    except (TokenError, OSError) as exc:
        print(f"webchallenger serve: {exc}", file=sys.stderr)
        return 1
    recorder = Recorder(args.record) if args.record else None
    origins = tuple(dict.fromkeys([*DEFAULT_ALLOWED_ORIGINS, *args.allow_origin]))
    bad = [o for o in origins if not o.startswith("chrome-extension://")]
    if bad:
        # Only extension pages may drive the browser: a web origin here would let that site in.
        print(f"webchallenger serve: --allow-origin takes chrome-extension:// origins only, not {bad[0]!r}", file=sys.stderr)
        sock.close()
        return 2
    settings = BridgeSettings(token=token, port=sock.getsockname()[1], record=args.record, allowed_origins=origins)
    print(pairing_instructions(settings.port, token if args.show_token else None), flush=True)
    if recorder:
        print(f"Recording every message to {args.record}", flush=True)
    hub = BridgeHub(recorder)
    install_tasks(hub, args.llm, args.llm_idle_unload)
    passive, summarizer = install_passive(hub, enabled=not args.no_passive_learning, summaries=not args.no_background_summaries)
    server = uvicorn_server(settings, hub, log_level="debug" if args.verbose else "warning")

    async def serve() -> None:
        if summarizer is not None:
            summarizer.start()
        unattended = None
        if args.exit_without_browser:
            from companion.bridge.unattended import exit_when_unattended

            unattended = asyncio.ensure_future(
                exit_when_unattended(hub, args.exit_without_browser, lambda: setattr(server, "should_exit", True)))
        try:
            await server.serve(sockets=[sock])
        finally:
            if unattended is not None:
                unattended.cancel()
            if summarizer is not None:
                await summarizer.stop()

    from companion.native.running import announce, withdraw

    announce(settings.port)  # the native host (companion/native/host.py) tells the extension where we are
    # uvicorn shuts down on SIGTERM and then re-raises it; by default that would end the process before
    # the cleanup below (the announcement withdrawn, the recording closed).
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    try:
        asyncio.run(serve())
    finally:
        withdraw()
        passive.uninstall()
        if recorder:
            recorder.close()
    return 0
