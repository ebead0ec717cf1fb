"""The companion's side of the pairing check against a real `websockets` client (no browser): the token is
never sent, a client is accepted only once it proved it holds the token, and every way of not proving it
(silence, a command first, a replayed, reflected or relayed proof) gets no session and nothing obeyed."""

from __future__ import annotations

import asyncio
import json

import pytest
import websockets

from companion.bridge.auth import companion_proof, extension_proof, load_or_create_token, new_nonce
from companion.bridge.hub import BridgeHub
from companion.bridge.runner import CompanionServer
from companion.bridge.server import BridgeSettings

from tests.support.bridge_client import connect, hello, paired, recv_json


@pytest.fixture
def quick_server(tmp_path):
    """A companion that gives up on a silent client after one second."""
    token = load_or_create_token(tmp_path / "config")
    with CompanionServer(BridgeSettings(token=token, port=0, pairing_timeout=1.0), BridgeHub()) as companion:
        yield companion


async def challenge(ws) -> tuple[str, dict]:
    client_nonce = new_nonce()
    await ws.send(json.dumps({"type": "auth_challenge", "id": "a-1", "client_nonce": client_nonce}))
    return client_nonce, await recv_json(ws)


async def send_proof(ws, proof: str) -> None:
    await ws.send(json.dumps({"type": "auth_proof", "id": "a-1", "proof": proof}))


async def assert_refused_and_closed(ws) -> dict:
    error = await recv_json(ws)
    assert (error["type"], error["code"]) == ("error", "unauthorized")
    with pytest.raises(websockets.ConnectionClosed) as closed:
        await recv_json(ws)
    assert closed.value.rcvd.code == 1008
    return error


async def test_a_silent_client_gets_nothing_and_is_dropped(quick_server):
    async with connect(quick_server) as ws:
        with pytest.raises(websockets.ConnectionClosed) as closed:
            await recv_json(ws, timeout=30)  # the first thing that arrives is the close
        assert closed.value.rcvd.code == 1008
    assert quick_server.hub.history == []
    assert quick_server.hub.refused[-1].reason == "no auth_challenge within 1 s"


async def test_a_client_that_stops_after_the_challenge_is_dropped(quick_server):
    async with connect(quick_server) as ws:
        await challenge(ws)
        with pytest.raises(websockets.ConnectionClosed):
            await recv_json(ws, timeout=30)
    assert quick_server.hub.history == []
    assert quick_server.hub.refused[-1].reason == "no auth_proof within 1 s"


async def test_hello_before_the_pairing_check_is_refused(server):
    async with connect(server) as ws:
        await ws.send(hello())
        await assert_refused_and_closed(ws)
    assert server.hub.history == [] and server.hub.sessions == []


async def test_hello_instead_of_the_proof_is_refused(server):
    async with connect(server) as ws:
        await challenge(ws)
        assert server.hub.sessions == []  # our proof given, theirs not yet: no session
        await ws.send(hello())
        await assert_refused_and_closed(ws)
    assert server.hub.history == []


async def test_the_companion_proves_itself_over_the_clients_nonce_and_its_own_port(server):
    async with connect(server) as ws:
        client_nonce, response = await challenge(ws)
    token, nonce = server.settings.token, response["server_nonce"]
    assert response["proof"] == companion_proof(token, server.port, client_nonce, nonce)
    assert response["proof"] != companion_proof(token, server.port + 1, client_nonce, nonce)
    assert token not in json.dumps(response)


async def test_a_replayed_proof_does_not_pair(server):
    async with connect(server) as ws:
        client_nonce, response = await challenge(ws)
        old_proof = extension_proof(server.settings.token, server.port, client_nonce, response["server_nonce"])
        await send_proof(ws, old_proof)
        await ws.send(hello())
        assert (await recv_json(ws))["type"] == "hello_ack"
    # Same client nonce again: the companion picks a new nonce of its own, so yesterday's proof is worthless.
    async with connect(server) as ws:
        await ws.send(json.dumps({"type": "auth_challenge", "id": "a-1", "client_nonce": client_nonce}))
        second = await recv_json(ws)
        assert second["server_nonce"] != response["server_nonce"]
        await send_proof(ws, old_proof)
        await assert_refused_and_closed(ws)
    assert len(server.hub.history) == 1


async def test_the_companions_own_proof_reflected_back_does_not_pair(server):
    async with connect(server) as ws:
        _, response = await challenge(ws)
        await send_proof(ws, response["proof"])
        await assert_refused_and_closed(ws)
    assert server.hub.history == []


async def test_a_proof_made_for_another_port_does_not_pair(server):
    # What a relay on another port would hold: a proof that covers the port the extension dialled there.
    async with connect(server) as ws:
        client_nonce, response = await challenge(ws)
        await send_proof(ws, extension_proof(server.settings.token, server.port + 1, client_nonce, response["server_nonce"]))
        await assert_refused_and_closed(ws)
    assert server.hub.history == []


async def test_a_client_that_leaves_after_our_proof_is_noted_as_holding_another_token(server):
    async with connect(server) as ws:
        await challenge(ws)
    for _ in range(50):
        if server.hub.refused:
            break
        await asyncio.sleep(0.1)
    assert "rejected our pairing proof" in server.hub.refused[-1].reason


async def test_pairing_messages_once_paired_are_answered_as_errors(server):
    async with connect(server) as ws:
        await paired(ws)
        await ws.send(json.dumps({"type": "auth_challenge", "id": "again", "client_nonce": new_nonce()}))
        error = await recv_json(ws)
        assert (error["type"], error["code"], error["id"]) == ("error", "unknown_type", "again")
        await ws.send(json.dumps({"type": "heartbeat", "id": "hb-1", "sent_at": 1.0}))
        assert (await recv_json(ws))["id"] == "hb-1"  # the connection lives on
