"""Hostile sizes against the real server and a real websockets client: a message too deep or too large
gets a clear error, the request waiting for it fails at once (not at its timeout, not after the reconnect
wait), and the connection stays usable, or is closed with a clear reason when the frame itself is too big."""

import asyncio
import json

import websockets

from companion.bridge.limits import MAX_MESSAGE_CHARS, MAX_SNAPSHOT_ELEMENTS, WS_MAX_SIZE
from tests.support.bridge_client import (
    AT_ONCE, WAIT, connect, fails_at_once, paired, recv_json, still_usable, waiting_snapshot,
)


def deep(depth: int) -> str:
    return "[" * depth + "]" * depth


def snapshot_reply(request_id: str, snapshot: str) -> str:
    return f'{{"type":"snapshot_result","id":"{request_id}","tab_id":1,"snapshot":{snapshot}}}'


async def test_a_100k_deep_reply_is_refused_clearly_and_its_request_fails_at_once(server):
    async with connect(server) as ws:
        await paired(ws)
        task, request_id = await waiting_snapshot(server, ws)
        await ws.send(snapshot_reply(request_id, deep(100_000)))
        error = await recv_json(ws)
        assert (error["type"], error["code"], error["id"]) == ("error", "too_large", request_id)
        assert "deeper than" in error["message"]
        failure = await fails_at_once(task)
        assert request_id in str(failure) and "deeper than" in str(failure)
        await still_usable(ws)


async def test_a_deep_message_without_a_readable_id_fails_every_waiting_request(server):
    async with connect(server) as ws:
        await paired(ws)
        session = await server.hub.wait_for_session(5)
        waiting = [asyncio.ensure_future(session.snapshot(timeout=WAIT)), asyncio.ensure_future(session.list_tabs(timeout=WAIT))]
        for _ in waiting:
            await recv_json(ws)
        await ws.send('{"type":"snapshot_result","snapshot":' + deep(100_000) + "}")
        assert (await recv_json(ws))["code"] == "too_large"
        for task in waiting:
            await fails_at_once(task)
        await still_usable(ws)


async def test_a_reply_over_the_size_limit_is_refused_unread_and_its_request_fails_at_once(server):
    async with connect(server) as ws:
        await paired(ws)
        task, request_id = await waiting_snapshot(server, ws)
        padding = "x" * (MAX_MESSAGE_CHARS + 1)
        await ws.send(snapshot_reply(request_id, json.dumps({"url": "http://x/", "title": padding})))
        error = await recv_json(ws, timeout=AT_ONCE)
        assert (error["code"], error["id"]) == ("too_large", request_id)
        assert f"{MAX_MESSAGE_CHARS:,}" in error["message"]
        await fails_at_once(task)
        await still_usable(ws)


async def test_a_snapshot_over_the_element_limit_is_refused_before_validation(server):
    async with connect(server) as ws:
        await paired(ws)
        task, request_id = await waiting_snapshot(server, ws)
        elements = ",".join(f'{{"id":{i},"tag":"p"}}' for i in range(1, MAX_SNAPSHOT_ELEMENTS + 2))
        snapshot = ('{"url":"http://x/","title":"t","viewport":{"width":1,"height":1},"scroll":{},'
                    f'"frames":[{{"frame":0,"url":"http://x/","elements":[{elements}]}}]}}')
        await ws.send(snapshot_reply(request_id, snapshot))
        error = await recv_json(ws, timeout=AT_ONCE)
        assert error["code"] == "too_large"
        assert f"{MAX_SNAPSHOT_ELEMENTS + 1:,} elements" in error["message"]
        await fails_at_once(task)
        await still_usable(ws)


async def test_a_frame_over_the_websocket_limit_closes_with_1009_and_fails_the_request_at_once(server):
    assert server.hub.reacquire_timeout > AT_ONCE  # a disconnect alone would make the request wait that long
    async with connect(server) as ws:
        await paired(ws)
        task, request_id = await waiting_snapshot(server, ws)
        try:
            await ws.send(snapshot_reply(request_id, json.dumps({"title": "x" * WS_MAX_SIZE})))
        except websockets.ConnectionClosed:
            pass  # the server may close while the frame is still going out
        failure = await fails_at_once(task)
        assert "1009" in str(failure) and "too large" in str(failure)
        await asyncio.wait_for(ws.wait_closed(), AT_ONCE)
        assert ws.close_code == 1009
