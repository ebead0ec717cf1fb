"""The one function every LLM call goes through: render a prompt file, get a constrained answer, validate it.

    reply = await client.ask("action_selection", variables, Answer, max_tokens=120)
    reply.answer   # a validated Answer instance
    reply.usage    # tokens, latency, structured-output mode, prompt name and version

Structured output is negotiated per server and remembered per (base_url, model): a strict `json_schema`
response_format first; if the server rejects it (4xx/5xx), `json_object` with a `schema` field (the llama.cpp
family); then a GBNF `grammar` (older llama.cpp servers); if all are rejected, plain text with the schema in
the prompt and tolerant JSON extraction.
We validate every answer ourselves (some servers ignore response_format silently); invalid output is retried
with the error shown to the model, at most twice, then a clear error naming the prompt is raised.

A request that runs past its time limit is sent once more with TIMEOUT_RETRY_FACTOR times the limit: on a
busy CPU the embedded server is slow, not dead (a task once failed after 8 steps on one slow answer). A
server that is really gone (connection refused) is reported with its URL and what to do about it.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from typing import TypeVar

import httpx
import openai
from pydantic import BaseModel

from companion.llm.config import LLMConfigError, LLMSettings, load_settings
from companion.llm.fit import ensure_fits, fitted_choice, fitted_subset
from companion.llm.gbnf import UnsupportedSchema, schema_to_gbnf
from companion.llm.prompts import render
from companion.llm.recording import Completion, Recorder, Replayer, ReplayMiss, request_key
from companion.llm.structured import json_schema_for, parse_answer, schema_name
from companion.llm.usage import CallUsage, Mode, Reply, UsageTally, record_usage

T = TypeVar("T", bound=BaseModel)
log = logging.getLogger(__name__)

MAX_RETRIES = 2  # after the first attempt: invalid output is shown to the model at most twice
MODES: list[Mode] = ["json_schema", "json_object_schema", "grammar", "text"]
# Statuses that mean "I do not support this request shape" rather than "I am down" or "you may not".
_FORMAT_REJECTIONS = {400, 404, 415, 422, 500, 501}
TIMEOUT_RETRY_FACTOR = 2.0  # a request past its limit gets one more try with this many times the limit
# How to start the server behind each preset, for the message when nothing answers at its URL.
_START_HINTS = {
    "ollama": "start it with `ollama serve`",
    "llamacpp": "start it with `llama-server -m MODEL.gguf --port 8080`",
    "vllm": "start it with `vllm serve MODEL --port 8000`",
    "lmstudio": "start the local server in LM Studio (Developer tab, port 1234)",
}

# Remembered per server and model for the process lifetime: the first successful mode.
_negotiated: dict[tuple[str, str], Mode] = {}


# What a person does about a status that is not the model's fault: the URL or the key is wrong.
_STATUS_HINTS = {
    404: "nothing answers at that path: check the URL (an OpenAI-compatible server's usually ends in /v1, "
         "e.g. openai:http://127.0.0.1:11434/v1)",
    401: "the server wants an API key (or refused the one given)",
    403: "the server refused access (an API key without the right, or one it does not know)",
}

class LLMError(RuntimeError):
    """Base of every error the LLM layer raises."""


class LLMConnectionError(LLMError):
    pass


class LLMTimeoutError(LLMError):
    """No answer within the limit, twice (the second time with TIMEOUT_RETRY_FACTOR times the limit)."""


class LLMServerError(LLMError):
    pass


class LLMOutputError(LLMError):
    """The model kept answering something that is not the requested JSON."""


def _grammar_for(schema: dict) -> str:
    try:
        return schema_to_gbnf(schema)
    except UnsupportedSchema:
        return ""


class _LoopState:
    """Per event loop: the semaphore and HTTP client (both are bound to the loop that first uses them)."""

    def __init__(self, settings: LLMSettings, base_url: str):
        limit = settings.concurrency
        if settings.kind == "embedded":  # more in flight than decoding slots would only queue inside the server
            limit = min(limit, settings.n_parallel)
        self.semaphore = asyncio.Semaphore(limit)
        self.base_url = base_url
        self.openai = openai.AsyncOpenAI(
            base_url=base_url,
            api_key=settings.api_key or "not-needed",
            timeout=openai.Timeout(settings.timeout_s, connect=min(5.0, settings.timeout_s)),
            max_retries=0,  # our own retry policy; hidden retries would multiply the timeout
        )

    def point_at(self, base_url: str) -> None:
        """Send the next calls to `base_url`; the semaphore (calls in flight) stays."""
        self.openai = self.openai.with_options(base_url=base_url)
        self.base_url = base_url


class LLMClient:
    def __init__(self, settings: LLMSettings | None = None, *, spec: str | None = None, **overrides):
        self.settings = settings or load_settings(spec, **overrides)
        self.total = UsageTally()
        self.base_url = self.settings.base_url
        self.model = self.settings.model if self.settings.kind in ("server", "lexical") else ""
        self._replayer = Replayer(self.settings.replay_path) if self.settings.kind == "replay" else None
        self._recorder = Recorder(self.settings.record_path) if self.settings.record_path else None
        self._states: dict[int, _LoopState] = {}
        self._ready_lock: asyncio.Lock | None = None
        self._embedded = None  # embedded: its EmbeddedModel (companion/llm/embedded.py), loaded per call by _serving

    # ------------------------------------------------------------------ public API

    async def ask(self, prompt: str, variables: dict, answer: type[T], *, max_tokens: int, temperature: float = 0.0) -> Reply[T]:
        """Render `prompts/<prompt>.j2` with `variables`, ask for an `answer`-shaped JSON, return it validated.

        max_tokens bounds the generated answer: fit it to the answer (generation dominates CPU time). An answer
        whose longest form cannot fit it is refused here (fit.py): its reply could be cut, which is no JSON.
        """
        rendered = render(prompt, variables)  # a missing variable fails here, before any network
        schema = json_schema_for(answer)
        ensure_fits(prompt, schema, max_tokens)
        messages = list(rendered.messages)
        started = time.monotonic()
        totals = {"prompt_tokens": 0, "completion_tokens": 0, "cached_tokens": 0}
        error = ""
        fitted = max_tokens
        for attempt in range(1 + MAX_RETRIES):
            completion, mode = await self._complete(prompt, rendered.version, messages, schema, answer, max_tokens, temperature)
            for k in totals:
                totals[k] += getattr(completion, k)
            try:
                value = parse_answer(completion.text, answer)
            except ValueError as exc:
                if completion.finish_reason == "length" and max_tokens == fitted:
                    # Cut by the budget, not wrong: fit.py counts two characters a token, and a string of digits
                    # or punctuation takes one a character. The schema bounds every string, so the same question
                    # with twice the room can finish; asking "more briefly" got the same cut reply again.
                    max_tokens = 2 * fitted
                    error = f"the reply was cut at max_tokens={fitted}"
                    continue
                error = str(exc)
                if completion.finish_reason == "length":
                    error += f" (the reply was cut at max_tokens={max_tokens}: answer more briefly)"
                messages = messages + [
                    {"role": "assistant", "content": completion.text[:2000]},
                    {"role": "user", "content": f"That reply is invalid: {error.rstrip('.')}. Answer again with the JSON object only."},
                ]
                continue
            usage = self._account(prompt, rendered.version, mode, started, attempt + 1, totals)
            return Reply[answer](answer=value, usage=usage, raw=completion.text)
        self._account(prompt, rendered.version, mode, started, 1 + MAX_RETRIES, totals)  # the tokens were spent anyway
        raise LLMOutputError(
            f"prompt {prompt!r}: no valid answer after {1 + MAX_RETRIES} attempts; last problem: {error}; "
            f"last reply: {completion.text[:200]!r}"
        )

    def _account(self, prompt: str, version: str, mode: Mode, started: float, attempts: int, totals: dict) -> CallUsage:
        usage = CallUsage(prompt=prompt, prompt_version=version, mode=mode, model=self.model or self.settings.spec,
                          latency_s=time.monotonic() - started, attempts=attempts, **totals)
        self.total.add(usage)
        record_usage(usage)
        return usage

    async def choose(self, prompt: str, variables: dict, n: int, *, reason: bool = True, allow_none: bool = False,
                     max_tokens: int | None = None, exclude: frozenset[int] = frozenset()) -> Reply:
        """A numbered choice among n options shown as [0]..[n-1]: answer.index (and answer.reason).

        With allow_none, -1 means "none of these". `exclude`: numbers shown but not choosable (a step's
        tried actions keep their places so the others keep their numbers). The schema's enum makes an
        out-of-range index impossible on constrained servers, and our validation rejects it everywhere else.
        Without max_tokens the budget is what the longest reply needs; with it, the reason is as long as it
        leaves room for (fit.fitted_choice).
        """
        model, budget = fitted_choice(n, max_tokens, reason=reason, allow_none=allow_none, exclude=frozenset(exclude))
        return await self.ask(prompt, variables, model, max_tokens=budget)

    async def choose_many(self, prompt: str, variables: dict, n: int, *, max_items: int | None = None,
                          reason: bool = False, max_tokens: int | None = None) -> Reply:
        """A subset of the numbered options [0]..[n-1]: answer.indices (distinct order kept, may be empty).
        With max_tokens, at most as many as it holds (fit.fitted_subset)."""
        model, budget = fitted_subset(n, max_tokens, max_items=max_items, reason=reason)
        reply = await self.ask(prompt, variables, model, max_tokens=budget)
        seen: list[int] = []
        for i in reply.answer.indices:
            if i not in seen:
                seen.append(i)
        reply.answer.indices = seen
        return reply

    async def probe(self) -> dict:
        """What the backend is: model, negotiated mode, context size, for `webchallenger llm check`."""
        await self._ready()
        async with self._serving():
            info: dict = {"backend": self.settings.kind, "spec": self.settings.spec, "base_url": self.base_url, "model": self.model}
            info["n_ctx"] = await self._context_size() if self.base_url else None
        return info

    def negotiated_mode(self) -> Mode | None:
        return _negotiated.get((self.base_url, self.model))

    @property
    def open_loops(self) -> int:
        """Event loops this client holds HTTP connections on (aclose releases them)."""
        return len(self._states)

    async def aclose(self) -> None:
        states, self._states = self._states, {}
        for state in states.values():
            try:
                await state.openai.close()
            except RuntimeError:  # its loop is already closed: nothing left to release
                pass

    # ------------------------------------------------------------------ session files

    @property
    def replayed_meta(self) -> dict:
        """What the replayed session recorded about its run ({} when not replaying)."""
        return dict(self._replayer.meta) if self._replayer else {}

    def record_meta(self, **facts) -> None:
        """Write facts about this run into the session being recorded (nothing when not recording)."""
        if self._recorder:
            self._recorder.append_meta(**facts)

    @property
    def recording(self) -> bool:
        return self._recorder is not None

    def record_browser(self, exchange: dict) -> None:
        """Write one browser request and its reply into the session being recorded (replay/recorded.py)."""
        if self._recorder:
            self._recorder.append_browser(exchange)

    @property
    def replay_misses(self) -> list[str]:
        """Requests the replayed session had no answer for, in order ("prompt: why")."""
        return list(self._replayer.misses) if self._replayer else []

    @property
    def replayed_browser(self) -> list[dict]:
        """The replayed session's browser exchanges, in order ([] when not replaying or none were recorded)."""
        return list(self._replayer.browser) if self._replayer else []

    # ------------------------------------------------------------------ internals

    async def _ready(self) -> None:
        """Find the embedded model (loaded per call by _serving) or the server's model name, once."""
        if self._replayer or (self.model and (self.base_url or self._embedded)):
            return
        if self._ready_lock is None:
            self._ready_lock = asyncio.Lock()
        async with self._ready_lock:
            if self.settings.kind == "embedded" and self._embedded is None:
                from companion.llm.embedded import embedded_model

                self._embedded = await asyncio.to_thread(embedded_model, self.settings)  # not loaded yet: _serving
                self.model = self._embedded.name
            if self.settings.kind == "lexical" and not self.base_url:  # the benchmarks' stand-in was not started
                raise LLMConfigError("--llm lexical: the no-model stand-in is not running in this process; it is started "
                                     "by the webchallenger command (or benchmarks.lexical.lexical_server())")
            if not self.model:
                self.model = await self._first_model()

    async def _first_model(self) -> str:
        try:
            page = await self._state().openai.models.list()
        except openai.APIError as exc:
            raise self._translate(exc, "listing models") from exc
        models = [m.id for m in page.data]
        if not models:
            raise LLMServerError(f"LLM server {self.base_url} lists no models; give one as ...#model")
        return models[0]

    def _state(self) -> _LoopState:
        loop = asyncio.get_running_loop()
        state = self._states.get(id(loop))
        if state is None:
            state = self._states[id(loop)] = _LoopState(self.settings, self.base_url)
        elif state.base_url != self.base_url:  # the embedded model was loaded again, on another port
            state.point_at(self.base_url)
        return state

    @contextlib.asynccontextmanager
    async def _serving(self):
        """This loop's state, for one call. An embedded model is held loaded for the length of the call; one
        unloaded while idle is loaded again first (the call waits; embedded.py logs the load)."""
        if self._embedded is None:
            yield self._state()
            return
        server = await self._acquire_embedded()
        try:
            self.base_url = server.base_url
            yield self._state()
        finally:
            self._embedded.release()

    async def _acquire_embedded(self):
        """EmbeddedModel.acquire in a thread. A call cancelled during the load (a stopped task) still gets its
        lease, from the thread: it is given back when the load ends, or the model would never be unloaded."""
        model = self._embedded
        acquiring = asyncio.ensure_future(asyncio.to_thread(model.acquire))
        try:
            return await asyncio.shield(acquiring)
        except asyncio.CancelledError:
            acquiring.add_done_callback(lambda done: done.exception() is None and model.release())
            raise

    async def _complete(self, prompt: str, version: str, messages: list[dict], schema: dict, answer: type[BaseModel],
                        max_tokens: int, temperature: float) -> tuple[Completion, Mode]:
        key = request_key(prompt, messages, schema, max_tokens)
        if self._replayer:
            try:
                return self._replayer.answer(key, prompt), "replay"
            except ReplayMiss as exc:
                raise LLMError(str(exc)) from exc
        await self._ready()
        async with self._serving() as state, state.semaphore:
            remembered = _negotiated.get((self.base_url, self.model))
            modes = MODES[MODES.index(remembered):] if remembered else MODES
            for i, mode in enumerate(modes):
                started = time.monotonic()
                if mode == "grammar" and not _grammar_for(schema):
                    continue  # the schema uses something the GBNF converter does not cover
                try:
                    completion = await self._request_patiently(state, mode, prompt, messages, schema, answer, max_tokens, temperature)
                except openai.APIStatusError as exc:
                    if exc.status_code in _FORMAT_REJECTIONS and i + 1 < len(modes):
                        continue  # this server does not take this response_format: try the next one
                    raise self._translate(exc, f"prompt {prompt!r}") from exc
                except (openai.APIError, asyncio.TimeoutError) as exc:
                    raise self._translate(exc, f"prompt {prompt!r}") from exc
                # What worked is what is remembered, over an older mode: another server can come up on the same
                # address and model name (a restart with another backend; a test's next scripted server).
                _negotiated[(self.base_url, self.model)] = mode
                if self._recorder:
                    params = {"max_tokens": max_tokens, "temperature": temperature, "schema": schema}
                    self._recorder.append(key, prompt, version, messages, params, completion, mode, time.monotonic() - started)
                return completion, mode
        raise AssertionError("unreachable: the last mode either returns or raises")

    async def _request_patiently(self, state: _LoopState, mode: Mode, prompt: str, messages: list[dict], schema: dict,
                                 answer: type[BaseModel], max_tokens: int, temperature: float) -> Completion:
        """One request; past its limit, once more with a longer limit (a slow server is not a dead one)."""
        limit = self.settings.timeout_s
        try:
            return await self._request(state, mode, prompt, messages, schema, answer, max_tokens, temperature, limit)
        except (openai.APITimeoutError, asyncio.TimeoutError):
            longer = limit * TIMEOUT_RETRY_FACTOR
            log.warning("LLM server %s did not answer prompt %r within %gs; asking once more with %gs",
                        self.base_url, prompt, limit, longer)
        try:
            again = await self._request(state, mode, prompt, messages, schema, answer, max_tokens, temperature, longer)
            # The server went on reading the first request, so the second found its prompt in the cache: counted as
            # cached, the call's new tokens would be about nil (the admin bench's slowest calls showed "1 new").
            # Counted as new, the figure is an upper bound, off by what was cached before the first request.
            return again.model_copy(update={"cached_tokens": 0})
        except (openai.APITimeoutError, asyncio.TimeoutError) as exc:
            raise LLMTimeoutError(
                f"LLM server {self.base_url} did not answer within {limit:g}s, nor within {longer:g}s when asked again "
                f"(prompt {prompt!r}); the machine may be overloaded: try a longer --llm-timeout or a smaller model"
            ) from exc

    async def _request(self, state: _LoopState, mode: Mode, prompt: str, messages: list[dict], schema: dict, answer: type[BaseModel],
                       max_tokens: int, temperature: float, limit: float) -> Completion:
        kwargs: dict = {}
        if mode == "json_schema":
            kwargs["response_format"] = {
                "type": "json_schema",
                "json_schema": {"name": schema_name(answer), "strict": True, "schema": schema},
            }
        elif mode == "json_object_schema":
            kwargs["response_format"] = {"type": "json_object", "schema": schema}
        if mode == "grammar":
            kwargs["extra_body"] = {"grammar": _grammar_for(schema)}
        if mode in ("grammar", "text"):
            # Servers that silently ignore `grammar` still see the shape they must produce.
            hint = "\n\nAnswer with one JSON object only, matching this JSON schema:\n" + json.dumps(schema, separators=(",", ":"))
            messages = messages[:-1] + [{**messages[-1], "content": messages[-1]["content"] + hint}]
        # The openai client's own timeout covers connect and read; wait_for is the belt to its braces.
        response = await asyncio.wait_for(
            state.openai.chat.completions.create(
                model=self.model, messages=messages, max_tokens=max_tokens, temperature=temperature,
                # Names the prompt for logs and for the scripted test server's rules; servers ignore it.
                extra_headers={"X-WebChallenger-Prompt": prompt},
                timeout=openai.Timeout(limit, connect=min(5.0, limit)),
                **kwargs,
            ),
            timeout=limit + 5,
        )
        if not response.choices:
            raise LLMServerError(f"LLM server {self.base_url} returned no choices")
        choice = response.choices[0]
        usage = response.usage
        cached = 0
        if usage is not None and getattr(usage, "prompt_tokens_details", None) is not None:
            cached = usage.prompt_tokens_details.cached_tokens or 0
        return Completion(
            text=choice.message.content or "",
            prompt_tokens=usage.prompt_tokens if usage else 0,
            completion_tokens=usage.completion_tokens if usage else 0,
            cached_tokens=cached,
            finish_reason=choice.finish_reason or "",
        )

    def _translate(self, exc: BaseException, what: str) -> LLMError:
        where = self.base_url
        if isinstance(exc, (openai.APITimeoutError, asyncio.TimeoutError)):
            return LLMTimeoutError(f"LLM server {where} did not answer within {self.settings.timeout_s:g}s ({what})")
        if isinstance(exc, openai.APIConnectionError):
            return LLMConnectionError(f"cannot connect to the LLM server at {where} ({what}): {self._cause(exc)}; "
                                      f"{self._what_to_do()}")
        if isinstance(exc, openai.APIStatusError):
            body = " ".join((exc.response.text[:300] if exc.response is not None else "").split())
            body = "" if body.startswith("<") else body  # a web server's HTML error page says nothing more
            hint = _STATUS_HINTS.get(exc.status_code, "")
            return LLMServerError(f"LLM server {where} answered HTTP {exc.status_code} ({what})"
                                  + (f": {body}" if body else "") + (f"; {hint}" if hint else ""))
        return LLMError(f"LLM request failed ({what}): {exc}")

    @staticmethod
    def _cause(exc: openai.APIConnectionError) -> str:
        """The innermost reason in the exception chain ("All connection attempts failed" hides a refusal)."""
        chain: list[BaseException] = []
        cause: BaseException | None = exc
        while cause is not None and len(chain) < 20:
            chain.append(cause)
            cause = cause.__cause__ or cause.__context__
        if any(isinstance(c, ConnectionRefusedError) for c in chain):
            return "nothing is listening there (connection refused)"
        return str(chain[-1]) or type(chain[-1]).__name__

    def _what_to_do(self) -> str:
        """The next step for the user, by backend: which server is missing and how it comes back."""
        spec = self.settings.spec
        check = f"`webchallenger llm check --llm {spec}`"
        if self.settings.kind == "embedded":
            return f"the embedded model server ({spec}) has stopped; run {check} to see whether it starts again"
        preset = spec.partition("#")[0]
        start = _START_HINTS.get(preset, f"start the OpenAI-compatible server that should answer at {self.base_url}")
        return f"{start}, then check it with {check} (or choose another backend with --llm)"

    async def _context_size(self) -> int | None:
        root = self.base_url.removesuffix("/v1")
        try:
            async with httpx.AsyncClient(timeout=5) as http:
                props = await http.get(f"{root}/props")
                if props.status_code == 200:
                    n = props.json().get("default_generation_settings", {}).get("n_ctx")
                    if n:
                        return int(n)
                models = await http.get(f"{self.base_url}/models")
                if models.status_code == 200:
                    for entry in models.json().get("data", []):
                        meta = entry.get("meta") or {}
                        n = meta.get("n_ctx") or entry.get("context_length") or entry.get("max_model_len")
                        if n:
                            return int(n)
        except (httpx.HTTPError, ValueError):
            return None
        return None


__all__ = ["LLMClient", "LLMError", "LLMConnectionError", "LLMTimeoutError", "LLMServerError", "LLMOutputError"]
