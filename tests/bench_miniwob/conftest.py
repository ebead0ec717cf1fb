"""MiniWoB tests: the pinned wheel's html/ fetched once into the test session's cache (pip, from PyPI)."""

from __future__ import annotations

import pytest

from benchmarks.miniwob import ensure_miniwob_html


@pytest.fixture(scope="session")
def miniwob_html():
    return ensure_miniwob_html(lambda message: None)
