"""Fixtures for server-level bridge tests: a real companion server on a free loopback port and a real
`websockets` client that speaks the protocol the way the extension does (no browser needed)."""

from __future__ import annotations

import json
import uuid

import pytest
import websockets

from companion.bridge.auth import EXTENSION_ORIGIN, SUBPROTOCOL, load_or_create_token
from companion.bridge.hub import BridgeHub
from companion.bridge.runner import CompanionServer
from companion.bridge.server import BridgeSettings


@pytest.fixture
def server(tmp_path):
    """A started CompanionServer with its own token (in tmp_path) and hub."""
    token = load_or_create_token(tmp_path / "config")
    with CompanionServer(BridgeSettings(token=token, port=0), BridgeHub()) as companion:
        yield companion


def hello(boot_id: str = "boot-1", version: int = 1) -> str:
    return json.dumps({"type": "hello", "id": uuid.uuid4().hex, "protocol_version": version,
                       "extension_version": "test", "boot_id": boot_id})


def connect(server: CompanionServer, *, origin: str | None = EXTENSION_ORIGIN, token: str | None = None,
            subprotocols: list[str] | None = None):
    """A websockets client connection to `server`, with the extension's Origin and token unless overridden."""
    if subprotocols is None:
        subprotocols = [SUBPROTOCOL, "auth." + (token if token is not None else server.settings.token)]
    return websockets.connect(server.url, origin=origin, subprotocols=subprotocols, max_size=None, open_timeout=5)


async def paired(ws, boot_id: str = "boot-1") -> dict:
    """Send Hello and return the HelloAck."""
    await ws.send(hello(boot_id))
    return json.loads(await ws.recv())


async def recv_json(ws, timeout: float = 5.0) -> dict:
    import asyncio

    return json.loads(await asyncio.wait_for(ws.recv(), timeout))
