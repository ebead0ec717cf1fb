"""Running the real-app suite: each task with the agent (the loop `webchallenger run` uses) in a fresh headless
Chromium with the extension, logged in to the site, with a fresh memory directory; then judged on the answer or
the database (task_eval.py).

    with ExitStack() as stack:
        site = stack.enter_context(start_site())
        runs = run_tasks(suite.tasks, site, RunOptions(llm="lexical"), work_dir)

One browser per task, as WebArena resets its environment per task: nothing a task did to the browser (a
collapsed sidebar in localStorage, an open popup) reaches the next. A change task gets the seeded database
(`reset`); a run that wrote to the database is followed by a reset, so no task sees another's changes.
Confirmations are answered yes (changes are the point of half the tasks), as `run --no-confirm` does.

With exploration memory (`memory="explore"`), one exploration of the site (`webchallenger explore URL
--no-summaries`, explore_memory.py) fills a memory directory before the tasks, and each task starts with its
own copy of it.
"""

from __future__ import annotations

import asyncio
import logging
import shutil
import statistics
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Literal

from pydantic import BaseModel, Field

from companion import paths
from benchmarks.task_eval import EvaluatorError, judge, prepare
from benchmarks.task_suite import AppTask

log = logging.getLogger(__name__)

MemoryMode = Literal["none", "explore"]
DEFAULT_MAX_STEPS = 20
STOP_GRACE_S = 30.0  # after a task's time is up: how long its loop gets to stop and report


class BenchError(RuntimeError):
    """The bench cannot run at all (no site, no browser, a failed exploration); the message says why."""


@dataclass
class RunOptions:
    max_steps: int = DEFAULT_MAX_STEPS
    headless: bool = True
    task_timeout: float | None = None  # seconds per task (None: the step budget is the bound)
    extension: Path | None = None  # the built extension to load (None: dist/extension; see pin_extension)
    record_dir: Path | None = None  # each task's session, pages kept, as DIR/<task id>.jsonl (`webchallenger replay`)


def pin_extension(work_dir: Path) -> Path:
    """A copy of the built extension for the whole bench: a rebuild of dist/ while the bench runs must not give
    later tasks an extension that speaks another protocol than this process."""
    from companion.bridge.launcher import extension_dir

    source, target = extension_dir(), work_dir / "extension"
    if not (source / "manifest.json").exists():
        raise BenchError(f"no built extension at {source}: run `python3 build.py` first")
    if target.exists():
        shutil.rmtree(target)
    shutil.copytree(source, target)
    return target


class TaskRun(BaseModel):
    """One run of one task: how it ended, how it was judged, what it cost."""

    id: str
    kind: str
    memory: MemoryMode
    starts_at_login: bool = False  # the task starts logged out, at the log-in page, credentials in its intent
    intent: str
    success: bool
    status: str = ""  # the agent's end: done, failed, out_of_steps, looping, stopped (or "error")
    answer: str = ""
    expected: Any = None
    got: Any = None  # the rows the database held after a change task
    detail: str = ""  # why it failed, when it did
    steps: int = 0
    calls: int = 0
    prompt_tokens: int = 0
    cached_tokens: int = 0  # of prompt_tokens, reused from the server's KV cache (a shared prompt prefix)
    new_prompt_tokens: int = 0  # prompt_tokens - cached_tokens: what the CPU read (about 40 a second on 2 cores)
    completion_tokens: int = 0
    step_new_tokens: list[int] = Field(default_factory=list)  # new prompt tokens of each step, in order
    step_wall_s: list[float] = Field(default_factory=list)  # wall time of each step
    by_prompt: dict[str, list[int]] = Field(default_factory=dict)  # prompt name -> [calls, new prompt tokens]
    retried: str = ""  # why the task was run a second time (lost to an LLM timeout on a busy machine)
    llm_s: float = 0.0
    fallbacks: int = 0  # calls with no valid answer that a stand-in answered (llm/fallback.py)
    values_dropped: int = 0  # values the model stated that no page read supports, left out (observe/grounding.py)
    llm_error: bool = False  # the agent failed on an LLM error: a task lost to the model
    wall_s: float = 0.0
    db_changed: bool = False  # the run wrote to the database (for a lookup: a side effect)
    error: str = ""  # the harness could not run or judge the task (not the agent's failure)


