"""The companion's WebSocket server against a real `websockets` client: who may connect, and how
bad input is answered. The client plays the extension's part of the protocol; no browser needed."""

import asyncio
import json

import httpx
import pydantic
import pytest
import websockets
from websockets.exceptions import InvalidStatus

from companion.bridge.auth import SUBPROTOCOL, extension_proof, new_nonce
from companion.bridge.server import BridgeSettings

from tests.support.bridge_client import authenticate, connect, hello, paired, recv_json


async def assert_refused(server, **kwargs) -> None:
    with pytest.raises(InvalidStatus) as info:
        async with connect(server, **kwargs):
            pass
    assert info.value.response.status_code == 403


async def test_wrong_origin_is_refused_and_gets_no_session(server):
    await assert_refused(server, origin="http://127.0.0.1:8000")
    await assert_refused(server, origin="chrome-extension://aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa")
    assert server.hub.history == []
    assert [r.reason for r in server.hub.refused][-1].startswith("origin")


async def test_missing_subprotocol_or_origin_is_refused_and_gets_no_session(server):
    await assert_refused(server, subprotocols=["webchallenger.v1"])
    await assert_refused(server, origin=None)
    assert server.hub.history == []
    assert len(server.hub.refused) == 2


async def test_an_older_extension_offering_its_token_is_refused_without_logging_it(server):
    await assert_refused(server, subprotocols=["webchallenger.v1", "auth." + server.settings.token])
    reason = server.hub.refused[-1].reason
    assert "older extension" in reason and server.settings.token not in reason


async def test_a_client_without_the_token_cannot_issue_a_command(server):
    # The same bytes that work for the extension, but its pairing proof is made with another token.
    async with connect(server) as ws:
        await ws.send(json.dumps({"type": "auth_challenge", "id": "a-1", "client_nonce": new_nonce()}))
        response = await recv_json(ws)
        await ws.send(json.dumps({"type": "auth_proof", "id": "a-1", "proof": extension_proof(
            "y" * 43, server.port, response["server_nonce"], response["server_nonce"])}))
        error = await recv_json(ws)
        assert (error["type"], error["code"]) == ("error", "unauthorized")
        with pytest.raises(websockets.ConnectionClosed):
            await ws.send(hello())
            await recv_json(ws)
    assert server.hub.sessions == [] and server.hub.history == []
    assert server.hub.refused[-1].reason == "wrong pairing proof"


async def test_extension_is_accepted_with_its_subprotocol_and_gets_hello_ack(server):
    async with connect(server) as ws:
        assert ws.subprotocol == SUBPROTOCOL
        await authenticate(ws)
        await ws.send(hello("boot-a"))
        ack = await recv_json(ws)
        assert ack["type"] == "hello_ack" and ack["protocol_version"] == 1
        session = await server.hub.wait_for_session(5)
        assert session.session_id == ack["session_id"] and session.boot_id == "boot-a"


async def test_malformed_json_is_answered_and_the_connection_lives_on(server):
    async with connect(server) as ws:
        await paired(ws)
        await ws.send("{not json")
        error = await recv_json(ws)
        assert error["type"] == "error" and error["code"] == "malformed"
        await ws.send(json.dumps({"type": "heartbeat", "id": "hb-1", "sent_at": 1.0}))
        assert (await recv_json(ws))["id"] == "hb-1"
    assert len(server.hub.history) == 1


async def test_unknown_type_is_answered_with_its_id(server):
    async with connect(server) as ws:
        await paired(ws)
        await ws.send(json.dumps({"type": "teleport", "id": "t-1"}))
        error = await recv_json(ws)
        assert (error["type"], error["code"], error["id"]) == ("error", "unknown_type", "t-1")


async def test_invalid_fields_are_described_without_echoing_values(server):
    async with connect(server) as ws:
        await paired(ws)
        await ws.send(json.dumps({"type": "tab_event", "id": "e-1", "tab_id": "SECRET-VALUE", "event": "loaded"}))
        error = await recv_json(ws)
        assert error["code"] == "malformed" and error["id"] == "e-1"
        assert "tab_id" in error["message"] and "SECRET-VALUE" not in error["message"]


async def test_commands_from_the_extension_side_are_refused(server):
    async with connect(server) as ws:
        await paired(ws)
        await ws.send(json.dumps({"type": "snapshot", "id": "s-1"}))
        error = await recv_json(ws)
        assert (error["code"], error["id"]) == ("unknown_type", "s-1")


async def test_first_message_after_pairing_must_be_hello(server):
    async with connect(server) as ws:
        await authenticate(ws)
        await ws.send(json.dumps({"type": "heartbeat", "id": "hb", "sent_at": 1.0}))
        error = await recv_json(ws)
        assert error["type"] == "error"
        with pytest.raises(websockets.ConnectionClosed):
            await recv_json(ws)
    assert server.hub.history == []


