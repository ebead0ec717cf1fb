"""MiniWoB++ through the real extension: the task pages, one episode at a time, scored by the page itself.

    html = ensure_miniwob_html()                       # the miniwob wheel's html/, fetched once into the cache
    with MiniWoBHarness(html) as harness:              # a page server on 127.0.0.1 and a headless Chromium
        result = harness.run_episode("click-button", seed=0, max_steps=10)
        result.reward, result.reason                   # read from the page's own world

Only the package's HTML is used (no gymnasium, no Python environment): `pip download --no-deps` of the pinned
wheel, whose sha256 is checked, and only its html/ folder is unpacked.

An episode is set up as the miniwob package sets up its own (selenium_instance.py): open the task page, seed its
generator (`Math.seedrandom(seed)`), give it a time limit and start it (`core.startEpisodeReal()`), wait for
WOB_TASK_READY, read the utterance (`core.getUtterance()`). Three things differ, each so the agent sees what a
MiniWoB agent sees and no more: the time limit is raised so a CPU model is not timed out (the harness keeps its
own wall limit); the reward HUD and the click canvas are hidden (MiniWoB's DOM observation leaves them out; the
HUD's countdown would change the page every second); the START cover that appears when the episode ends is made
inert, so one page load is one episode and nothing the agent does after the end can start another.

The agent runs as `webchallenger run` runs it (companion.agent.loop.run_task), on the page as it is: no start
URL (a navigation would reload the page and lose the episode). The harness polls WOB_DONE_GLOBAL while the agent
works and stops the agent (its `stop` event) as soon as MiniWoB reports the episode done; the raw reward is
WOB_RAW_REWARD_GLOBAL. Every episode ends with a reward or a stated reason: the agent ended first (its status and
explanation), the wall limit, or a harness problem (the page, the browser), after which the browser is started
anew for the next episode.
"""

from __future__ import annotations

import asyncio
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path
from typing import Callable, Literal

from pydantic import BaseModel, Field

from benchmarks.miniwob_tasks import CATEGORY
from companion.paths import cache_dir, private_dir, private_file

MINIWOB_VERSION = "1.1.0"
MINIWOB_WHEEL = f"miniwob-{MINIWOB_VERSION}-py3-none-any.whl"
MINIWOB_SHA256 = "297006e84219d56ad037e843527ed773a4a82509dc43b6031ec4a3ad3e3e61d9"  # the PyPI file
HTML_PREFIX = "miniwob/html/"
POLL_S = 0.1  # how often the page is asked whether the episode is done (a few ms each)
READY_TIMEOUT_S = 10.0  # WOB_TASK_READY after the start (the package itself waits 1 s)
STOP_GRACE_S = 60.0  # the agent winds down after its stop event: checkpoint, events
# Once the page says done, the agent's next action event is awaited this long before it is stopped: the action
# that ended the episode is usually still in flight, and stopping at once would leave it out of the history.
SETTLE_S = 3.0
DEFAULT_EPISODE_TIMEOUT_S = 600.0
EPISODE_TIME_MARGIN_S = 60.0  # MiniWoB's own limit stays above the harness's, so the harness's is the one that ends

EndedBy = Literal["miniwob", "agent", "timeout", "harness"]


class MiniWoBError(RuntimeError):
    """The MiniWoB pages cannot be fetched or trusted, or a page is not a MiniWoB task."""


class EpisodeResult(BaseModel):
    task: str
    category: str = ""
    seed: int
    utterance: str = ""
    ended_by: EndedBy
    reward: float | None = None  # MiniWoB's raw reward (no time penalty) when the page ended the episode
    success: bool = False  # the full reward (1): a partial score (click-checkboxes-soft) is not a success
    reason: str  # why the episode ended, always stated
    agent_status: str = ""  # the agent's TaskResult.status ("stopped" when the harness stopped it at the end)
    answer: str = ""
    steps: int = 0
    calls: int = 0
    prompt_tokens: int = 0
    cached_tokens: int = 0  # of prompt_tokens, reused from the server's KV cache (a shared prompt prefix)
    completion_tokens: int = 0
    llm_seconds: float = 0.0
    fallbacks: int = 0  # calls with no valid answer that a stand-in answered (llm/fallback.py)
    llm_error: bool = False  # the agent failed on an LLM error: a task lost to the model, not to the page
    wall_s: float = 0.0  # from handing the utterance to the agent to the episode's end
    actions: list[str] = Field(default_factory=list)


