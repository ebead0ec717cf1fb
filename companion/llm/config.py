"""Which LLM backend to use, from a spec string: flag > WEBCHALLENGER_LLM > <config dir>/llm.toml > "embedded".

Spec forms:
    embedded                         the default embedded model (Qwen2.5-Coder-1.5B-Instruct Q4_K_M)
    embedded:qwen2.5-coder-0.5b      a named embedded model (see companion.llm.model_files.EMBEDDED_MODELS)
    gguf:/path/model.gguf            any local GGUF file, served in-process like the embedded models
    openai:http://host:port/v1#model any OpenAI-compatible server (#model optional: first of /v1/models)
    ollama | llamacpp | vllm | lmstudio [#model]   presets with their default loopback URLs
    replay:/path/session.jsonl       answer from a recorded session, no server at all
    lexical                          no model: a word-overlap policy behind a local server (benchmarks/lexical.py),
                                     the baseline and harness check of the benchmarks; started by the
                                     `webchallenger` command, never by the product (use_lexical_server)
"""

from __future__ import annotations

import os
import tomllib
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, Field

from companion.paths import config_dir

PRESETS: dict[str, str] = {
    "ollama": "http://127.0.0.1:11434/v1",
    "llamacpp": "http://127.0.0.1:8080/v1",
    "vllm": "http://127.0.0.1:8000/v1",
    "lmstudio": "http://127.0.0.1:1234/v1",
}
DEFAULT_SPEC = "embedded"
IDLE_UNLOAD_S = 600.0  # an idle embedded model gives its ~2 GB back after 10 minutes
LEXICAL_MODEL = "lexical"
# Where the benchmarks' no-model stand-in answers in this process ("" until something above the product started
# it: benchmarks/lexical.py lexical_server). The product only connects to it, like to any OpenAI-compatible
# server: it never starts harness code.
_lexical_base_url = ""


CACHE_REUSE = 64  # tokens: a candidate line is 10 to 30, the rest of a list after it hundreds


class LLMConfigError(ValueError):
    """A spec or config file that cannot be understood."""


class LLMSettings(BaseModel):
    """Everything the client needs to know about the backend, resolved from flags, env and config file."""

    kind: Literal["server", "embedded", "replay", "lexical"]
    spec: str
    base_url: str = ""  # server: the OpenAI-compatible base URL (ending in /v1)
    model: str = ""  # server: model name ("" = ask /v1/models); embedded: catalog name
    gguf_path: str = ""  # embedded from a user file
    replay_path: str = ""
    # local servers ignore it; the openai client insists on one. Never in a repr (settings end up in messages).
    api_key: str = Field(default="not-needed", repr=False)
    timeout_s: float = Field(default=120.0, gt=0)
    concurrency: int = Field(default=4, ge=1)
    record_path: str = ""  # append every call to this JSONL file
    n_ctx: int = Field(default=16384, ge=512)  # embedded: total KV size, shared by the slots
    n_parallel: int = Field(default=2, ge=1)  # embedded: decoding slots
    # embedded: llama.cpp's --cache-reuse, the shortest chunk (tokens) of a slot's cached prompt that a new prompt may
    # still take from the cache after text of the cached one was left out of it, shifted to its new place (0: the
    # common prefix only). A retry's action choice is the last prompt with the tried line taken out (agent/decide.py).
    cache_reuse: int = Field(default=CACHE_REUSE, ge=0)
    threads: int = Field(default=0, ge=0)  # embedded: 0 = all cores but one, both of two (companion.llm.embedded.default_threads)
    # embedded: seconds without a call before the model is unloaded and its memory freed (0 = kept loaded)
    idle_unload_s: float = Field(default=IDLE_UNLOAD_S, ge=0)


def parse_spec(spec: str, **overrides) -> LLMSettings:
    spec = spec.strip()
    head, _, rest = spec.partition(":")
    if spec == "embedded" or head == "embedded":
        from companion.llm.model_files import DEFAULT_MODEL, EMBEDDED_MODELS

        name = rest or DEFAULT_MODEL
        if name not in EMBEDDED_MODELS:
            raise LLMConfigError(f"unknown embedded model {name!r}; known: {', '.join(EMBEDDED_MODELS)}")
        return LLMSettings(kind="embedded", spec=spec, model=name, **overrides)
    if spec == "lexical":
        return LLMSettings(kind="lexical", spec=spec, **{"base_url": _lexical_base_url, "model": LEXICAL_MODEL, **overrides})
    if head == "gguf":
        if not rest:
            raise LLMConfigError("gguf: needs a path, e.g. gguf:/models/model.gguf")
        return LLMSettings(kind="embedded", spec=spec, gguf_path=str(Path(rest).expanduser()), **overrides)
    if head == "replay":
        if not rest:
            raise LLMConfigError("replay: needs a session file, e.g. replay:/tmp/session.jsonl")
        return LLMSettings(kind="replay", spec=spec, replay_path=rest, **overrides)
    if head == "openai":
        url, _, model = rest.partition("#")
        if not url.startswith(("http://", "https://")):
            raise LLMConfigError(f"openai: needs a URL, e.g. openai:http://127.0.0.1:8080/v1#model (got {spec!r})")
        return LLMSettings(kind="server", spec=spec, base_url=url.rstrip("/"), model=model, **overrides)
    name, _, model = spec.partition("#")
    if name in PRESETS:
        return LLMSettings(kind="server", spec=spec, base_url=PRESETS[name], model=model, **overrides)
    raise LLMConfigError(
        f"cannot understand LLM spec {spec!r}; use embedded[:model], gguf:PATH, openai:URL[#model], "
        f"replay:FILE, lexical or one of the presets {', '.join(PRESETS)}"
    )


