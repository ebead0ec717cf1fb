"""Observation tests: real Chromium + extension (tests/conftest.py) and the scripted LLM server."""

from __future__ import annotations

from typing import NamedTuple

import pytest

from benchmarks.lexical import LexicalLLMServer
from companion.llm.client import LLMClient
from tests.support.llm_fixtures import llm_client_for, scripted_llm  # noqa: F401
from companion.observe.budget import SMALL_PAGE_ENV, WHOLE_PAGE_ENV
from companion.pagemem.divide import divide_page


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "whole_pages: the test observes with the default bound of a page shown whole "
                                       "(observe/whole.py); the other tests run the paper's pipeline on every page")


@pytest.fixture(autouse=True)
def paper_pipeline(request, monkeypatch):
    """The fixture pages here are small stand-ins for the large pages the pipeline is for: its stages are tested
    with showing pages whole turned off (WEBCHALLENGER_WHOLE_PAGE_TOKENS=0), but for tests marked whole_pages."""
    if request.node.get_closest_marker("whole_pages") is None:
        monkeypatch.setenv(WHOLE_PAGE_ENV, "0")
        monkeypatch.setenv(SMALL_PAGE_ENV, "0")


class StandIn(NamedTuple):
    server: LexicalLLMServer
    client: LLMClient

    def prompts(self, since: int = 0) -> list[tuple[str, str]]:
        """(prompt name, user message) of every request from the `since`-th on, in arrival order."""
        return [(r.prompt, r.last_user) for r in self.server.requests[since:]]


@pytest.fixture
def lexical():
    """The benchmarks' no-model stand-in on a server of this test's own: the real client over HTTP, the real prompt
    templates, answers computed by word overlap with the task (benchmarks/lexical.py)."""
    with LexicalLLMServer() as server:
        yield StandIn(server, LLMClient(spec=server.spec))


@pytest.fixture
def page_mem(browser, open_page):
    """page_mem("obs_shop.html") -> (snapshot, PageMem) of the fixture page as loaded in Chromium."""

    async def load(name: str):
        open_page(name)
        snapshot = await browser.session.snapshot()
        return snapshot, divide_page(snapshot)

    return load
