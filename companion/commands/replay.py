"""`webchallenger replay SESSION.jsonl`: run a recorded task again and fail on the first divergence.

A session recorded with `webchallenger run --record FILE` holds the task, its LLM calls and its browser
requests in order (companion/replay/recorded.py). The replay answers every LLM call from the file and
compares every browser request with the recorded one; the first that differs (another action, another page,
a question the LLM was never asked) ends it with exit code 1, naming the step, what the replay did and what
the recording had. A task that ends otherwise than recorded (status, answer) diverges too.

  - With the pages kept (`run --record FILE --keep-pages`) the browser is the recording itself: no site,
    no Chromium, no LLM server, so the replay runs anywhere (CI).
  - --live (or a recording without pages) opens the recorded start page in a launched Chromium and compares
    the live pages and actions with the recording: it finds what changed on the site.
  - --update records the task again, live, with the LLM --llm names, over the same file (kept pages stay kept).

A replay (and --update) starts with an empty site memory and approves every confirmation: what the agent
knew and was told shapes its prompts, so a recording replays when it was made that way too (`run --record` with
--no-confirm on a site the data dir has no memory of; --update records so).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
from pathlib import Path

EXIT_DIVERGED = 1
EXIT_UNUSABLE = 2


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("replay", help="re-run a recorded task; exit 1 at the first divergence",
                                   description="Replay a session recorded with `webchallenger run --record FILE` and "
                                               "compare each browser request and the task's end with the recording.")
    parser.add_argument("session", type=Path, help="the recorded session file (JSONL)")
    parser.add_argument("--live", action="store_true",
                        help="replay against the live site in a launched Chromium (default when no pages were kept)")
    parser.add_argument("--update", action="store_true", help="record the task again, live, with --llm, over SESSION")
    parser.add_argument("--llm", metavar="SPEC", help="with --update: the LLM to ask (default: embedded)")
    parser.add_argument("--start-url", metavar="URL", help="start on this page instead of the recorded one")
    parser.add_argument("--headless", action="store_true", help="no visible window (automatic when there is no display)")
    parser.add_argument("-q", "--quiet", action="store_true", help="print only the verdict")
    parser.set_defaults(func=replay)


def _fail(message: str, code: int = EXIT_UNUSABLE) -> int:
    print(f"webchallenger replay: {message}", file=sys.stderr)
    return code


def replay(args: argparse.Namespace) -> int:
    from companion import llm
    from companion.replay.recorded import Exchange
    from companion.llm.config import LLMConfigError

    if args.update and args.live:
        return _fail("--update records the task again; --live replays it: give one")
    try:
        client = llm.LLMClient(spec=f"replay:{args.session}")
    except (LLMConfigError, FileNotFoundError, ValueError) as exc:
        return _fail(str(exc))
    task = client.replayed_meta.get("task")
    if not isinstance(task, dict) or not task.get("task"):
        return _fail(f"{args.session} names no task: record it with `webchallenger run TASK --start-url URL --record FILE`")
    if args.update:
        return _update(args, task)
    try:
        exchanges = [Exchange.model_validate(e) for e in client.replayed_browser]
    except ValueError as exc:
        return _fail(f"{args.session}: a browser line is not an exchange ({exc})")
    if not exchanges:
        return _fail(f"{args.session} holds no browser requests to compare with (recorded before replays "
                     "compared them?): record it again with `webchallenger replay --update`")
    offline = not args.live and not args.start_url and any(e.call == "snapshot" and e.reply is not None for e in exchanges)
    llm.set_client(client)
    from companion.replay.recorded import ReplayDivergence

    recorded = client.replayed_meta.get("outcome") or {}
    steps = _StepTracker()
    try:
        if offline:
            result, browser = _replay_offline(args, task, exchanges, steps)
        else:
            result, browser = _replay_live(args, task, exchanges, steps)
    except ReplayDivergence as diverged:
        # A question the LLM was never asked comes first: the browser requests after it are its consequence.
        return _llm_diverged(steps) or _diverged(str(diverged.divergence))
    except _NotRun as exc:
        return _fail(str(exc), exc.code)
    if _llm_diverged(steps):
        return EXIT_DIVERGED
    missing = browser.remaining()
    if missing:
        from companion.replay.recorded import describe

        return _diverged(f"step {steps.step}: the replayed task ended ({result.status}) before the recording's "
                         f"action {describe(missing[0])} (step {missing[0].step})")
    if recorded and (recorded.get("status") != result.status or recorded.get("answer", "") != result.answer):
        return _diverged(f"the end (step {result.steps}): the task ended {result.status} with {result.answer!r}; "
                         f"the recording ended {recorded.get('status')} with {recorded.get('answer', '')!r}")
    where = "the recorded pages, no site" if offline else "the live site"
    print(f"replay: same as the recording ({result.steps} step(s), {browser.position} browser requests against "
          f"{where}, {result.usage.calls} LLM calls from the file); answer: {result.answer or '-'}")
    return 0


def _llm_diverged(steps: "_StepTracker") -> int:
    """EXIT_DIVERGED, said, when an LLM request had no recorded answer; 0 otherwise."""
    from companion import llm

    misses = llm.get_client().replay_misses  # the client that answered (a live replay's is run's own)
    if not misses:
        return 0
    return _diverged(f"step {steps.step}: the LLM was asked what the recording never asked it (the page or the "
                     f"history differs): prompt {misses[0]}")


def _diverged(text: str) -> int:
    print(f"replay: DIVERGED at {text}", flush=True)
    return EXIT_DIVERGED


class _NotRun(Exception):
    def __init__(self, message: str, code: int = EXIT_UNUSABLE):
        super().__init__(message)
        self.code = code


class _StepTracker:
    step = 0

    def __call__(self, event) -> None:
        if event.kind == "step" and event.step is not None:
            self.step = event.step


def _printer(quiet: bool):
    from companion.commands.run import format_event

    def show(event) -> None:
        line = None if quiet else format_event(event)
        if line:
            print(line, flush=True)

    return show


def _replay_offline(args, task: dict, exchanges, steps: _StepTracker):
    """The recorded pages answer every request: no browser, no site, no LLM server."""
    from companion.agent.loop import run_task
    from companion.replay.recorded import RecordedBrowser

    browser = RecordedBrowser(exchanges)
    if not args.quiet:
        print(f"Task: {task['task']}\nReplaying {args.session} against its recorded pages (no site, no LLM)", flush=True)
    with tempfile.TemporaryDirectory(prefix="webchallenger-replay-") as scratch:
        scratch_dir = Path(scratch)
        coro = run_task(task["task"], session=browser, start_url=task.get("start_url"),
                        max_steps=int(task.get("max_steps") or 30), on_event=[browser.on_event, steps, _printer(args.quiet)],
                        allowed_domains=list(task.get("allowed_domains") or []),
                        memory_dir=scratch_dir / "memory", files_dir=scratch_dir / "files")
        result = asyncio.run(coro)
    return result, browser


def _run_args(args, task: dict, scratch: str, **overrides) -> argparse.Namespace:
    """The `webchallenger run` arguments that run the recorded task again (its site memory in `scratch`)."""
    values = dict(task=task["task"], start_url=args.start_url or task.get("start_target") or task.get("start_url"),
                  memory_dir=Path(scratch) / "memory",
                  resume=None, headless=args.headless, llm=None, no_confirm=True, record=None, replay=None,
                  keep_pages=False, max_steps=int(task.get("max_steps") or 30),
                  allow_domain=list(task.get("allowed_domains") or []), quiet=args.quiet)
    values.update(overrides)
    return argparse.Namespace(**values)


def _replay_live(args, task: dict, exchanges, steps: _StepTracker):
    """A launched Chromium on the recorded start page; each request is compared before its reply is used."""
    from companion.replay.recorded import CheckedBrowser
    from companion.commands.run import run

    checked: list[CheckedBrowser] = []
    results: list = []

    def wrap(session):
        checked.append(CheckedBrowser(session, exchanges))
        return _Tracked(checked[-1], steps)

    with tempfile.TemporaryDirectory(prefix="webchallenger-replay-") as scratch:
        code = run(_run_args(args, task, scratch, replay=args.session, wrap_session=wrap, on_result=results.append))
    if not results or not checked:
        raise _NotRun("the task could not be replayed (see above)", code if code else EXIT_UNUSABLE)
    return results[0], checked[0]


class _Tracked:
    """The compared browser, also telling the step tracker (run.py subscribes `on_event` of its session)."""

    def __init__(self, browser, steps: _StepTracker):
        self._browser, self._steps = browser, steps

    def on_event(self, event) -> None:
        self._browser.on_event(event)
        self._steps(event)

    def __getattr__(self, name: str):
        return getattr(self._browser, name)


def _update(args: argparse.Namespace, task: dict) -> int:
    """Run the task live with a real LLM into a new file, then put it in place of SESSION."""
    from companion.commands.run import run

    session = args.session
    fd, fresh = tempfile.mkstemp(prefix=session.name + ".", suffix=".new", dir=session.parent)
    os.close(fd)
    os.unlink(fresh)  # the recorder creates it 0600
    fresh_path = Path(fresh)
    try:
        with tempfile.TemporaryDirectory(prefix="webchallenger-replay-") as scratch:
            code = run(_run_args(args, task, scratch, llm=args.llm, record=fresh_path,
                                 keep_pages=bool(task.get("keep_pages"))))
        if not fresh_path.exists():
            return _fail("the task could not be recorded again (see above); the recording is unchanged", code or EXIT_UNUSABLE)
        os.replace(fresh_path, session)
    finally:
        fresh_path.unlink(missing_ok=True)
    print(f"replay: recorded {session} again (the task ended with exit code {code})")
    return code
