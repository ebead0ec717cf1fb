"""Agent tests: real Chromium + extension (tests/conftest.py) and a scripted LLM over real HTTP (agent_llm.py)."""

from __future__ import annotations

import pytest

from companion import llm
from companion.llm.client import LLMClient
from tests.agent.agent_llm import AgentLLM


@pytest.fixture
def agent_llm():
    """Factory: agent_llm(choose=..., verify=..., answer=...) -> a started AgentLLM, installed as the process LLM."""
    servers: list[AgentLLM] = []

    def start(**kwargs) -> AgentLLM:
        server = AgentLLM(**kwargs).start()
        servers.append(server)
        llm.set_client(LLMClient(spec=server.spec))
        return server

    yield start
    llm.set_client(None)
    for server in servers:
        server.stop()


@pytest.fixture
def memory_dir(tmp_path):
    """A fresh WebsiteMem directory per test: no summary cached by an earlier test changes the calls."""
    path = tmp_path / "memory"
    path.mkdir()
    return path
