"""Agent tests: real Chromium + extension (tests/conftest.py) and a scripted LLM over real HTTP (agent_llm.py)."""

from __future__ import annotations

import pytest

from companion import llm
from companion.agent.service import install_task_service
from companion.llm.client import LLMClient
from companion.observe.budget import SMALL_PAGE_ENV, WHOLE_PAGE_ENV
from tests.support.agent_llm import SELECTION_MODES, AgentLLM


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "selection(mode): the test makes sense with this agent_llm selection mode only "
                                       "('all' or 'overlap'); the other mode is skipped")
    config.addinivalue_line("markers", "paper_pipeline: the test is about a stage of the observation pipeline (summaries, "
                                       "selection, extraction, task summary), which a fixture page small enough to show "
                                       "whole skips (observe/whole.py): showing pages whole is turned off for it")


@pytest.fixture(autouse=True)
def _paper_pipeline(request, monkeypatch):
    if request.node.get_closest_marker("paper_pipeline") is not None:
        monkeypatch.setenv(WHOLE_PAGE_ENV, "0")
        monkeypatch.setenv(SMALL_PAGE_ENV, "0")


@pytest.fixture(params=SELECTION_MODES)
def agent_llm(request):
    """Factory: agent_llm(choose=..., verify=..., answer=...) -> a started AgentLLM, installed as the process LLM.
    Every test using it runs twice: subset prompts answered with every option ("all") and by word overlap with
    the task ("overlap", a narrowing choice); @pytest.mark.selection("all") keeps a test to one mode."""
    only = request.node.get_closest_marker("selection")
    if only is not None and only.args[0] != request.param:
        pytest.skip(f"makes sense with selection={only.args[0]!r} only")
    servers: list[AgentLLM] = []

    def start(**kwargs) -> AgentLLM:
        kwargs.setdefault("selection", request.param)
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


@pytest.fixture
def task_service(browser, memory_dir):
    service = install_task_service(browser.hub, memory_dir=memory_dir)
    yield service
    for name in ("start_task", "stop_task", "pause_task", "confirm_answer", "companion_status_get"):
        browser.hub.message_handlers.pop(name, None)
