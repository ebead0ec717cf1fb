"""Fixtures for the attack tests: ``fake_companion`` (a plain `websockets` server that does not hold the token,
tests/support/fake_companion.py, parametrized indirectly), and the bridge's ``server`` and ACT's ``make_ctx``
(from tests/support) for the tests that attack those layers."""

from __future__ import annotations

import pytest

from tests.support.act_context import make_ctx  # noqa: F401 (a fixture)
from tests.support.bridge_client import server  # noqa: F401 (a fixture)
from tests.support.fake_companion import FakeCompanion


@pytest.fixture
def fake_companion(request):
    with FakeCompanion(request.param) as fake:
        yield fake
