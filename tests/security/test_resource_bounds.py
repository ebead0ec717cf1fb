"""What a stranger on the companion's port, or a message's spelling, may cost the companion.

Strangers are tested against a real `webchallenger serve` process over raw loopback sockets: its peak RSS
(the kernel's VmHWM) is the measure. Before: every connection could send a frame up to the paired limit
(64 MiB) before pairing, and the companion buffered each whole (sixteen 60 MB frames took it from 184 MB to
974 MB), with no limit on how many strangers were pairing at once; a snapshot's elements were counted by
the literal text `"tag":`, so `"tag" :` passed any number of them."""

from __future__ import annotations

import asyncio
import base64
import json
import os
import re
import select
import socket
import struct
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

from companion.bridge.auth import EXTENSION_ORIGIN, SUBPROTOCOL
from companion.bridge.limits import MAX_SNAPSHOT_ELEMENTS

from tests.support.bridge_client import connect, fails_at_once, paired, recv_json, still_usable, waiting_snapshot

ROOT = Path(__file__).resolve().parents[2]
CLIENTS = 16
FRAME_BYTES = 16 * 1024 * 1024  # sixteen of these buffered whole would be 256 MB
GROWTH_BOUND = FRAME_BYTES // 2  # less than one frame: no stranger's frame is ever held whole
CHUNK = 64 * 1024


@pytest.fixture
def serve(tmp_path):
    """A real `webchallenger serve` on a free loopback port; yields (process, port)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "WEBCHALLENGER_CONFIG_DIR": str(tmp_path / "config"),
           "WEBCHALLENGER_DATA_DIR": str(tmp_path / "data")}
    process = subprocess.Popen([sys.executable, "-m", "companion", "serve", "--port", "0", "--no-passive-learning",
                                "--no-background-summaries"], cwd=ROOT, env=env, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True)
    try:
        port = None
        deadline = time.monotonic() + 60
        while port is None and time.monotonic() < deadline:
            line = process.stdout.readline()
            assert line, "serve ended before it listened"
            match = re.search(r"ws://127\.0\.0\.1:(\d+)/ws", line)
            port = int(match.group(1)) if match else None
        assert port is not None
        threading.Thread(target=process.stdout.read, daemon=True).start()  # keep its pipe drained
        yield process, port
    finally:
        process.terminate()
        process.wait(20)


def kib(process: subprocess.Popen, field: str) -> int:
    status = Path(f"/proc/{process.pid}/status").read_text()
    return int(re.search(rf"^{field}:\s+(\d+) kB", status, re.M).group(1))


def open_handshake(port: int) -> tuple[socket.socket, int]:
    """A socket that did the WebSocket handshake as the extension would (its Origin and subprotocol), and the
    HTTP status it got (101: open, still unpaired)."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=20)
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall((f"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                  f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Protocol: {SUBPROTOCOL}\r\n"
                  f"Origin: {EXTENSION_ORIGIN}\r\n\r\n").encode())
    response = b""
    while b"\r\n\r\n" not in response:
        chunk = sock.recv(4096)
        if not chunk:
            break
        response += chunk
    return sock, int(response.split()[1]) if response else 0


def close_code(sock: socket.socket, wait: float) -> int | None:
    """The code of the close frame the companion sent within `wait` seconds, else None."""
    if not select.select([sock], [], [], wait)[0]:
        return None
    try:
        data = sock.recv(16)
    except OSError:
        return None
    if len(data) >= 4 and data[0] == 0x88:
        return struct.unpack("!H", data[2:4])[0]
    return None


@dataclass
class Outcome:
    status: int = 0
    close_code: int | None = None
    sent: int = 0


