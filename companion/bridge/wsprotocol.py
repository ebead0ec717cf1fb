"""uvicorn's WebSocket protocol with a small frame limit until the connection has paired.

Before pairing a peer is a stranger: sixteen of them sending a 60 MB frame each took the companion from
184 MB to 974 MB, because every frame up to the paired limit was buffered whole. The websocket layer
(websockets' sans-I/O parser) checks each frame's length, from its header and before reading its payload,
against the connection's current limit; here that limit starts at PAIRING_MAX_SIZE, so a stranger's big
frame closes the connection (1009) with nothing of it buffered. The app lifts the limit to the server's
`ws_max_size` once the peer has proven it holds the token, through the function this protocol puts in
the connection's scope: scope["extensions"][FRAME_LIMIT_EXTENSION]["lift"]().
"""

from __future__ import annotations

from typing import Any

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

from companion.bridge.limits import PAIRING_MAX_SIZE

FRAME_LIMIT_EXTENSION = "webchallenger.frame_limit"


class PairingFrameLimitProtocol(WebSocketsSansIOProtocol):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.conn.max_message_size = PAIRING_MAX_SIZE

    def handle_connect(self, event: Any) -> None:
        super().handle_connect(event)
        # The app's task is created but has not run yet: it sees the scope with the extension in it.
        scope = getattr(self, "scope", None)
        if scope is not None:
            scope["extensions"][FRAME_LIMIT_EXTENSION] = {"lift": self._lift}

    def _lift(self) -> None:
        self.conn.max_message_size = self.config.ws_max_size
