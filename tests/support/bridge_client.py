"""A real `websockets` client that speaks the bridge protocol the way the extension does: connecting with the
extension's origin and subprotocol, authenticating, pairing, reading JSON; and the `server` fixture (a real
companion server on a free loopback port), made available by the conftest.py of tests/bridge and tests/security."""

from __future__ import annotations

import asyncio
import json
import time
import uuid

import pytest
import websockets

from companion.bridge.auth import (
    EXTENSION_ORIGIN, SUBPROTOCOL, companion_proof, extension_proof, load_or_create_token, new_nonce,
)
from companion.bridge.errors import MessageRejected
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


# The token each open test connection pairs with (connect() records it, paired() uses it).
_TOKENS: dict[int, str] = {}


class _Connect:
    """`async with connect(server) as ws`: a websockets client connection that remembers its token."""

    def __init__(self, server: CompanionServer, origin: str | None, token: str, subprotocols: list[str]):
        self._connect = websockets.connect(server.url, origin=origin, subprotocols=subprotocols, max_size=None,
                                           open_timeout=5)
        self._token = token

    async def __aenter__(self):
        ws = await self._connect.__aenter__()
        _TOKENS[id(ws)] = self._token
        return ws

    async def __aexit__(self, *exc_info):
        return await self._connect.__aexit__(*exc_info)


def connect(server: CompanionServer, *, origin: str | None = EXTENSION_ORIGIN, token: str | None = None,
            subprotocols: list[str] | None = None) -> _Connect:
    """A websockets client connection to `server` with the extension's Origin and subprotocol; `token`
    (the server's unless given) is what paired() proves."""
    return _Connect(server, origin, token if token is not None else server.settings.token,
                    subprotocols if subprotocols is not None else [SUBPROTOCOL])


async def authenticate(ws, token: str | None = None, port: int | None = None) -> dict:
    """The extension's side of the pairing check; returns the companion's AuthResponse after checking it."""
    token = token if token is not None else _TOKENS[id(ws)]
    port = port if port is not None else ws.remote_address[1]
    client_nonce = new_nonce()
    await ws.send(json.dumps({"type": "auth_challenge", "id": "auth-1", "client_nonce": client_nonce}))
    response = await recv_json(ws)
    assert response["type"] == "auth_response", response
    assert response["proof"] == companion_proof(token, port, client_nonce, response["server_nonce"])
    await ws.send(json.dumps({"type": "auth_proof", "id": "auth-1",
                              "proof": extension_proof(token, port, client_nonce, response["server_nonce"])}))
    return response


async def paired(ws, boot_id: str = "boot-1") -> dict:
    """Pass the pairing check, send Hello and return the HelloAck."""
    await authenticate(ws)
    await ws.send(hello(boot_id))
    return json.loads(await ws.recv())


async def recv_json(ws, timeout: float = 5.0) -> dict:
    import asyncio

    return json.loads(await asyncio.wait_for(ws.recv(), timeout))


WAIT = 60.0  # the request's own timeout: failing "at once" means long before it
AT_ONCE = 15.0  # generous for a loaded machine, still far below WAIT and the reconnect wait


def heartbeat(hb_id: str) -> str:
    return json.dumps({"type": "heartbeat", "id": hb_id, "sent_at": 1.0})


async def waiting_snapshot(server, ws):
    """A snapshot request the companion is waiting on, and its id as the client received it."""
    session = await server.hub.wait_for_session(5)
    task = asyncio.ensure_future(session.snapshot(timeout=WAIT))
    request = await recv_json(ws)
    assert request["type"] == "snapshot"
    return task, request["id"]


async def fails_at_once(task) -> MessageRejected:
    started = time.monotonic()
    with pytest.raises(MessageRejected) as info:
        await asyncio.wait_for(task, AT_ONCE)
    assert time.monotonic() - started < AT_ONCE
    return info.value


async def still_usable(ws) -> None:
    await ws.send(heartbeat("hb-after"))
    assert (await recv_json(ws))["id"] == "hb-after"


PAGE = {"url": "http://p/", "title": "t", "viewport": {"width": 800, "height": 600}, "scroll": {},
        "frames": [{"frame": 0, "url": "http://p/", "elements": [
            {"id": 1, "tag": "body"},
            {"id": 2, "parent": 1, "tag": "input", "attrs": {"type": "password", "id": "pw"}, "interactive": True},
            {"id": 3, "parent": 1, "tag": "input", "attrs": {"id": "user"}, "value": "me", "interactive": True},
        ]}]}