class StepMeter:
    """A task event subscriber that splits the task's cost by step: every `step` event carries the LLM use so far
    (protocol.TaskEventData.usage), so a step costs the difference to the next one (the last: to the end)."""

    def __init__(self) -> None:
        self.marks: list[tuple[float, int]] = []  # (monotonic time, new prompt tokens so far) at each step's start

    def __call__(self, event) -> None:
        if event.kind == "step" and event.usage is not None:
            self.marks.append((time.monotonic(), event.usage.prompt_tokens - event.usage.cached_tokens))

    def split(self, end_new_tokens: int) -> tuple[list[int], list[float]]:
        ends = self.marks[1:] + [(time.monotonic(), end_new_tokens)]
        tokens = [max(0, b[1] - a[1]) for a, b in zip(self.marks, ends)]
        walls = [round(b[0] - a[0], 1) for a, b in zip(self.marks, ends)]
        return tokens, walls


def _task_memory(work_dir: Path, task: AppTask, memory: MemoryMode, seed: Path | None) -> Path:
    """A fresh memory directory for this run, holding a copy of the explored memory when there is one."""
    target = work_dir / "runs" / memory / task.id / "memory"
    if target.exists():
        shutil.rmtree(target)
    paths.private_dir(target)
    if seed is not None:
        shutil.copytree(seed, target, dirs_exist_ok=True, ignore=shutil.ignore_patterns("*.lock", "*.tmp"))
    return target


def _recording(name: str, intent: str, start_url: str, opts: RunOptions, session):
    """The task's own LLM client, recording into DIR/<name>.jsonl with the browser side and the pages, so
    `webchallenger replay FILE` reruns it with no site and no LLM (a task that started with an explored
    memory replays the same only with that memory: the replay starts with none). Returns (session, (client,
    shared client))."""
    from companion import llm
    from companion.replay.recorded import start_recording

    shared = llm.get_client()
    paths.private_dir(opts.record_dir)
    path = opts.record_dir / f"{name}.jsonl"
    path.unlink(missing_ok=True)  # a new recording, not one appended to an older run's
    client = llm.LLMClient(settings=shared.settings.model_copy(update={"record_path": str(path)}))
    llm.set_client(client)
    recorded = start_recording(client, session, task=intent, start_url=start_url, max_steps=opts.max_steps,
                               allowed_domains=[], keep_pages=True)
    return recorded, (client, shared)


def _close_llm_connections(browser, recording) -> None:
    """Close the LLM clients' connections on the task's event loop while it runs: an openai client left to the
    garbage collector after its loop closed printed "Task exception was never retrieved ... Event loop is
    closed" tracebacks into the bench's table after tasks."""
    from companion import llm

    loop = getattr(browser.companion, "loop", None) if browser.companion is not None else None
    if loop is None or loop.is_closed() or not loop.is_running():
        return
    for client in {id(c): c for c in (llm.get_client(), *(recording or ()))}.values():  # (task's, shared)
        try:
            asyncio.run_coroutine_threadsafe(client.aclose(), loop).result(STOP_GRACE_S)
        except Exception as exc:  # a connection that will not close costs nothing but the warning
            log.debug("closing the LLM client's connections: %s", exc)


