"""The extension's LLM settings: which backend and model the side panel's tasks use, and `llm check` on a choice.

    install_llm_settings(hub)          # `webchallenger serve`

llm_settings_get answers the spec in use and what may be chosen (the presets' URLs, the embedded catalog).
llm_settings_set validates the spec (companion/llm/choice.py), writes it to llm.toml and makes it the process
LLM, so the next side-panel task and the status line use it; a refused spec changes nothing. While a task
runs the choice is refused: the task would change models between two steps.
llm_check runs the same check as `webchallenger llm check` (companion/llm/check.py) on a spec that is not
saved. It takes seconds (a model list, one choice; loading an embedded model takes longer), so it runs as a
task of its own on the session's loop and its llm_check_result is posted later, echoing the request's id.
"""

from __future__ import annotations

import asyncio
import logging

from companion import typed_secrets
from companion.bridge.errors import BridgeError
from companion.bridge.hub import BridgeHub
from companion.bridge.session import BrowserSession
from companion.protocol import LLMCheck, LLMCheckResult, LLMSettingsGet, LLMSettingsSet, LLMSettingsState, WireModel

log = logging.getLogger(__name__)

# Past this the check answers with an error: the options page must not wait on a server that never answers.
# Long enough for an embedded model to load on a busy machine.
CHECK_DEADLINE_S = 120.0
HANDLED = ("llm_settings_get", "llm_settings_set", "llm_check")


