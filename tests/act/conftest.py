"""ACT test fixtures: the shared browser fixtures (tests/conftest.py), the scripted LLM, and `make_ctx`
(tests/support/act_context.py) building an AgentContext on the page open in the controlled tab."""

from __future__ import annotations

from tests.support.llm_fixtures import llm_client_for, scripted_llm  # noqa: F401
from tests.support.act_context import make_ctx  # noqa: F401 (a fixture)
