"""LLM test fixtures. Other test folders use the same ones with:

    from tests.support.llm_fixtures import scripted_llm, llm_client_for  # noqa: F401
"""

import pytest

from tests.support.llm_fixtures import llm_client_for, scripted_llm  # noqa: F401


@pytest.fixture
def fresh_dirs(tmp_path, monkeypatch):
    """Config and cache in a temporary dir, and no LLM environment leaking in from the developer's shell."""
    monkeypatch.setenv("WEBCHALLENGER_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("WEBCHALLENGER_CACHE_DIR", str(tmp_path / "cache"))
    for var in ["WEBCHALLENGER_LLM", "WEBCHALLENGER_LLM_TIMEOUT", "WEBCHALLENGER_LLM_RECORD", "WEBCHALLENGER_LLM_CONCURRENCY"]:
        monkeypatch.delenv(var, raising=False)
    return tmp_path