def run_task_once(task: AppTask, site, memory: MemoryMode, opts: RunOptions, work_dir: Path,
                  memory_seed: Path | None = None, on_event: Callable | None = None) -> TaskRun:
    """Run one task and judge it. `site` is a started DjangoSite (tests/djangosite/server.py)."""
    from companion.agent.checkpoint import TaskCheckpoint, TaskOptions
    from companion.agent.loop import run_task
    from companion.bridge.launcher import LaunchOptions, LaunchedBrowser

    if task.resets:
        site.reset()
    before = site.db_digest()
    try:
        expectation = prepare(task, site.query)
    except EvaluatorError as exc:
        return TaskRun(id=task.id, kind=task.kind, memory=memory, starts_at_login=not task.needs_login,
                       intent=task.intent, success=False, status="error", error=str(exc))
    run = TaskRun(id=task.id, kind=task.kind, memory=memory, starts_at_login=not task.needs_login,
                  intent=expectation.intent, success=False)
    memory_dir = _task_memory(work_dir, task, memory, memory_seed)
    start_url = site.url(task.start_url)
    launch = LaunchOptions(headless=opts.headless, offline=True)
    if opts.extension is not None:
        launch.extension = opts.extension
    browser = LaunchedBrowser(launch)
    result = recording = None
    timed_out = ""
    try:
        try:
            browser.start()
            if task.needs_login:
                site.login(browser.driver)
        except Exception as exc:  # LaunchError, a WebDriver error, the site refusing the login
            run.status, run.error = "error", f"the browser could not be started and logged in: {exc}"
            return run
        checkpoint = TaskCheckpoint.begin(
            expectation.intent, start_url, TaskOptions(max_steps=opts.max_steps, start_target=start_url, confirm=False),
            directory=memory_dir.parent / "checkpoints")
        session, recording = browser.session, None
        if opts.record_dir is not None:
            name = task.id if memory == "none" else f"{task.id}.{memory}"  # --memory both runs a task twice
            session, recording = _recording(name, expectation.intent, start_url, opts, session)
        meter = StepMeter()
        subscribers = [f for f in (on_event, getattr(session, "on_event", None), meter) if f is not None]
        started = time.monotonic()
        loop, stop = browser.companion.loop, asyncio.Event()
        coro = run_task(expectation.intent, session=session, start_url=start_url, max_steps=opts.max_steps,
                        confirm=None, on_event=subscribers, memory_dir=memory_dir, checkpoint=checkpoint, stop=stop)
        future = asyncio.run_coroutine_threadsafe(coro, loop)
        try:
            result = future.result(opts.task_timeout)
        except TimeoutError:
            # Stopped, not cancelled: the loop then ends as a user's Stop ends it and returns what the task
            # cost so far; a timed-out task's steps and calls are the figures that say where its time went.
            loop.call_soon_threadsafe(stop.set)
            try:
                result = future.result(STOP_GRACE_S)
            except TimeoutError:
                future.cancel()
            timed_out = f"the task did not end within {opts.task_timeout:g} s"
        except Exception as exc:  # the loop itself crashed: a harness error, the next task still runs
            log.exception("task %s crashed", task.id)
            run.status, run.error = "error", f"the task crashed: {type(exc).__name__}: {exc}"
        except BaseException:  # Ctrl-C: the task is stopped, the browser closed
            future.cancel()
            raise
    finally:
        _close_llm_connections(browser, recording)
        browser.close()
        if recording is not None:
            from companion import llm
            from companion.replay.recorded import end_recording

            client, shared = recording
            if result is not None:
                end_recording(client, result)
            llm.set_client(shared)
    run.wall_s = round(time.monotonic() - started, 2)
    if result is not None:
        run.status, run.answer, run.steps = result.status, result.answer, result.steps
        run.calls, run.prompt_tokens, run.completion_tokens = (result.usage.calls, result.usage.prompt_tokens,
                                                               result.usage.completion_tokens)
        run.cached_tokens = result.usage.cached_tokens
        run.new_prompt_tokens = run.prompt_tokens - run.cached_tokens
        run.step_new_tokens, run.step_wall_s = meter.split(run.new_prompt_tokens)
        run.by_prompt = {name: [u.calls, u.new_tokens] for name, u in result.usage.by_prompt.items()}
        run.llm_s = round(result.usage.llm_seconds, 2)
        run.fallbacks, run.llm_error = result.usage.fallbacks, result.llm_error
        run.values_dropped = result.usage.values_dropped
    if timed_out:
        run.status = "timeout"
    try:
        if run.error:
            return run
        verdict = judge(task, expectation, run.answer, site.query)
    except EvaluatorError as exc:
        run.status, run.error = "error", str(exc)
        return run
    finally:
        run.db_changed = site.db_digest() != before
        if run.db_changed:
            site.reset()  # the next task sees the seed, whatever this one did
    run.expected, run.got, run.detail = verdict.expected, verdict.got if task.kind == "change" else None, verdict.detail
    run.success = verdict.success
    if task.kind == "lookup" and verdict.success and run.status != "done":
        # An answer the agent did not stand by (out of steps, looping) is not a success, even when it is right.
        run.success, run.detail = False, f"the answer is right but the task ended {run.status}"
    elif timed_out:
        run.detail = f"{run.detail}; {timed_out}" if run.detail else timed_out
    elif not verdict.success and result is not None and result.status != "done" and result.explanation:
        run.detail = f"{run.detail}; the task ended {result.status}: {result.explanation}"
    return run


