"""llama.cpp in-process through xllamacpp: it serves the OpenAI API on a loopback port and enforces JSON schemas.

One EmbeddedModel per (model file, context, slots, threads) per process. Its server is started by the first call
and stopped again after `idle_unload_s` without one (the model's ~2 GB freed); the next call starts it again and
waits for the load. A call holds a lease (`acquire` ... `release`) for its whole length, so a model is never
unloaded under a call. The client talks to the server over HTTP exactly as to any other OpenAI-compatible server.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from pathlib import Path

from companion.llm.config import LLMSettings
from companion.llm.model_files import ModelError, ensure_model, xllamacpp_available

log = logging.getLogger(__name__)

_models: dict[tuple, "EmbeddedModel"] = {}
_lock = threading.Lock()


class EmbeddedServer:
    def __init__(self, model_path: Path, n_ctx: int, n_parallel: int, threads: int, cache_reuse: int):
        import xllamacpp

        params = xllamacpp.CommonParams()
        params.model.path = str(model_path)
        params.n_ctx = n_ctx
        params.n_parallel = n_parallel
        n_threads = threads or default_threads()
        for cpu in (params.cpuparams, params.cpuparams_batch):
            cpu.n_threads = n_threads
            # No spin-waiting between ops: on a busy machine (the browser renders, tests run) spinning threads
            # that get descheduled stall every barrier; measured here 88 s -> 17 s for one small call.
            cpu.poll = 0
        params.hostnames = ["127.0.0.1"]  # loopback only, never exposed
        params.port = 0  # the OS picks a free port
        params.verbosity = -1  # llama.cpp logs every slot event to stderr otherwise
        params.warmup = False
        params.cache_prompt = True  # shared prefixes (instructions, task, history) are reused across calls
        params.n_cache_reuse = cache_reuse  # and, when set, chunks after a change (LLMSettings.cache_reuse)
        self.model_path = model_path
        self.n_ctx = n_ctx
        self._server = xllamacpp.Server(params)
        self.base_url = self._server.listening_address.rstrip("/") + "/v1"

    @property
    def model_name(self) -> str:
        return str(self.model_path)


def default_threads() -> int:
    """All cores but one, and at least two where there are two. llama.cpp's threads meet at a barrier after every
    op, so one descheduled by the browser stalls the others; with spin-polling off (cpu.poll = 0) that costs less
    than a second thread gains. `bench llm`, 1.5B model, a 1,395-token prompt on this 2-core machine: idle, 1 thread
    49.9 s, 2 threads 27.4 s; one core kept busy 52.7 s / 44.8 s; both cores kept busy 76.5 s / 48.6 s."""
    cores = os.cpu_count() or 2
    return max(min(2, cores), cores - 1)


def model_path_for(settings: LLMSettings, install: bool = False) -> Path:
    if settings.gguf_path:
        path = Path(settings.gguf_path)
        if not path.is_file():
            raise ModelError(f"gguf model file not found: {path}")
        return path
    return ensure_model(settings.model, install=install)


class EmbeddedModel:
    """One model file's server over time: loaded by the first call, unloaded after `idle_s` without a call (0: kept
    for the process lifetime). acquire/release are blocking (a load takes seconds): call them from a thread."""

    def __init__(self, model_path: Path, settings: LLMSettings):
        self.model_path = model_path
        self.settings = settings
        self.idle_s = settings.idle_unload_s
        self.pinned = False  # a user outside the client (benchmarks/peer.py) holds its URL: never unloaded
        self._server: EmbeddedServer | None = None
        self._active = 0
        self._last_release = 0.0
        self._timer: threading.Timer | None = None
        self._lock = threading.Lock()

    @property
    def name(self) -> str:
        return str(self.model_path)

    @property
    def loaded(self) -> bool:
        return self._server is not None

    def acquire(self) -> EmbeddedServer:
        """The running server, started (the caller waits for the load) if it is not; held until release()."""
        with self._lock:
            if self._server is None:
                self._server = self._load()
            self._active += 1
            return self._server

    def release(self) -> None:
        with self._lock:
            self._active -= 1
            self._last_release = time.monotonic()
            if self._active == 0 and self.idle_s > 0 and not self.pinned:
                self._schedule(self.idle_s)

    def pin(self) -> EmbeddedServer:
        """Loaded and kept loaded: for a user that calls the server without leases."""
        with self._lock:
            self.pinned = True
            if self._server is None:
                self._server = self._load()
            return self._server

    def _load(self) -> EmbeddedServer:
        s = self.settings
        after = f"; unloaded after {self.idle_s:g} s without a call" if self.idle_s > 0 else ""
        log.info("loading the embedded model %s (the call waits for it%s)", self.model_path.name, after)
        started = time.monotonic()
        try:
            server = EmbeddedServer(self.model_path, s.n_ctx, s.n_parallel, s.threads, s.cache_reuse)
        except Exception as exc:  # xllamacpp raises plain RuntimeError on a bad file
            raise ModelError(f"llama.cpp could not load {self.model_path}: {exc}") from exc
        log.info("embedded model %s loaded in %.1f s", self.model_path.name, time.monotonic() - started)
        return server

    def _schedule(self, delay: float) -> None:
        if self._timer is not None:
            self._timer.cancel()
        self._timer = threading.Timer(delay, self._unload_if_idle)
        self._timer.daemon = True  # never keeps the process alive
        self._timer.start()

    def _unload_if_idle(self) -> None:
        with self._lock:
            if self._server is None or self._active or self.pinned:
                return
            idle = time.monotonic() - self._last_release
            if idle < self.idle_s:  # a call came and went since this timer was set: wait for the rest
                self._schedule(self.idle_s - idle)
                return
            # Dropping the last reference stops llama.cpp's server thread and frees the weights and the KV cache.
            self._server = None
            self._timer = None
        log.info("embedded model %s unloaded after %g s without a call (loaded again by the next one)",
                 self.model_path.name, self.idle_s)


def embedded_model(settings: LLMSettings) -> EmbeddedModel:
    """The process's EmbeddedModel for these settings (not loaded yet); its idle period is the latest settings'."""
    if not xllamacpp_available():
        raise ModelError("the embedded backend needs the xllamacpp package: pip install xllamacpp")
    path = model_path_for(settings)
    key = (str(path), settings.n_ctx, settings.n_parallel, settings.threads, settings.cache_reuse)
    with _lock:
        model = _models.get(key)
        if model is None:
            model = _models[key] = EmbeddedModel(path, settings)
        model.idle_s = settings.idle_unload_s
        return model


def get_server(settings: LLMSettings) -> EmbeddedServer:
    """Start (once) and return the embedded server for these settings, kept loaded for the process lifetime (for a
    caller that uses its URL directly). Blocking: call it from a thread."""
    return embedded_model(settings).pin()