def use_lexical_server(base_url: str) -> None:
    """`lexical` clients made from now on in this process connect to the stand-in at `base_url`."""
    global _lexical_base_url
    _lexical_base_url = base_url


def config_file() -> Path:
    return config_dir() / "llm.toml"


def _read_config_file() -> dict:
    path = config_file()
    if not path.exists():
        return {}
    try:
        return tomllib.loads(path.read_text())
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise LLMConfigError(f"{path}: not valid TOML: {exc}") from exc


_ENV_FIELDS = {
    "WEBCHALLENGER_LLM_API_KEY": "api_key",
    "WEBCHALLENGER_LLM_TIMEOUT": "timeout_s",
    "WEBCHALLENGER_LLM_CONCURRENCY": "concurrency",
    "WEBCHALLENGER_LLM_RECORD": "record_path",
    "WEBCHALLENGER_LLM_CTX": "n_ctx",
    "WEBCHALLENGER_LLM_PARALLEL": "n_parallel",
    "WEBCHALLENGER_LLM_THREADS": "threads",
    "WEBCHALLENGER_LLM_CACHE_REUSE": "cache_reuse",
    "WEBCHALLENGER_LLM_IDLE_UNLOAD": "idle_unload_s",
}


def load_settings(spec: str | None = None, **overrides) -> LLMSettings:
    """Resolve settings: explicit arguments win, then environment variables, then llm.toml, then defaults.

    A server's API key: the flag or WEBCHALLENGER_LLM_API_KEY, then the options page's key for that URL
    (api_keys.py), then llm.toml's api_key.
    llm.toml keys: spec, api_key, timeout_s, concurrency, record_path, n_ctx, n_parallel, cache_reuse, threads,
    idle_unload_s.
    """
    file_values = _read_config_file()
    values = {k: v for k, v in file_values.items() if k != "spec" and k in LLMSettings.model_fields}
    for env, field in _ENV_FIELDS.items():
        if os.environ.get(env):
            values[field] = os.environ[env]
    values.update({k: v for k, v in overrides.items() if v is not None})
    chosen = spec or os.environ.get("WEBCHALLENGER_LLM") or file_values.get("spec") or DEFAULT_SPEC
    try:
        settings = parse_spec(chosen, **values)
    except LLMConfigError:
        raise
    except ValueError as exc:  # pydantic validation of a bad numeric value
        raise LLMConfigError(f"bad LLM setting: {exc}") from exc
    explicit = overrides.get("api_key") or os.environ.get("WEBCHALLENGER_LLM_API_KEY")
    if settings.kind == "server" and not explicit:
        settings.api_key = _saved_key(settings.base_url) or settings.api_key
    return settings


def _saved_key(base_url: str) -> str:
    """The key the options page saved for this server (companion/llm/api_keys.py); it wins over llm.toml's api_key,
    which is one key for every server."""
    from companion.llm.api_keys import APIKeyError, key_for

    try:
        return key_for(base_url)
    except APIKeyError as exc:
        raise LLMConfigError(str(exc)) from exc


def add_llm_arguments(parser) -> None:
    """The LLM flags every command that thinks shares: --llm SPEC, --llm-timeout S, --llm-record FILE."""
    parser.add_argument("--llm", default=None, metavar="SPEC",
                        help="embedded[:model] | gguf:PATH | openai:URL[#model] | ollama | llamacpp | vllm | lmstudio | replay:FILE | lexical "
                             "(default: WEBCHALLENGER_LLM, then <config dir>/llm.toml, then embedded)")
    parser.add_argument("--llm-timeout", type=float, default=None, metavar="S", help="seconds before an LLM call fails")
    parser.add_argument("--llm-record", default=None, metavar="FILE", help="append every LLM call to this JSONL session file")

