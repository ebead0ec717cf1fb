"""browser-use, the benchmarks' peer agent, driven from the companion's side.

browser-use pins versions that would downgrade the companion's (pydantic, websockets, rich, anyio...), so it lives
in its own venv, .venv-peer (pyproject's `peer` extra; `python3 build.py peer`, or the first bench that needs it),
and runs there in a subprocess, benchmarks/peer_worker.py, one JSON job per line. What both sides must share
is handed to the worker from here, so there is one copy of it: Debian's Chromium with the launcher's headless
flags and offline resolver rules and window size, and the MiniWoB harness's own setup scripts (seed, raised
EPISODE_MAX_TIME, startEpisodeReal, WOB_TASK_READY, utterance, WOB_DONE_GLOBAL / WOB_RAW_REWARD_GLOBAL).

    endpoint = llm_endpoint(client)                     # the OpenAI-compatible server our agent talks to
    with PeerMiniWoB(html) as peer:
        result = peer.run_episode("click-button", 0, endpoint, max_steps=10)    # a miniwob.EpisodeResult
    with PeerWorker() as worker:
        figures = worker.serialize(url, runs=3)        # browser-use's DOM serialization of a page, timed
"""

from __future__ import annotations

import json
import os
import queue
import shutil
import subprocess
import sys
import tempfile
import threading
from collections import deque
from pathlib import Path

from pydantic import BaseModel

from companion.bridge.locations import REPO_ROOT

PEER_VENV = REPO_ROOT / ".venv-peer"
WORKER = Path(__file__).with_name("peer_worker.py")
PEER_NAME = "browser-use"
SERIALIZE_TIMEOUT_S = 120.0  # one page: load, warm-up and the timed runs, on a loaded machine
SETUP_MARGIN_S = 180.0  # an episode's browser start, page load and setup, and its wind-down, beyond its wall limit
STDERR_TAIL = 40


class PeerUnavailable(RuntimeError):
    """browser-use cannot run here (not installed, or no model for it to think with); the message says what to do."""


class PeerError(RuntimeError):
    """The peer's worker failed or did not answer in time (it is started anew for the next job)."""


class LLMEndpoint(BaseModel):
    """The OpenAI-compatible server both agents talk to."""

    base_url: str
    model: str
    api_key: str = "not-needed"


# --------------------------------------------------------------------------- where browser-use lives


def peer_python() -> Path:
    """The interpreter of the peer's venv: $WEBCHALLENGER_PEER_PYTHON, else <repo>/.venv-peer/bin/python."""
    override = os.environ.get("WEBCHALLENGER_PEER_PYTHON")
    return Path(override) if override else PEER_VENV / "bin" / "python"


def peer_installed() -> bool:
    python = peer_python()
    if not python.exists():
        return False
    probe = subprocess.run([str(python), "-c", "import browser_use"], capture_output=True, timeout=120)
    return probe.returncode == 0


def ensure_peer(install: bool = True, log=print) -> Path:
    """The peer's python, installing browser-use into .venv-peer first when it is missing and `install`."""
    if peer_installed():
        return peer_python()
    build = REPO_ROOT / "build.py"
    how = f"run `python3 {build} peer`" if build.exists() else "create a venv with `pip install browser-use` and set WEBCHALLENGER_PEER_PYTHON to its python"
    if not install or os.environ.get("WEBCHALLENGER_PEER_PYTHON") or not build.exists():
        raise PeerUnavailable(f"{PEER_NAME} is not installed (no importable browser_use at {peer_python()}): {how}")
    log(f"installing {PEER_NAME} into {PEER_VENV} (once): python3 build.py peer")
    proc = subprocess.run([sys.executable, str(build), "peer"], cwd=REPO_ROOT, capture_output=True, text=True)
    if proc.returncode != 0 or not peer_installed():
        raise PeerUnavailable(f"installing {PEER_NAME} failed ({how} to see why): {proc.stderr.strip()[-1000:]}")
    return peer_python()


def llm_endpoint(client) -> LLMEndpoint:
    """Where `client` (an LLMClient) sends its calls, so the peer talks to the very same server and model. For the
    embedded backend that is our in-process llama.cpp server (loopback only, started here if it is not yet: the
    client finds the same one), which the worker reaches over HTTP. The client itself is left untouched."""
    settings = client.settings
    if settings.kind in ("lexical", "replay"):
        raise PeerUnavailable(f"{PEER_NAME} needs a model: --llm {settings.spec} answers only WebChallenger's own "
                              "prompts; use --llm embedded, gguf:PATH or openai:URL[#model]")
    if settings.kind == "embedded":
        from companion.llm.embedded import get_server

        server = get_server(settings)
        base_url, model = server.base_url, server.model_name
    else:
        base_url, model = settings.base_url, settings.model or _first_model(settings.base_url, settings.api_key)
    return LLMEndpoint(base_url=base_url, model=model, api_key=settings.api_key or "not-needed")


