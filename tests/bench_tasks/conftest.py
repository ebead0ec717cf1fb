"""Task-suite tests: the shop admin site (tests/djangosite), the suite's task file, the scripted LLM over real HTTP."""

from __future__ import annotations

import pytest

from companion import llm
from benchmarks.task_suite import load_suite
from companion.llm.client import LLMClient
from tests.support.agent_llm import AgentLLM
from tests.support.bench_scripts import SUITE_FILE
from tests.support.extension_build import ensure_extension_built


@pytest.fixture(scope="session", autouse=True)
def built_extension():
    """The runner launches its own browsers from dist/extension: rebuild it first when the sources are newer."""
    ensure_extension_built()


@pytest.fixture(scope="session")
def suite():
    return load_suite(SUITE_FILE)


@pytest.fixture
def agent_llm():
    """Factory: agent_llm(choose=..., answer=..., overrides=...) -> a started AgentLLM, installed as the process LLM."""
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
