"""The WebSocket handshake's Host header must be one loopback host[:port]: a header that only starts or ends
like one (userinfo naming another host, a list of hosts, junk after the port) is refused like a foreign host,
with the extension's own Origin and subprotocol, so the Host check stands on its own. Real server, raw
handshake bytes (a WebSocket client library writes its own Host)."""

from __future__ import annotations

import asyncio
import base64
import os

import pytest

from companion.bridge.auth import EXTENSION_ORIGIN, SUBPROTOCOL



async def handshake_status(port: int, host_header: str) -> int:
    """The HTTP status the companion answers a WebSocket upgrade with this Host header."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    key = base64.b64encode(os.urandom(16)).decode()
    request = (f"GET /ws HTTP/1.1\r\nHost: {host_header}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
               f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Protocol: {SUBPROTOCOL}\r\n"
               f"Origin: {EXTENSION_ORIGIN}\r\n\r\n")
    writer.write(request.encode("latin-1"))
    await writer.drain()
    try:
        status_line = await asyncio.wait_for(reader.readline(), 10)
    finally:
        writer.close()
    return int(status_line.split()[1])


SMUGGLED = [
    "127.0.0.1:1@evil.example",
    "127.0.0.1:{port}, evil.example",
    "127.0.0.1:{port},evil.example",
    "evil.example@127.0.0.1:{port}",
    "127.0.0.1:{port}/evil.example",
    "127.0.0.1:{port} evil.example",
    "127.0.0.1:{port}:1",
    "127.0.0.1:99999",
    "[::1]evil.example",
    "localhost.evil.example:{port}",
    "",
]


@pytest.mark.parametrize("host", SMUGGLED)
async def test_a_host_header_that_is_not_one_loopback_authority_is_refused(server, host):  # noqa: F811
    assert await handshake_status(server.port, host.format(port=server.port)) == 403
    assert server.hub.history == []
    assert server.hub.refused[-1].reason.startswith("Host header is not")


@pytest.mark.parametrize("host", ["127.0.0.1:{port}", "localhost:{port}", "LOCALHOST", "[::1]:{port}", "127.0.0.1"])
async def test_a_plain_loopback_host_is_accepted(server, host):  # noqa: F811
    assert await handshake_status(server.port, host.format(port=server.port)) == 101
