"""The companion's side of the LLM settings (companion/panel/llm_settings.py), without a browser: what it refuses
and how long a check may take. The options page tests (test_options_llm.py) cover the rest end to end."""

from __future__ import annotations

from companion import llm as llm_module
from companion.bridge.hub import BridgeHub
from companion.panel.llm_settings import LLMSettingsService
from tests.support.scripted_server import ScriptedLLMServer
from companion.protocol import LLMCheck, LLMSettingsSet


def test_saving_is_refused_while_a_task_runs(config):
    hub = BridgeHub()
    hub.task_started("t1", None)
    client = llm_module.get_client()
    reply = LLMSettingsService(hub)._on_set(None, LLMSettingsSet(id="r1", spec="ollama"))
    assert reply.error == "a task is running: stop it first, then save the new LLM choice"
    assert not reply.saved and not (config / "llm.toml").exists()
    assert llm_module.get_client() is client


def test_a_refused_spec_is_answered_at_once(config):
    reply = LLMSettingsService(BridgeHub())._on_check(None, LLMCheck(id="r2", spec="replay:/tmp/x.jsonl"))
    assert reply.id == "r2" and not reply.ok
    assert reply.error == "replay backends are chosen on the command line (--llm or llm.toml), not in the extension"


async def test_a_server_that_never_answers_fails_the_check_at_its_deadline(config):
    server = ScriptedLLMServer(delay_s=60, rules=[{"prompt": "choice_probe", "responses": ['{"index": 1}']}]).start()
    try:
        service = LLMSettingsService(BridgeHub(), check_deadline_s=1.0)
        reply = await service.check("r3", server.spec)
    finally:
        server.stop()
    assert not reply.ok
    assert reply.error == (f"no answer from {server.base_url} within 1 s: the server is not answering, "
                           "or the machine is overloaded")


def test_serve_installs_the_llm_settings(config):
    from companion.commands.serve import install_tasks

    hub = BridgeHub()
    install_tasks(hub, None)
    assert {"llm_settings_get", "llm_settings_set", "llm_check"} <= set(hub.message_handlers)
