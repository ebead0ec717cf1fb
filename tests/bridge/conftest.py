"""Fixtures for server-level bridge tests: a real companion server on a free loopback port (``server``, from
tests/support/bridge_client.py, which also holds the `websockets` client that speaks the protocol the way the
extension does; no browser needed)."""

from __future__ import annotations

from tests.support.bridge_client import server  # noqa: F401 (a fixture)