# --------------------------------------------------------------------------- the pages


def miniwob_cache() -> Path:
    return cache_dir() / "miniwob" / MINIWOB_VERSION


def ensure_miniwob_html(log_fn: Callable[[str], None] = print) -> Path:
    """The html/ folder of the pinned miniwob wheel (holding core/, common/, miniwob/), fetched on first use."""
    root = miniwob_cache()
    html = root / "html"
    if (html / "core" / "core.js").is_file() and (html / "miniwob").is_dir():
        return html
    private_dir(root, narrow=True)
    with tempfile.TemporaryDirectory(prefix="miniwob-", dir=root) as tmp:
        log_fn(f"fetching the MiniWoB++ pages: pip download --no-deps miniwob=={MINIWOB_VERSION}")
        cmd = [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:", "-q", "-d", tmp,
               f"miniwob=={MINIWOB_VERSION}"]
        proc = subprocess.run(cmd, capture_output=True, text=True)
        wheel = Path(tmp) / MINIWOB_WHEEL
        if proc.returncode != 0 or not wheel.is_file():
            raise MiniWoBError(f"pip could not download miniwob=={MINIWOB_VERSION}: {proc.stderr.strip()[-1500:]}")
        digest = hashlib.sha256(wheel.read_bytes()).hexdigest()
        if digest != MINIWOB_SHA256:
            raise MiniWoBError(f"{MINIWOB_WHEEL}: sha256 {digest} differs from the pinned {MINIWOB_SHA256}; refusing to use it")
        staged = Path(tmp) / "html"
        _unpack_html(wheel, staged)
        if html.exists():  # a half-made folder from an interrupted run
            shutil.rmtree(html)
        os.replace(staged, html)
    log_fn(f"MiniWoB++ pages in {html}")
    return html


def _unpack_html(wheel: Path, target: Path) -> None:
    """Only the wheel's miniwob/html/ members, with no path escaping the target."""
    private_dir(target)
    with zipfile.ZipFile(wheel) as zf:
        for info in zf.infolist():
            if not info.filename.startswith(HTML_PREFIX) or info.is_dir():
                continue
            rel = Path(info.filename[len(HTML_PREFIX):])
            if rel.is_absolute() or ".." in rel.parts:
                raise MiniWoBError(f"{wheel.name}: unsafe member {info.filename!r}")
            with zf.open(info) as src, private_file(target / rel, "wb") as out:
                shutil.copyfileobj(src, out)


# --------------------------------------------------------------------------- page-world scripts

_START_JS = """
const seed = arguments[0], maxTime = arguments[1];
if (typeof core === 'undefined' || typeof core.startEpisodeReal !== 'function' || typeof genProblem !== 'function')
  return {error: 'the page is not a MiniWoB task (no core.startEpisodeReal or genProblem)'};
Math.seedrandom(seed);
core.EPISODE_MAX_TIME = maxTime;
core.startEpisodeReal();
if (core.cover_div) core.cover_div.onclick = null;  // one episode per page load
core.clearTimer();  // the countdown text only: the episode's own end timer keeps running
for (const id of ['reward-display', 'click-canvas']) {
  const el = document.getElementById(id);
  if (el) el.style.display = 'none';
}
return {ok: true};
"""
_READY_JS = "return typeof WOB_TASK_READY === 'undefined' ? true : !!WOB_TASK_READY;"
_UTTERANCE_JS = """
const u = core.getUtterance();
return (u && typeof u === 'object') ? String(u.utterance || '') : String(u || '');
"""
_STATE_JS = """
if (typeof WOB_DONE_GLOBAL === 'undefined') return {missing: true};
let reason = WOB_REWARD_REASON;
if (reason !== null && typeof reason === 'object') { try { reason = JSON.stringify(reason); } catch (e) { reason = String(reason); } }
return {done: !!WOB_DONE_GLOBAL, raw: Number(WOB_RAW_REWARD_GLOBAL), reason: reason == null ? null : String(reason)};
"""


