"""The Python session API against a real server, with a real websockets client answering as the extension:
replies matched by id, timeouts that name the request, errors surfaced, disconnects not hanging callers."""

import asyncio
import json
import threading

import pytest

from companion.bridge.errors import BridgeDisconnected, BridgeError, BridgeTimeout, RemoteError
from companion.bridge.recorder import Recorder, read_recording
from companion.protocol import ElementRef

from tests.support.bridge_client import PAGE, connect, paired, recv_json


def action_result(request: dict, ok: bool = True, error: str | None = None) -> str:
    reply = {"type": "action_result", "id": request["id"], "tab_id": 7, "ok": ok, "url_before": "http://p/", "url_after": "http://p/"}
    if error:
        reply["error"] = error
    return json.dumps(reply)


async def test_replies_are_matched_by_id_even_out_of_order(server):
    async with connect(server) as ws:
        await paired(ws)
        session = await server.hub.wait_for_session(5)
        click = asyncio.ensure_future(session.click(ElementRef(frame=0, id=3)))
        snap = asyncio.ensure_future(session.snapshot())
        first, second = await recv_json(ws), await recv_json(ws)
        requests = {r["type"]: r for r in (first, second)}
        assert requests["action"]["action"] == {"kind": "click", "target": {"frame": 0, "id": 3}}
        await ws.send(json.dumps({"type": "snapshot_result", "id": requests["snapshot"]["id"], "tab_id": 7, "snapshot": PAGE}))
        await ws.send(action_result(requests["action"], ok=False, error="element 3 is no longer on the page"))
        result, snapshot = await click, await snap
        assert not result.ok and result.error == "element 3 is no longer on the page"
        assert snapshot.title == "t" and session.last_tab_id == 7


async def test_timeout_names_the_request(server):
    async with connect(server) as ws:
        await paired(ws)
        session = await server.hub.wait_for_session(5)
        task = asyncio.ensure_future(session.navigate("http://example.test/", timeout=0.3))
        request = await recv_json(ws)
        with pytest.raises(BridgeTimeout, match=f"action navigate request {request['id']}"):
            await task


async def test_error_reply_raises_remote_error(server):
    async with connect(server) as ws:
        await paired(ws)
        session = await server.hub.wait_for_session(5)
        task = asyncio.ensure_future(session.list_tabs())
        request = await recv_json(ws)
        await ws.send(json.dumps({"type": "error", "id": request["id"], "code": "no_tab", "message": "no tab 9"}))
        with pytest.raises(RemoteError) as info:
            await task
        assert info.value.code == "no_tab"


async def test_disconnect_fails_waiting_requests_at_once(server):
    server.hub.reacquire_timeout = 0  # no waiting for a reconnect (test_reacquire.py covers that)
    async with connect(server) as ws:
        await paired(ws)
        session = await server.hub.wait_for_session(5)
        task = asyncio.ensure_future(session.snapshot(timeout=60))
        await recv_json(ws)
    with pytest.raises(BridgeDisconnected, match="snapshot request"):
        await asyncio.wait_for(task, 5)
    with pytest.raises(BridgeDisconnected):
        await session.reload()


def test_sync_callers_use_the_companion_loop(server):
    # Blocking code (the CLI, sync tests) runs coroutines through CompanionServer.call.
    async def client():
        async with connect(server) as ws:
            await paired(ws)
            request = await recv_json(ws, 10)
            await ws.send(json.dumps({"type": "tabs_result", "id": request["id"], "tabs": [{"tab_id": 4, "url": "http://p/"}]}))
            await asyncio.sleep(0.5)

    thread = threading.Thread(target=lambda: asyncio.run(client()))
    thread.start()
    session = server.call(server.hub.wait_for_session(5), 10)
    tabs = server.call(session.list_tabs(), 10)
    thread.join()
    assert [t.tab_id for t in tabs] == [4]


async def test_tab_events_reach_waiters(server):
    async with connect(server) as ws:
        await paired(ws)
        session = await server.hub.wait_for_session(5)
        waiter = asyncio.ensure_future(session.wait_for_event(lambda e: e.event == "loaded", timeout=5))
        await asyncio.sleep(0.05)
        await ws.send(json.dumps({"type": "tab_event", "id": "e1", "tab_id": 3, "event": "navigated", "url": "http://p/2"}))
        await ws.send(json.dumps({"type": "tab_event", "id": "e2", "tab_id": 3, "event": "loaded", "url": "http://p/2"}))
        event = await waiter
        assert (event.tab_id, event.url) == (3, "http://p/2")
        assert [e.event for e in session.events()] == ["navigated", "loaded"]


async def test_recording_has_both_directions_and_redacts_text_typed_into_password_fields(server, tmp_path):
    server.hub.recorder = Recorder(tmp_path / "rec.jsonl")
    try:
        async with connect(server) as ws:
            await paired(ws)
            session = await server.hub.wait_for_session(5)
            snap = asyncio.ensure_future(session.snapshot())
            request = await recv_json(ws)
            await ws.send(json.dumps({"type": "snapshot_result", "id": request["id"], "tab_id": 7, "snapshot": PAGE}))
            await snap
            typed = asyncio.ensure_future(session.type((0, 2), "correct-horse-battery"))
            request = await recv_json(ws)
            assert request["action"]["text"] == "correct-horse-battery"  # the browser does get it
            await ws.send(action_result(request))
            await typed
            secret = asyncio.ensure_future(session.type((0, 3), "marked-secret-text", secret=True))
            request = await recv_json(ws)
            await ws.send(action_result(request))
            await secret
    finally:
        server.hub.recorder.close()
        server.hub.recorder = None
    lines = list(read_recording(tmp_path / "rec.jsonl"))
    assert {line.dir for line in lines} == {"in", "out"}
    assert [json.loads(line.raw)["type"] for line in lines][:2] == ["hello", "hello_ack"]
    text = (tmp_path / "rec.jsonl").read_text()
    assert "correct-horse-battery" not in text and "marked-secret-text" not in text
    assert text.count("[redacted]") == 2


def test_sync_call_keeps_the_bridge_timeout_message(server):
    async def scenario():
        async with connect(server) as ws:
            await paired(ws)
            session = await server.hub.wait_for_session(5)
            return await session.reload(timeout=0.3)

    with pytest.raises(BridgeTimeout, match="action reload request"):
        server.call(scenario(), timeout=10)


async def test_malformed_reply_fails_the_waiting_request_at_once(server):
    async with connect(server) as ws:
        await paired(ws)
        session = await server.hub.wait_for_session(5)
        task = asyncio.ensure_future(session.snapshot(timeout=60))
        request = await recv_json(ws)
        await ws.send(json.dumps({"type": "snapshot_result", "id": request["id"], "tab_id": 1, "snapshot": {"url": 5}}))
        with pytest.raises(BridgeError, match="the reply was refused: "):
            await asyncio.wait_for(task, 5)
        assert (await recv_json(ws))["code"] == "malformed"  # and the extension is told


async def test_late_reply_after_a_timeout_is_dropped_quietly(server):
    async with connect(server) as ws:
        await paired(ws)
        session = await server.hub.wait_for_session(5)
        task = asyncio.ensure_future(session.list_tabs(timeout=0.2))
        request = await recv_json(ws)
        with pytest.raises(BridgeTimeout):
            await task
        await ws.send(json.dumps({"type": "tabs_result", "id": request["id"], "tabs": []}))
        await ws.send(json.dumps({"type": "heartbeat", "id": "after", "sent_at": 1.0}))
        assert (await recv_json(ws))["id"] == "after"  # no error reply came before the heartbeat's answer