async def test_other_protocol_version_is_refused(server):
    async with connect(server) as ws:
        await authenticate(ws)
        await ws.send(hello(version=99))
        error = await recv_json(ws)
        assert error["code"] == "unsupported_version"
    assert server.hub.history == []


async def test_heartbeat_is_answered_with_the_same_id(server):
    async with connect(server) as ws:
        await paired(ws)
        await ws.send(json.dumps({"type": "heartbeat", "id": "hb-7", "sent_at": 1.0}))
        reply = await recv_json(ws)
        assert (reply["type"], reply["id"]) == ("heartbeat", "hb-7")
        session = await server.hub.wait_for_session(5)
        assert session.heartbeats_received == 1


async def test_messages_larger_than_uvicorns_default_limit_are_accepted(server):
    # uvicorn's default is 16 MiB; a snapshot of a huge page must still get through.
    big_text = "x" * (20 * 1024 * 1024)
    async with connect(server) as ws:
        await paired(ws)
        session = await server.hub.wait_for_session(5)
        task = asyncio.ensure_future(session.snapshot(timeout=30))
        request = await recv_json(ws)
        element = {"id": 1, "tag": "p", "text": big_text}
        await ws.send(json.dumps({"type": "snapshot_result", "id": request["id"], "tab_id": 1, "snapshot": {
            "url": "http://x/", "title": "big", "viewport": {"width": 1, "height": 1}, "scroll": {},
            "frames": [{"frame": 0, "url": "http://x/", "elements": [element]}]}}))
        snapshot = await task
        assert len(snapshot.frames[0].elements[0].text) == len(big_text)


async def test_second_session_with_a_new_boot_id_is_flagged_as_a_worker_restart(server):
    async with connect(server) as ws:
        await paired(ws, "boot-1")
        first = await server.hub.wait_for_session(5)
    async with connect(server) as ws:
        await paired(ws, "boot-1")
        same_worker = await server.hub.wait_for_session(5, newer_than=first)
    async with connect(server) as ws:
        await paired(ws, "boot-2")
        new_worker = await server.hub.wait_for_session(5, newer_than=same_worker)
        assert first.worker_restarted is None
        assert same_worker.worker_restarted is False and same_worker.closed
        assert new_worker.worker_restarted is True


def test_health_endpoint_reveals_nothing_sensitive(server):
    response = httpx.get(f"http://127.0.0.1:{server.port}/health")
    assert response.status_code == 200
    assert response.json() == {"service": "webchallenger", "status": "ok", "protocol_version": 1}
    assert server.settings.token not in response.text
    assert httpx.get(f"http://127.0.0.1:{server.port}/docs").status_code == 404


def listening_addresses(port: int) -> list[str]:
    """Local addresses of LISTEN sockets on `port`, from the kernel's own table."""
    found = []
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with open(table) as f:
            for line in f.readlines()[1:]:
                local, state = line.split()[1], line.split()[3]
                address, port_hex = local.rsplit(":", 1)
                if int(port_hex, 16) == port and state == "0A":  # 0A = LISTEN
                    found.append(address)
    return found


def test_server_listens_on_loopback_only(server):
    # 0100007F is 127.0.0.1 in the kernel's little-endian hex; 0.0.0.0 would be 00000000.
    assert listening_addresses(server.port) == ["0100007F"]
    with pytest.raises(pydantic.ValidationError, match="127.0.0.1 only"):
        BridgeSettings(token="t" * 43, host="0.0.0.0")


def test_settings_never_print_the_token(server):
    assert server.settings.token not in repr(server.settings)


async def test_a_refusal_that_repeats_is_logged_once(server, caplog):
    """A browser refused again and again (a stale extension retrying) gets one warning, not one per attempt;
    every attempt is still kept in hub.refused."""
    import logging
    import uuid

    origin = f"chrome-extension://{uuid.uuid4().hex}"  # a refusal no earlier test has logged
    with caplog.at_level(logging.WARNING, logger="companion.bridge.server"):
        for _ in range(3):
            await assert_refused(server, origin=origin)
    logged = [r.getMessage() for r in caplog.records if origin in r.getMessage()]
    assert len(logged) == 1 and "if it repeats, it is counted" in logged[0], logged
    assert sum(r.origin == origin for r in server.hub.refused) == 3


async def test_a_service_request_this_companion_does_not_offer_is_refused_quietly(server, caplog):
    """A companion without the options page's services (one a command starts for its own browser) answers the
    options page's llm_settings_get with a refusal that says so, and logs no warning about it."""
    import logging

    async with connect(server) as ws:
        await paired(ws)
        with caplog.at_level(logging.INFO, logger="companion.bridge"):
            await ws.send(json.dumps({"type": "llm_settings_get", "id": "l-1"}))
            error = await recv_json(ws)
    assert (error["type"], error["code"], error["id"]) == ("error", "unknown_type", "l-1")
    assert "does not offer llm_settings_get; `webchallenger serve` does" in error["message"]
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING] == []
