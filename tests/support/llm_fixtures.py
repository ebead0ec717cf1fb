"""Pytest fixtures for any test folder that needs an LLM. Import them into your conftest.py:

    from tests.support.llm_fixtures import scripted_llm, llm_client_for  # noqa: F401

    async def test_something(scripted_llm, llm_client_for):
        server = scripted_llm(rules=[{"prompt": "action_selection", "responses": ['{"reason": "r", "index": 0}']}])
        client = llm_client_for(server)          # a real LLMClient over HTTP to the scripted server
        reply = await client.choose("action_selection", {...}, n=3)
        assert server.requests[0].prompt == "action_selection"

`llm_client_for` also installs the client as the process-wide default (companion.llm.set_client), so code
that calls `companion.llm.ask(...)` uses it, and resets the default afterwards.
"""

from __future__ import annotations

import pytest

from companion import llm
from companion.llm.client import LLMClient
from tests.support.scripted_server import ScriptedLLMServer


@pytest.fixture
def scripted_llm():
    """Factory: scripted_llm(script=[...], rules=[...], reject_json_schema=..., delay_s=..., garbage=...) -> started server."""
    servers: list[ScriptedLLMServer] = []

    def start(**kwargs) -> ScriptedLLMServer:
        server = ScriptedLLMServer(**kwargs).start()
        servers.append(server)
        return server

    yield start
    for server in servers:
        server.stop()


@pytest.fixture
def llm_client_for():
    """Factory: llm_client_for(server, **settings) -> LLMClient talking to that scripted server."""
    clients: list[LLMClient] = []

    def make(server: ScriptedLLMServer, **overrides) -> LLMClient:
        client = LLMClient(spec=server.spec, **overrides)
        clients.append(client)
        llm.set_client(client)
        return client

    yield make
    llm.set_client(None)
