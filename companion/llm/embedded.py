"""llama.cpp in-process through xllamacpp: it serves the OpenAI API on a loopback port and enforces JSON schemas.

One server per (model file, context, slots, threads) per process, started on first use and kept for the process
lifetime; the client then talks to it over HTTP exactly as it would to any other OpenAI-compatible server.
"""

from __future__ import annotations

import os
import threading
from pathlib import Path

from companion.llm.config import LLMSettings
from companion.llm.model_files import ModelError, ensure_model, xllamacpp_available

_servers: dict[tuple, "EmbeddedServer"] = {}
_lock = threading.Lock()


class EmbeddedServer:
    def __init__(self, model_path: Path, n_ctx: int, n_parallel: int, threads: int):
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
        self.model_path = model_path
        self.n_ctx = n_ctx
        self._server = xllamacpp.Server(params)
        self.base_url = self._server.listening_address.rstrip("/") + "/v1"

    @property
    def model_name(self) -> str:
        return str(self.model_path)


def default_threads() -> int:
    """All cores but one: llama.cpp's threads meet at a barrier after every op, so one thread descheduled by the
    browser or the companion stalls all of them (on a loaded 2-core machine 1 thread beat 2 by 7x)."""
    return max(1, (os.cpu_count() or 2) - 1)


def model_path_for(settings: LLMSettings, install: bool = False) -> Path:
    if settings.gguf_path:
        path = Path(settings.gguf_path)
        if not path.is_file():
            raise ModelError(f"gguf model file not found: {path}")
        return path
    return ensure_model(settings.model, install=install)


def get_server(settings: LLMSettings) -> EmbeddedServer:
    """Start (once) and return the embedded server for these settings. Blocking: call it from a thread."""
    if not xllamacpp_available():
        raise ModelError("the embedded backend needs the xllamacpp package: pip install xllamacpp")
    path = model_path_for(settings)
    key = (str(path), settings.n_ctx, settings.n_parallel, settings.threads)
    with _lock:
        server = _servers.get(key)
        if server is None:
            try:
                server = EmbeddedServer(path, settings.n_ctx, settings.n_parallel, settings.threads)
            except Exception as exc:  # xllamacpp raises plain RuntimeError on a bad file
                raise ModelError(f"llama.cpp could not load {path}: {exc}") from exc
            _servers[key] = server
        return server
