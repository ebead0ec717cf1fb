"""The peer tests run browser-use from its own venv (.venv-peer, `python3 build.py peer`); without it they are
skipped, and say how to install it."""

from __future__ import annotations

import pytest

from benchmarks.peer import peer_available_message

PEER_MISSING = peer_available_message()
needs_peer = pytest.mark.skipif(PEER_MISSING is not None, reason=f"browser-use side not testable: {PEER_MISSING}")
