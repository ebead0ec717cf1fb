"""A dropped connection mid-task: the same BrowserSession object waits for the extension to reconnect
(a new Hello, a new boot id) and goes on. Read-only requests lost in flight are sent again once; actions
are reported as interrupted, never replayed. A real websockets client plays the extension."""

import asyncio
import json

import pytest

from companion.bridge.errors import BridgeActionInterrupted, BridgeDisconnected
from companion.protocol import ElementRef

from tests.support.bridge_client import PAGE, connect, paired, recv_json


async def _first_session(server, ws):
    await paired(ws, "boot-1")
    return await server.hub.wait_for_session(5)


async def test_snapshot_lost_in_flight_is_sent_again_on_the_new_connection(server):
    notes = []
    server.hub.connection_listeners.append(lambda state, text: notes.append(state))
    async with connect(server) as ws:
        session = await _first_session(server, ws)
        snap = asyncio.ensure_future(session.snapshot())
        lost = await recv_json(ws)
    async with connect(server) as ws2:  # the restarted worker
        await paired(ws2, "boot-2")
        again = await recv_json(ws2)
        assert again["type"] == "snapshot" and again["id"] == lost["id"]
        await ws2.send(json.dumps({"type": "snapshot_result", "id": again["id"], "tab_id": 7, "snapshot": PAGE}))
        assert (await asyncio.wait_for(snap, 5)).title == "t"
    assert notes == ["lost", "back"]


async def test_click_lost_in_flight_is_reported_not_replayed(server):
    async with connect(server) as ws:
        session = await _first_session(server, ws)
        click = asyncio.ensure_future(session.click(ElementRef(frame=0, id=3)))
        await recv_json(ws)
    with pytest.raises(BridgeActionInterrupted, match="may or may not have happened"):
        await asyncio.wait_for(click, 5)
    async with connect(server) as ws2:
        await paired(ws2, "boot-2")
        tabs = asyncio.ensure_future(session.list_tabs())  # the same object reaches the new connection
        request = await recv_json(ws2)
        assert request["type"] == "list_tabs"  # not the click again
        await ws2.send(json.dumps({"type": "tabs_result", "id": request["id"], "tabs": [{"tab_id": 7, "url": "http://p/"}]}))
        assert [t.tab_id for t in await asyncio.wait_for(tabs, 5)] == [7]


async def test_no_reconnect_within_the_bound_is_a_clear_disconnect(server):
    server.hub.reacquire_timeout = 0.5
    async with connect(server) as ws:
        session = await _first_session(server, ws)
    with pytest.raises(BridgeDisconnected, match="did not reconnect within 0.5 s; snapshot not sent"):
        await asyncio.wait_for(session.snapshot(), 5)


async def test_act_turns_an_interrupted_action_into_a_failed_attempt():
    # The agent loop retries on ActionFailed (a failed attempt); BridgeDisconnected would end the task.
    from companion.act.basic import browser
    from companion.act.errors import ActionFailed

    async def interrupted():
        raise BridgeActionInterrupted("the browser connection was lost during action click; it may or may not have happened")

    with pytest.raises(ActionFailed, match="clicking Buy failed: the browser connection was lost"):
        await browser(None, interrupted(), "clicking Buy")


async def test_a_wait_for_a_tab_event_goes_on_across_the_reconnect(server):
    async with connect(server) as ws:
        session = await _first_session(server, ws)
        waiting = asyncio.ensure_future(session.wait_for_event(lambda e: e.event == "loaded", timeout=10))
        await asyncio.sleep(0.2)
    async with connect(server) as ws2:
        await paired(ws2, "boot-2")
        await ws2.send(json.dumps({"type": "tab_event", "id": "e1", "tab_id": 7, "event": "loaded", "url": "http://p/"}))
        event = await asyncio.wait_for(waiting, 5)
        assert (event.tab_id, event.url) == (7, "http://p/")
        assert [e.event for e in session.events()] == ["loaded"]  # the old object sees the browser's events