class PageState(BaseModel):
    done: bool = False
    raw: float = 0.0
    reason: str | None = None
    missing: bool = False  # the page is no longer the task page


# --------------------------------------------------------------------------- the harness


class MiniWoBHarness:
    """A page server over the MiniWoB html/ and one headless Chromium with the extension, reused across
    episodes (started anew after a harness problem). Each episode has its own empty site memory.

    browser: a LaunchedBrowser to use instead of launching one (the caller keeps it; it is never restarted)."""

    def __init__(self, html: Path, *, episode_timeout_s: float = DEFAULT_EPISODE_TIMEOUT_S, headless: bool = True,
                 on_event: Callable | None = None, browser=None):
        self.html = Path(html)
        self._own_browser = browser is None
        self.episode_timeout_s = episode_timeout_s
        self.headless = headless
        self.on_event = on_event  # the agent's task events, e.g. for a verbose trace
        self.server = None
        self.browser = browser
        self._work = Path(tempfile.mkdtemp(prefix="webchallenger-miniwob-"))
        os.chmod(self._work, 0o700)

    # ------------------------------------------------------------------ lifecycle

    def __enter__(self) -> "MiniWoBHarness":
        from companion.bridge.pageserver import PageServer

        self.server = PageServer(self.html).start()
        try:
            if self.browser is None:
                self._launch()
        except BaseException:
            self.close()
            raise
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        self._close_browser()
        if self.server is not None:
            self.server.stop()
            self.server = None
        shutil.rmtree(self._work, ignore_errors=True)

    def _launch(self) -> None:
        from companion.bridge.launcher import LaunchOptions, LaunchedBrowser

        self.browser = LaunchedBrowser(LaunchOptions(headless=self.headless, offline=True)).start()

    def _close_browser(self) -> None:
        if self.browser is not None and self._own_browser:
            self.browser.close()
            self.browser = None

    def task_url(self, task: str) -> str:
        return self.server.url(f"miniwob/{task}.html")

    # ------------------------------------------------------------------ one episode

    def run_episode(self, task: str, seed: int, max_steps: int) -> EpisodeResult:
        """Set the episode up, run the agent until MiniWoB or the agent ends it, and score it."""
        from selenium.common.exceptions import WebDriverException

        from companion.bridge.errors import BridgeError
        from companion.bridge.launcher import LaunchError

        base = {"task": task, "category": CATEGORY.get(task, ""), "seed": seed}
        if self.browser is None and self._own_browser:
            try:
                self._launch()
            except (LaunchError, OSError, WebDriverException) as exc:
                return EpisodeResult(**base, ended_by="harness", reason=f"harness: cannot start the browser: {exc}")
        try:
            utterance = self._start_episode(task, seed)
        except (MiniWoBError, LaunchError, WebDriverException, BridgeError, TimeoutError) as exc:
            self._close_browser()  # the next episode gets a fresh one
            return EpisodeResult(**base, ended_by="harness", reason=f"harness: episode setup failed: {_one_line(exc)}")
        try:
            return self._run_agent(EpisodeResult(**base, utterance=utterance, ended_by="harness", reason="running"),
                                   max_steps)
        except (WebDriverException, BridgeError, TimeoutError) as exc:
            self._close_browser()
            return EpisodeResult(**base, utterance=utterance, ended_by="harness",
                                 reason=f"harness: the browser failed during the episode: {_one_line(exc)}")

    def _start_episode(self, task: str, seed: int) -> str:
        driver = self.browser.driver
        self.browser.open(self.task_url(task))
        max_ms = int((self.episode_timeout_s + EPISODE_TIME_MARGIN_S) * 1000)
        started = driver.execute_script(_START_JS, seed, max_ms)
        if not isinstance(started, dict) or not started.get("ok"):
            raise MiniWoBError(f"{task}: {(started or {}).get('error', 'the start script returned nothing')}")
        deadline = time.monotonic() + READY_TIMEOUT_S
        while not driver.execute_script(_READY_JS):
            if time.monotonic() > deadline:
                raise MiniWoBError(f"{task}: WOB_TASK_READY stayed false for {READY_TIMEOUT_S:g} s")
            time.sleep(0.05)
        utterance = " ".join((driver.execute_script(_UTTERANCE_JS) or "").split())
        if not utterance:
            raise MiniWoBError(f"{task}: the episode has no utterance (#query is empty)")
        return utterance

    def _state(self) -> PageState:
        return PageState.model_validate(self.browser.driver.execute_script(_STATE_JS) or {"missing": True})

    def _run_agent(self, result: EpisodeResult, max_steps: int) -> EpisodeResult:
        from companion.agent.checkpoint import TaskCheckpoint, TaskOptions
        from companion.agent.loop import run_task

        work = Path(tempfile.mkdtemp(prefix="episode-", dir=self._work))
        checkpoint = TaskCheckpoint.begin(result.utterance, None, TaskOptions(max_steps=max_steps), directory=work / "tasks")
        stop = asyncio.Event()
        loop = self.browser.companion.loop
        seen = [0]  # action events so far (counted on the companion's loop, read here)

        def count(event) -> None:
            if event.kind == "action":
                seen[0] += 1

        subscribers = [count] + ([self.on_event] if self.on_event else [])
        coro = run_task(result.utterance, session=self.browser.session, max_steps=max_steps, confirm=None,
                        on_event=subscribers, stop=stop, memory_dir=work / "memory", files_dir=private_dir(work / "files"),
                        checkpoint=checkpoint)
        started = time.monotonic()
        future = asyncio.run_coroutine_threadsafe(coro, loop)
        state = PageState()
        timed_out = False
        ended = None  # when the page reported the end (the wall time stops there)
        try:
            while not future.done():
                state = self._state()
                if state.done or state.missing:
                    break
                if time.monotonic() - started > self.episode_timeout_s:
                    timed_out = True
                    break
                time.sleep(POLL_S)
            if state.done:
                ended = time.monotonic()
                events, deadline = seen[0], time.monotonic() + SETTLE_S
                while not future.done() and seen[0] == events and time.monotonic() < deadline:
                    time.sleep(0.05)
        finally:
            if not future.done():
                loop.call_soon_threadsafe(stop.set)
            try:
                task_result = future.result(timeout=STOP_GRACE_S)
            except Exception as exc:  # run_task reports its own failures; this is the harness's
                future.cancel()
                raise TimeoutError(f"the agent did not stop within {STOP_GRACE_S:g} s of being told to: {exc!r}") from exc
        result.wall_s = round((ended or time.monotonic()) - started, 2)
        if not state.done and not state.missing:
            state = self._settled_state()
        usage = task_result.usage
        result.agent_status = task_result.status
        result.answer = task_result.answer
        result.steps = task_result.steps
        result.actions = list(task_result.actions)
        result.calls, result.prompt_tokens, result.completion_tokens = usage.calls, usage.prompt_tokens, usage.completion_tokens
        result.cached_tokens = usage.cached_tokens
        result.llm_seconds, result.fallbacks, result.llm_error = usage.llm_seconds, usage.fallbacks, task_result.llm_error
        if state.done:
            result.ended_by, result.reward, result.success = "miniwob", state.raw, state.raw >= 1
            result.reason = f"MiniWoB ended the episode: raw reward {state.raw:g}" + (f" ({state.reason})" if state.reason else "")
        elif state.missing:
            result.ended_by = "agent"
            result.reason = "the agent left the task page (the tab's page has no MiniWoB episode)"
        elif timed_out:
            result.ended_by = "timeout"
            result.reason = f"timeout: the episode did not end within {self.episode_timeout_s:g} s"
        else:
            result.ended_by = "agent"
            why = task_result.explanation or (f"answer: {task_result.answer[:200]}" if task_result.answer else "")
            result.reason = f"the agent ended first ({task_result.status}" + (f": {_one_line(why)})" if why else ")")
        return result

    def _settled_state(self) -> PageState:
        """The page's state a moment after the agent ended: its last action may end the episode a little later."""
        state = self._state()
        deadline = time.monotonic() + 1.0
        while not (state.done or state.missing) and time.monotonic() < deadline:
            time.sleep(POLL_S)
            state = self._state()
        return state


def _one_line(exc) -> str:
    text = " ".join(str(exc).split()) or type(exc).__name__
    return text[:500]