def _first_model(base_url: str, api_key: str) -> str:
    """The server's first model, as our client picks it when the spec names none."""
    import httpx

    try:
        reply = httpx.get(f"{base_url}/models", headers={"Authorization": f"Bearer {api_key}"}, timeout=30)
        reply.raise_for_status()
        models = [m["id"] for m in reply.json().get("data", [])]
    except (httpx.HTTPError, ValueError, KeyError, TypeError) as exc:
        raise PeerUnavailable(f"cannot list the models of {base_url} for {PEER_NAME}: {exc}") from exc
    if not models:
        raise PeerUnavailable(f"LLM server {base_url} lists no models; give one as ...#model")
    return models[0]


def browser_spec() -> dict:
    """Debian's Chromium as our launcher starts it (companion/bridge/launcher.py): flags, offline rules, window."""
    from companion.bridge.launcher import CHROMIUM, HEADLESS_FLAGS, OFFLINE_RESOLVER_RULES, LaunchOptions

    return {"executable": CHROMIUM, "window_size": list(LaunchOptions().window_size),
            "args": [*HEADLESS_FLAGS, f"--host-resolver-rules={OFFLINE_RESOLVER_RULES}"]}


# --------------------------------------------------------------------------- the worker process


class PeerWorker:
    """The peer's subprocess. `request(job)` sends one job and returns its reply; a worker that dies or does not
    answer in time is killed, and the next request starts a new one. Its stderr (browser-use's logs) goes to a
    private file; the last lines are quoted in errors."""

    def __init__(self, python: Path | None = None, log_path: Path | None = None):
        self.python = python or ensure_peer(install=False)
        self._work = Path(tempfile.mkdtemp(prefix="webchallenger-peer-"))
        os.chmod(self._work, 0o700)
        self.log_path = log_path or self._work / "peer-worker.log"
        self._proc: subprocess.Popen | None = None
        self._lines: queue.Queue = queue.Queue()
        self.version = ""

    def __enter__(self) -> "PeerWorker":
        self.start()
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def start(self) -> None:
        if self._proc is not None and self._proc.poll() is None:
            return
        log = os.open(self.log_path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        try:
            self._proc = subprocess.Popen([str(self.python), str(WORKER)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                          stderr=log, text=True, bufsize=1, cwd=self._work, start_new_session=True)
        finally:
            os.close(log)
        self._lines = queue.Queue()
        threading.Thread(target=self._read, args=(self._proc, self._lines), daemon=True, name="peer-reader").start()
        if not self.version:
            self.version = self.request({"op": "version"}, timeout=120).get("browser_use", "")

    @staticmethod
    def _read(proc: subprocess.Popen, lines: queue.Queue) -> None:
        for line in proc.stdout:
            lines.put(line)
        lines.put(None)  # end of output: the worker exited

    def request(self, job: dict, timeout: float) -> dict:
        self.start()
        try:
            self._proc.stdin.write(json.dumps(job) + "\n")
            self._proc.stdin.flush()
        except OSError as exc:
            self._kill()
            raise PeerError(f"the {PEER_NAME} worker is gone ({exc}); {self._tail()}") from exc
        try:
            line = self._lines.get(timeout=timeout)
        except queue.Empty:
            self._kill()
            raise PeerError(f"the {PEER_NAME} worker did not answer {job.get('op')!r} within {timeout:g} s") from None
        if line is None:
            self._kill()
            raise PeerError(f"the {PEER_NAME} worker exited during {job.get('op')!r}; {self._tail()}")
        return json.loads(line)

    def _tail(self) -> str:
        try:
            lines = deque(self.log_path.read_text(errors="replace").splitlines(), maxlen=STDERR_TAIL)
        except OSError:
            return "no log"
        return "its log ends: " + " | ".join(line.strip() for line in lines if line.strip())[-2000:]

    def _kill(self) -> None:
        proc, self._proc = self._proc, None
        if proc is None:
            return
        try:
            os.killpg(proc.pid, 9)  # its own session: the worker and the Chromium it started
        except (ProcessLookupError, PermissionError):
            pass
        proc.wait(timeout=30)

    def close(self) -> None:
        proc = self._proc
        if proc is not None and proc.poll() is None:
            try:
                proc.stdin.write(json.dumps({"op": "quit"}) + "\n")
                proc.stdin.flush()
                proc.wait(timeout=30)
            except (OSError, subprocess.TimeoutExpired):
                pass
        self._kill()
        shutil.rmtree(self._work, ignore_errors=True)

    # ------------------------------------------------------------------ jobs

    def serialize(self, url: str, runs: int, timeout: float = SERIALIZE_TIMEOUT_S) -> dict:
        """browser-use's DOM serialization of `url`: {"ms": [...], "dom_tree_ms": [...], "serialize_ms": [...],
        "elements": N, "text": the text its LLM would see, "chars": N}; PeerError when it failed."""
        reply = self.request({"op": "serialize", "url": url, "runs": runs, "browser": browser_spec()}, timeout)
        if not reply.get("ok"):
            raise PeerError(reply.get("error") or "no reason given")
        return reply


# --------------------------------------------------------------------------- MiniWoB


class PeerMiniWoB:
    """browser-use on MiniWoB episodes: a page server over the html/ folder and the peer's worker, which starts a
    fresh browser per episode and sets it up with the harness's own scripts (benchmarks/miniwob.py)."""

    def __init__(self, html: Path, *, episode_timeout_s: float | None = None, worker: PeerWorker | None = None):
        from benchmarks.miniwob import DEFAULT_EPISODE_TIMEOUT_S

        self.html = Path(html)
        self.episode_timeout_s = episode_timeout_s or DEFAULT_EPISODE_TIMEOUT_S
        self._own_worker = worker is None
        self.worker = worker
        self.server = None

    def __enter__(self) -> "PeerMiniWoB":
        from companion.bridge.pageserver import PageServer

        self.server = PageServer(self.html).start()
        try:
            if self.worker is None:
                self.worker = PeerWorker()
            self.worker.start()
        except BaseException:
            self.close()
            raise
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        if self.worker is not None and self._own_worker:
            self.worker.close()
            self.worker = None
        if self.server is not None:
            self.server.stop()
            self.server = None

    def run_episode(self, task: str, seed: int, llm_endpoint: LLMEndpoint, max_steps: int):
        """One episode: set up as our harness sets it up, browser-use's Agent on the utterance with the same step
        budget and LLM endpoint; calls, tokens (as the server counted them) and wall time counted by the worker."""
        from benchmarks import miniwob
        from benchmarks.miniwob_tasks import CATEGORY

        job = {
            "op": "episode", "url": self.server.url(f"miniwob/{task}.html"), "seed": seed, "max_steps": max_steps,
            "episode_timeout_s": self.episode_timeout_s,
            "max_time_ms": int((self.episode_timeout_s + miniwob.EPISODE_TIME_MARGIN_S) * 1000),
            "llm": llm_endpoint.model_dump(), "browser": browser_spec(),
            "scripts": {"start": miniwob._START_JS, "ready": miniwob._READY_JS, "utterance": miniwob._UTTERANCE_JS,
                        "state": miniwob._STATE_JS},
        }
        base = {"task": task, "category": CATEGORY.get(task, ""), "seed": seed}
        try:
            reply = self.worker.request(job, timeout=self.episode_timeout_s + SETUP_MARGIN_S)
        except PeerError as exc:
            return miniwob.EpisodeResult(**base, ended_by="harness", reason=f"harness: {exc}")
        if not reply.get("ok"):
            return miniwob.EpisodeResult(**base, ended_by="harness", reason=f"harness: the peer failed: {reply.get('error')}")
        fields = {k: v for k, v in reply.items() if k in miniwob.EpisodeResult.model_fields and k not in base}
        result = miniwob.EpisodeResult(**base, **fields)
        result.success = result.reward is not None and result.reward >= 1
        return result


def run_peer_episode(task: str, seed: int, llm_endpoint: LLMEndpoint, max_steps: int, *, html: Path | None = None,
                     episode_timeout_s: float | None = None):
    """One browser-use episode on its own (a page server and a worker for it alone); see PeerMiniWoB to run many."""
    from benchmarks.miniwob import ensure_miniwob_html

    with PeerMiniWoB(html or ensure_miniwob_html(lambda message: None), episode_timeout_s=episode_timeout_s) as peer:
        return peer.run_episode(task, seed, llm_endpoint, max_steps)


def peer_available_message() -> str | None:
    """None when browser-use can run; else why not and how to install it (for a clear skip)."""
    try:
        ensure_peer(install=False)
    except PeerUnavailable as exc:
        return str(exc)
    return None
