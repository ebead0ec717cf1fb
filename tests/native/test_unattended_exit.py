"""A companion started the way the native host starts it exits by itself, with status 0 and a log line saying
why, once no browser has been connected for its period; a connected browser keeps it running."""

from __future__ import annotations

import asyncio
import socket
import time
from pathlib import Path
from types import SimpleNamespace

import pytest

from companion.bridge.auth import load_or_create_token
from companion.native.host import LOG_FILE_NAME, start_companion, wait_running
from companion.native.running import find_running
from tests.support.bridge_client import connect, paired

PERIOD_S = 3.0
SLACK_S = 15.0  # the interpreter's start-up and shutdown on a loaded machine


@pytest.fixture
def home(tmp_path: Path, monkeypatch) -> Path:
    """Fresh WebChallenger directories, in the environment start_companion hands to the companion."""
    for name in ("CONFIG", "DATA", "CACHE"):
        monkeypatch.setenv(f"WEBCHALLENGER_{name}_DIR", str(tmp_path / name.lower()))
    return tmp_path


@pytest.fixture
def companion(home: Path):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    process = start_companion(port, exit_without_browser_s=PERIOD_S)
    running = wait_running(process)
    assert running is not None, (home / "data" / LOG_FILE_NAME).read_text()
    yield process, running
    if process.poll() is None:
        process.kill()
        process.wait(10)


def _log(home: Path) -> str:
    return (home / "data" / LOG_FILE_NAME).read_text()


def test_no_browser_for_the_period_ends_the_companion_with_status_0(home, companion):
    """Nobody connects: the companion exits 0 within the period (plus start-up slack), says why in its log, and
    withdraws its announcement."""
    process, _ = companion
    assert process.wait(timeout=PERIOD_S + SLACK_S) == 0
    assert "no browser has been connected for 3 s: the companion exits" in _log(home)
    assert find_running() is None


def test_a_connected_browser_keeps_the_companion_running(home, companion):
    """A paired browser connection keeps it alive past the period; once it leaves, the companion exits 0."""
    process, running = companion
    target = SimpleNamespace(url=f"ws://127.0.0.1:{running.port}/ws", settings=SimpleNamespace(token=load_or_create_token()))

    async def stay_connected() -> None:
        async with connect(target) as ws:
            assert (await paired(ws))["type"] == "hello_ack"
            await asyncio.sleep(PERIOD_S * 2.5)
            assert process.poll() is None

    asyncio.run(stay_connected())
    left = time.monotonic()
    assert process.wait(timeout=PERIOD_S + SLACK_S) == 0
    assert time.monotonic() - left >= PERIOD_S - 0.5  # the period counts from the browser leaving