def run_tasks(tasks: list[AppTask], site, memory: MemoryMode, opts: RunOptions, work_dir: Path,
              memory_seed: Path | None = None, on_run: Callable[[TaskRun], None] | None = None,
              on_event: Callable | None = None) -> list[TaskRun]:
    runs = []
    for task in tasks:
        run = run_task_once(task, site, memory, opts, work_dir, memory_seed, on_event)
        if run.llm_error:
            # A busy machine (another job on the 2 cores) can push an LLM call past its timeout: that is the
            # machine's failure, not the agent's, so the task runs once more and the retry's figures stand, marked.
            # A task that used up its own time limit (--task-timeout) is not run again: that is its figure.
            run = run_task_once(task, site, memory, opts, work_dir, memory_seed, on_event)
            run.retried = "lost to an LLM error or timeout"
        runs.append(run)
        if on_run is not None:
            on_run(run)
    return runs


def summarize(runs: list[TaskRun]) -> dict:
    """Success per kind of the tasks that start logged in, of those that start at the log-in page (both kinds:
    "at_login"), and overall, and the mean cost per task, for each memory mode. The product's own admin suites
    start logged in; WebArena's tasks start at the log-in page, so the two are reported apart."""
    out: dict[str, dict] = {}
    for memory in dict.fromkeys(r.memory for r in runs):
        mine = [r for r in runs if r.memory == memory]
        row: dict[str, Any] = {}
        for kind in ("lookup", "change"):
            of_kind = [r for r in mine if r.kind == kind and not r.starts_at_login]
            row[kind] = {"tasks": len(of_kind), "success": sum(r.success for r in of_kind)}
        at_login = [r for r in mine if r.starts_at_login]
        row["at_login"] = {"tasks": len(at_login), "success": sum(r.success for r in at_login)}
        row["overall"] = {"tasks": len(mine), "success": sum(r.success for r in mine)}
        row["errors"] = sum(1 for r in mine if r.error)
        row["fallbacks"] = sum(r.fallbacks for r in mine)
        row["values_dropped"] = sum(r.values_dropped for r in mine)
        row["lost_to_llm"] = sum(r.llm_error for r in mine)
        for field in ("steps", "calls", "prompt_tokens", "new_prompt_tokens", "completion_tokens", "wall_s"):
            row[f"mean_{field}"] = round(sum(getattr(r, field) for r in mine) / len(mine), 1) if mine else 0
        # Per step, over every step of every task: what a person waits for at each step.
        step_tokens = [t for r in mine for t in r.step_new_tokens]
        step_walls = [w for r in mine for w in r.step_wall_s]
        row["median_step_new_tokens"] = round(statistics.median(step_tokens)) if step_tokens else 0
        row["median_step_wall_s"] = round(statistics.median(step_walls), 1) if step_walls else 0
        calls = sum(r.calls for r in mine)
        row["new_tokens_per_call"] = round(sum(r.new_prompt_tokens for r in mine) / calls) if calls else 0
        row["cached_tokens_per_call"] = round(sum(r.cached_tokens for r in mine) / calls) if calls else 0
        row["retried"] = sum(1 for r in mine if r.retried)
        spent: dict[str, list[int]] = {}  # where the new prompt tokens went, the costliest prompt first
        for r in mine:
            for name, (calls, new) in r.by_prompt.items():
                spent.setdefault(name, [0, 0])
                spent[name][0] += calls
                spent[name][1] += new
        row["by_prompt"] = dict(sorted(spent.items(), key=lambda kv: -kv[1][1]))
        out[memory] = row
    return out
