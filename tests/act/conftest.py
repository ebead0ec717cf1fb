"""ACT test fixtures: the shared browser fixtures (tests/conftest.py), the scripted LLM, and `make_ctx`
building an AgentContext on the page open in the controlled tab."""

from __future__ import annotations

import pytest

from companion.act import AgentContext
from tests.support.llm_fixtures import llm_client_for, scripted_llm  # noqa: F401


@pytest.fixture
def make_ctx(browser, tmp_path):
    """make_ctx(task, confirm=..., **fields) -> an AgentContext over the active tab, refreshed once."""

    async def _make(task: str, **fields) -> AgentContext:
        ctx = AgentContext(session=browser.session, task=task, files_dir=tmp_path / "files", **fields)
        await ctx.refresh()
        return ctx

    return _make