class LLMSettingsService:
    def __init__(self, hub: BridgeHub, *, check_deadline_s: float = CHECK_DEADLINE_S) -> None:
        self.hub = hub
        self.check_deadline_s = check_deadline_s
        self._checks: set[asyncio.Task] = set()

    def install(self) -> "LLMSettingsService":
        self.hub.message_handlers.update({"llm_settings_get": self._on_get, "llm_settings_set": self._on_set,
                                          "llm_check": self._on_check})
        return self

    def uninstall(self) -> None:
        for name in HANDLED:
            self.hub.message_handlers.pop(name, None)
        for task in list(self._checks):
            task.cancel()

    # ------------------------------------------------------------------ settings

    def state(self, message_id: str, *, error: str = "", saved: bool = False) -> LLMSettingsState:
        from companion import llm
        from companion.llm.config import PRESETS
        from companion.llm.model_files import DEFAULT_MODEL, EMBEDDED_MODELS

        catalog = [DEFAULT_MODEL, *(name for name in EMBEDDED_MODELS if name != DEFAULT_MODEL)]
        reply = LLMSettingsState(id=message_id, spec="", presets=dict(PRESETS), embedded_models=catalog,
                                 error=typed_secrets.mask(error), saved=saved)
        try:
            client = llm.get_client()
        except Exception as exc:  # llm.toml unreadable, a bad spec in the environment: say so, choose another
            reply.error = reply.error or f"the current LLM configuration cannot be used: {exc}"
            return reply
        reply.spec = client.settings.spec
        reply.model = client.model or client.settings.model
        if client.settings.kind == "server":
            self._describe_key(reply, client.settings.base_url)
        return reply

    @staticmethod
    def _describe_key(reply: LLMSettingsState, base_url: str) -> None:
        """Whether the page's key for this server is saved, and its last characters: never the key."""
        from companion.llm.api_keys import APIKeyError, hint, key_for

        try:
            key = key_for(base_url)
        except APIKeyError as exc:
            reply.error = reply.error or str(exc)
            return
        reply.api_key_set, reply.api_key_hint = bool(key), hint(key)

    def _on_get(self, session: BrowserSession, message: WireModel) -> LLMSettingsState:
        assert isinstance(message, LLMSettingsGet)
        return self.state(message.id)

    def _on_set(self, session: BrowserSession, message: WireModel) -> LLMSettingsState:
        assert isinstance(message, LLMSettingsSet)
        from companion import llm
        from companion.llm.api_keys import APIKeyError, save_key
        from companion.llm.choice import choosable, save_spec
        from companion.llm.client import LLMClient
        from companion.llm.config import LLMConfigError

        if message.api_key:
            typed_secrets.remember(message.api_key)  # masked in this session's recording, and in any error
        if self.hub.running_tasks:
            return self.state(message.id, error="a task is running: stop it first, then save the new LLM choice")
        try:
            settings = choosable(message.spec)
            if message.api_key is not None and settings.kind == "server":
                save_key(settings.base_url, message.api_key)  # before the client, which reads it
            client = LLMClient(spec=settings.spec)  # llm.toml's other keys and the environment fill in the rest
            path = save_spec(settings.spec)
        except (LLMConfigError, APIKeyError, OSError) as exc:
            return self.state(message.id, error=str(exc))
        # The old client is left to the garbage collector, not closed: a background summary may be mid-call on it.
        llm.set_client(client)
        log.info("LLM for side-panel tasks: %s (saved in %s)", settings.spec, path)
        return self.state(message.id, saved=True)

    # ------------------------------------------------------------------ check

    def _on_check(self, session: BrowserSession, message: WireModel) -> LLMCheckResult | None:
        assert isinstance(message, LLMCheck)
        from companion.llm.choice import choosable

        if message.api_key:
            typed_secrets.remember(message.api_key)
        from companion.llm.config import LLMConfigError

        try:
            choosable(message.spec)
        except LLMConfigError as exc:  # answered at once: nothing to run
            return LLMCheckResult(id=message.id, ok=False, spec=message.spec, error=str(exc))
        task = asyncio.ensure_future(self._check_and_answer(session, message))
        self._checks.add(task)
        task.add_done_callback(self._checks.discard)
        return None

    async def check(self, request_id: str, spec: str, api_key: str | None = None) -> LLMCheckResult:
        """`llm check` on `spec` with a client of its own (the one in use is not touched); errors are answers.
        `api_key`: the key to try (not kept); without one, the key saved for the spec's server."""
        from companion.llm import LLMError
        from companion.llm.check import check_backend
        from companion.llm.client import LLMConnectionError
        from companion.llm.client import LLMClient
        from companion.llm.config import LLMConfigError
        from companion.llm.model_files import ModelError

        try:
            client = LLMClient(spec=spec, api_key=api_key or None)
        except LLMConfigError as exc:
            return LLMCheckResult(id=request_id, ok=False, spec=spec, error=str(exc))
        try:
            found = await asyncio.wait_for(check_backend(client), self.check_deadline_s)
        except asyncio.TimeoutError:
            return LLMCheckResult(id=request_id, ok=False, spec=spec, base_url=client.base_url, error=(
                f"no answer from {client.base_url or spec} within {self.check_deadline_s:g} s: the server is not "
                "answering, or the machine is overloaded"))
        except LLMConnectionError as exc:
            return LLMCheckResult(id=request_id, ok=False, spec=spec, base_url=client.base_url,
                                  error=unreachable(client, exc))
        except (LLMError, ModelError) as exc:
            return LLMCheckResult(id=request_id, ok=False, spec=spec, base_url=client.base_url, error=str(exc))
        finally:
            await client.aclose()
        return LLMCheckResult(id=request_id, ok=True, spec=found.spec, backend=found.backend, base_url=found.base_url,
                              model=found.model, n_ctx=found.n_ctx, mode=found.mode, seconds=found.choice_s,
                              ready_s=found.ready_s)

    async def _check_and_answer(self, session: BrowserSession, request: LLMCheck) -> None:
        try:
            reply = await self.check(request.id, request.spec, request.api_key)
        except Exception as exc:  # a bug here must still answer the page, which waits
            log.exception("llm_check failed")
            reply = LLMCheckResult(id=request.id, ok=False, spec=request.spec, error=f"the check failed: {exc}")
        reply.error = typed_secrets.mask(reply.error)  # a server may quote the key it refused
        try:
            await session.post(reply)
        except BridgeError as exc:  # the options page or the connection is gone: nobody is waiting any more
            log.info("llm_check %s: answer not delivered: %s", request.id, exc)


def unreachable(client, exc: BaseException) -> str:
    """A server that cannot be reached, and what to do about it on the options page (the LLM layer's own message
    names the command line's --llm, which the page has no use for)."""
    from companion.llm.client import LLMClient

    cause = LLMClient._cause(exc.__cause__) if exc.__cause__ is not None else str(exc)
    if client.settings.kind == "embedded":
        return f"the embedded model server did not answer ({cause}): press Check again, or choose another backend above"
    return (f"cannot connect to the LLM server at {client.base_url}: {cause}. Start the server (or correct the URL), "
            "then press Check again, or choose another backend above")


def install_llm_settings(hub: BridgeHub, **kwargs) -> LLMSettingsService:
    return LLMSettingsService(hub, **kwargs).install()


__all__ = ["LLMSettingsService", "install_llm_settings", "CHECK_DEADLINE_S"]