def send_big_frame_before_pairing(port: int) -> Outcome:
    """Handshake, then one masked text frame of FRAME_BYTES, streamed; stops when the companion closes."""
    sock, status = open_handshake(port)
    outcome = Outcome(status=status)
    try:
        if status != 101:
            return outcome
        # FIN + text, masked, 64-bit length, mask key 0 (so the payload goes as it is).
        sock.sendall(bytes([0x81, 0x80 | 127]) + struct.pack("!Q", FRAME_BYTES) + b"\0\0\0\0")
        chunk = b"x" * CHUNK
        sock.sendall(chunk)
        outcome.sent = CHUNK
        outcome.close_code = close_code(sock, wait=2.0)
        while outcome.close_code is None and outcome.sent < FRAME_BYTES:
            try:
                sock.sendall(chunk)
            except OSError:
                break
            outcome.sent += CHUNK
        if outcome.close_code is None:
            outcome.close_code = close_code(sock, wait=5.0)
        return outcome
    finally:
        sock.close()


def test_strangers_sending_big_frames_before_pairing_cost_the_companion_almost_nothing(serve):
    process, port = serve
    time.sleep(1.0)  # settled after start
    Path(f"/proc/{process.pid}/clear_refs").write_text("5")  # the peak (VmHWM) starts again from now
    before = kib(process, "VmHWM")
    outcomes: list[Outcome] = []
    threads = [threading.Thread(target=lambda: outcomes.append(send_big_frame_before_pairing(port)))
               for _ in range(CLIENTS)]
    started = time.monotonic()
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert len(outcomes) == CLIENTS and time.monotonic() - started < 120
    peak_growth = (kib(process, "VmHWM") - before) * 1024
    assert peak_growth < GROWTH_BOUND, f"companion RSS grew by {peak_growth / 2**20:.0f} MiB"
    # Each stranger was refused at the handshake (too many pairing at once) or closed with 1009 at its
    # frame's header, long before the frame was through.
    assert all(o.status == 403 or (o.status == 101 and o.close_code == 1009 and o.sent < FRAME_BYTES)
               for o in outcomes), outcomes
    assert any(o.close_code == 1009 for o in outcomes)
    assert process.poll() is None


def test_only_a_few_strangers_may_be_pairing_at_once_and_the_rest_are_refused(serve):
    process, port = serve
    from companion.bridge.limits import MAX_UNPAIRED_CONNECTIONS

    held = []
    try:
        for _ in range(MAX_UNPAIRED_CONNECTIONS):
            sock, status = open_handshake(port)
            held.append(sock)
            assert status == 101
        started = time.monotonic()
        extra, status = open_handshake(port)
        extra.close()
        assert status == 403 and time.monotonic() - started < 5  # refused at once, not after a wait
        held.pop().close()
        time.sleep(0.5)  # the companion sees that one go
        again, status = open_handshake(port)
        held.append(again)
        assert status == 101  # a slot that is free again can be used
    finally:
        for sock in held:
            sock.close()


def _element(i: int, spelling: str) -> str:
    return spelling.replace("N", str(i))


SPELLINGS = {
    "a space before the colon": '{"id":N,"tag" :"p"}',
    "an escaped key": '{"id":N,"t\\u0061g":"p"}',
    "spaces everywhere": '{ "id" : N , "tag" : "p" }',
    "no tag at all": '{"id":N}',
}


@pytest.mark.parametrize("spelling", list(SPELLINGS.values()), ids=list(SPELLINGS))
async def test_a_snapshot_over_the_element_limit_is_refused_however_it_is_spelled(server, spelling):  # noqa: F811
    async with connect(server) as ws:
        await paired(ws)
        task, request_id = await waiting_snapshot(server, ws)
        elements = ",".join(_element(i, spelling) for i in range(1, MAX_SNAPSHOT_ELEMENTS + 2))
        reply = ('{"type" : "snapshot_result", "id":"%s","tab_id":1,"snapshot":{"url":"http://x/","title":"t",'
                 '"viewport":{"width":1,"height":1},"scroll":{},"frames":[{"frame":0,"url":"http://x/",'
                 '"elements":[%s]}]}}' % (request_id, elements))
        await ws.send(reply)
        error = await recv_json(ws, timeout=30)
        assert error["code"] == "too_large", error
        assert f"{MAX_SNAPSHOT_ELEMENTS + 1:,} elements" in error["message"]
        await fails_at_once(task)
        await still_usable(ws)
