"""The companion's WebSocket endpoint: a FastAPI app served by uvicorn on 127.0.0.1 only.

Handshake: refused with HTTP 403 (before accept) unless the Origin is an allowed extension
origin, the Host is loopback (defeats DNS rebinding) and the "webchallenger.v2" subprotocol is
offered. Then the pairing check (auth.py): each side proves it holds the token without sending it;
a client that does not prove itself within a few seconds is dropped and gets nothing but our proof
over its own nonce. Until then a connection is a stranger's: its frames are capped at a few KB and only a
few may be pairing at once (limits.py, wsprotocol.py); the paired connection gets the full frame limit.
Then the extension sends Hello, the companion answers HelloAck and registers a BrowserSession in the hub.
A malformed message is answered with an ErrorMessage and logged; the connection lives on.
"""

from __future__ import annotations

import asyncio
import logging
import time
import uuid
from pathlib import Path
from typing import Callable

import pydantic
import pydantic_core
from fastapi import FastAPI, WebSocket
from pydantic import BaseModel, Field, field_validator
from starlette.websockets import WebSocketDisconnect, WebSocketState

from companion.bridge.auth import (
    DEFAULT_ALLOWED_ORIGINS, PAIRING_TIMEOUT, SUBPROTOCOL, companion_proof, extension_proof, handshake_refusal, host_refusal,
    new_nonce, proof_matches,
)
from companion.gcpause import gc_paused
from companion.bridge.hub import BridgeHub
from companion.bridge.limits import (
    MAX_UNPAIRED_CONNECTIONS, PAIRING_MAX_SIZE, WS_MAX_SIZE, is_depth_error, too_costly, too_deep,
)
from companion.bridge.session import BrowserSession
from companion.bridge.wsprotocol import FRAME_LIMIT_EXTENSION
from companion.protocol import (
    PROTOCOL_VERSION, AuthChallenge, AuthProof, AuthResponse, ErrorMessage, Hello, HelloAck, Message, MESSAGE_ADAPTER,
    WireModel, dump_message,
)

log = logging.getLogger(__name__)

DEFAULT_PORT = 47611
LOOPBACK_HOST = "127.0.0.1"
_KNOWN_TYPES = {name for name in MESSAGE_ADAPTER.json_schema()["discriminator"]["mapping"]}
# Below this size a parse allocates too little for the garbage collector to matter.
_GC_PAUSE_MIN_CHARS = 64 * 1024
# Messages only the companion sends; the extension sending one is a protocol error.
_COMPANION_ONLY = {"hello_ack", "snapshot", "action", "list_tabs", "open_tab", "bench", "task_update", "confirm_request",
                   "activate_tab", "read_clipboard", "auth_response", "passive_mode", "site_policy", "site_info",
                   "companion_status", "draw_sections", "sections_shown"}
# Pairing messages belong to the start of a connection; once paired, one is a protocol error.
_PAIRING_ONLY = {"auth_challenge", "auth_proof"}
# A browser with a stale token (or another extension) dials again every few seconds for as long as it runs.
REPEAT_SUMMARY_S = 600.0


class _RepeatedRefusals:
    """A refusal is logged once in full; the same refusal again is counted, and the count logged with it once
    REPEAT_SUMMARY_S has passed, so a retrying browser does not fill the terminal (hub.refused keeps them all)."""

    def __init__(self, every_s: float = REPEAT_SUMMARY_S) -> None:
        self.every_s = every_s
        self._seen: dict[str, tuple[float, int]] = {}  # reason -> (when last logged, repeats not logged since)

    def warn(self, reason: str, text: str) -> None:
        now = time.monotonic()
        logged, repeats = self._seen.get(reason, (None, 0))
        if logged is not None and now - logged < self.every_s:
            self._seen[reason] = (logged, repeats + 1)
            return
        self._seen[reason] = (now, 0)
        if logged is None:
            log.warning("%s (if it repeats, it is counted and logged again in %g min)", text, self.every_s / 60)
        else:
            log.warning("%s (and %d more times in the last %g min)", text, repeats, (now - logged) / 60)


_refusals = _RepeatedRefusals()


class BridgeSettings(BaseModel):
    token: str = Field(repr=False)  # never in a repr, so never in a log line by accident
    host: str = LOOPBACK_HOST
    port: int = DEFAULT_PORT
    allowed_origins: tuple[str, ...] = DEFAULT_ALLOWED_ORIGINS
    ws_max_size: int = WS_MAX_SIZE
    hello_timeout: float = 10.0
    pairing_timeout: float = PAIRING_TIMEOUT
    record: Path | None = None

    @field_validator("host")
    @classmethod
    def _loopback_only(cls, host: str) -> str:
        # The companion drives the user's logged-in browser: it must never be reachable from the network.
        if host != LOOPBACK_HOST:
            raise ValueError(f"the companion listens on {LOOPBACK_HOST} only, not {host!r}")
        return host


class MessageProblem(ValueError):
    """An incoming message is not acceptable; `reply` is the ErrorMessage that says why."""

    def __init__(self, reply: ErrorMessage):
        super().__init__(reply.message)
        self.reply = reply


def classify(raw: str) -> Message:
    """Parse one incoming message; raise MessageProblem carrying the ErrorMessage to send back."""
    refusal = too_costly(raw)  # limits.py: size and element count, before anything is parsed
    if refusal is not None:
        raise MessageProblem(refusal)
    try:
        # Happy path: pydantic-core parses and validates in one pass (a big snapshot costs half as much
        # as json.loads followed by validation), with the garbage collector paused for big messages.
        if len(raw) < _GC_PAUSE_MIN_CHARS:
            return MESSAGE_ADAPTER.validate_json(raw)
        with gc_paused():
            return MESSAGE_ADAPTER.validate_json(raw)
    except pydantic.ValidationError:
        pass  # diagnose below, step by step, for a precise reply
    try:
        # pydantic-core's parser, not json.loads: it refuses deep nesting instead of raising RecursionError.
        data = pydantic_core.from_json(raw)
    except ValueError as exc:
        if is_depth_error(str(exc)):
            raise MessageProblem(too_deep(raw, str(exc))) from None
        raise MessageProblem(ErrorMessage(code="malformed", message=f"not JSON: {exc}")) from None
    if not isinstance(data, dict):
        raise MessageProblem(ErrorMessage(code="malformed", message=f"a message is a JSON object, got {type(data).__name__}"))
    msg_id = data.get("id") if isinstance(data.get("id"), str) else ""
    msg_type = data.get("type")
    if not isinstance(msg_type, str) or msg_type not in _KNOWN_TYPES:  # a list as type was a TypeError (the fuzz test)
        raise MessageProblem(ErrorMessage(id=msg_id, code="unknown_type", message=f"unknown message type {repr(msg_type)[:80]}"))
    try:
        return MESSAGE_ADAPTER.validate_python(data)
    except pydantic.ValidationError as exc:
        raise MessageProblem(ErrorMessage(id=msg_id, code="malformed", message=f"invalid {msg_type}: {_describe(exc)}")) from None


def _describe(exc: pydantic.ValidationError, limit: int = 5) -> str:
    # Never echo input values: they could be page content the log has no business holding.
    errors = exc.errors(include_input=False, include_url=False)
    parts = [f"{'.'.join(str(p) for p in e['loc']) or '(message)'}: {e['msg']}" for e in errors[:limit]]
    more = f" (+{len(errors) - limit} more)" if len(errors) > limit else ""
    return "; ".join(parts) + more


class _PairingSlots:
    """Connections accepted and not yet paired: at most `limit` at once, so strangers cannot pile up."""

    def __init__(self, limit: int = MAX_UNPAIRED_CONNECTIONS):
        self.limit = limit
        self.taken = 0

    def take(self) -> Callable[[], None] | None:
        """A slot's release (safe to call twice), or None when every slot is taken."""
        if self.taken >= self.limit:
            return None
        self.taken += 1
        released = False

        def release() -> None:
            nonlocal released
            if not released:
                released = True
                self.taken -= 1

        return release


def _frame_limit_lift(websocket: WebSocket) -> Callable[[], None] | None:
    """The function that lifts this connection's pre-pairing frame limit (wsprotocol.py), if the server has one."""
    return websocket.scope.get("extensions", {}).get(FRAME_LIMIT_EXTENSION, {}).get("lift")


class _Connection:
    """One accepted socket: serialized sends, both directions recorded."""

    def __init__(self, websocket: WebSocket, session_id: str, hub: BridgeHub):
        self.websocket = websocket
        self.session_id = session_id
        self.hub = hub
        self._send_lock = asyncio.Lock()

    async def send(self, raw: str, record_as: str | None = None, record: bool = True) -> None:
        async with self._send_lock:
            await self.websocket.send_text(raw)
        recorder = self.hub.recorder
        if recorder is not None and record:
            recorder.record("out", raw if record_as is None else record_as, self.session_id)

    async def send_message(self, message: WireModel, record: bool = True) -> None:
        await self.send(dump_message(message), record=record)

    async def receive(self, record: bool = True) -> tuple[str, float]:
        """Next text message and its perf_counter arrival time. Binary frames are decoded as UTF-8."""
        event = await self.websocket.receive()
        if event["type"] == "websocket.disconnect":
            raise WebSocketDisconnect(event.get("code", 1000), event.get("reason"))
        received = time.perf_counter()
        raw = event.get("text")
        if raw is None:
            raw = (event.get("bytes") or b"").decode("utf-8", errors="replace")
        recorder = self.hub.recorder
        if recorder is not None and record:
            recorder.record("in", raw, self.session_id)
        return raw, received


def create_app(settings: BridgeSettings, hub: BridgeHub) -> FastAPI:
    app = FastAPI(title="webchallenger companion", docs_url=None, redoc_url=None, openapi_url=None)
    slots = _PairingSlots()

    @app.get("/")
    @app.get("/health")
    async def health() -> dict:
        # Deliberately minimal: no token location, no paths, no session details.
        return {"service": "webchallenger", "status": "ok", "protocol_version": PROTOCOL_VERSION}

    @app.websocket("/ws")
    async def ws_endpoint(websocket: WebSocket) -> None:
        origin = websocket.headers.get("origin")
        reason = handshake_refusal(origin, list(websocket.scope.get("subprotocols", [])), settings.allowed_origins)
        if reason is None:
            reason = host_refusal(websocket.headers.get("host"))
        lift = _frame_limit_lift(websocket)
        if reason is None and lift is None:  # fail closed: strangers would get the paired frame limit
            reason = "this server cannot limit frames before pairing (run it through runner.uvicorn_server)"
        release = slots.take() if reason is None else None
        if reason is None and release is None:
            reason = f"{slots.limit} connections are pairing already"
        if reason is not None:
            hub.note_refusal(origin, reason)
            client = websocket.client.host if websocket.client else "?"
            _refusals.warn(f"handshake {origin!r} {reason}",
                           f"refused WebSocket handshake from {client} (origin {origin!r}): {reason}")
            await websocket.close(code=1008)  # before accept: uvicorn answers HTTP 403
            return
        try:
            await websocket.accept(subprotocol=SUBPROTOCOL)
            await _serve_connection(websocket, settings, hub, release, lift)
        finally:
            release()

    return app


async def _serve_connection(websocket: WebSocket, settings: BridgeSettings, hub: BridgeHub,
                            release_slot: Callable[[], None], lift_frame_limit: Callable[[], None]) -> None:
    session_id = uuid.uuid4().hex
    conn = _Connection(websocket, session_id, hub)
    session: BrowserSession | None = None
    paired = False
    try:
        try:
            refusal = await _await_pairing(conn, settings)
        finally:
            release_slot()
        if refusal is not None:
            hub.note_refusal(websocket.headers.get("origin"), refusal)
            _refusals.warn(f"pairing {refusal}", f"session {session_id[:8]}: pairing check failed: {refusal}")
            return
        lift_frame_limit()  # the peer holds the token: it is the extension, and may send a whole page
        paired = True
        hello = await _await_hello(conn, settings.hello_timeout)
        if hello is None:
            return
        session = BrowserSession(session_id, hello, conn.send, asyncio.get_running_loop())
        await conn.send_message(HelloAck(id=hello.id, protocol_version=PROTOCOL_VERSION, session_id=session_id))
        hub.add(session)
        while True:
            # The last message's text and models must not outlive their handling while the next one is
            # awaited and parsed: for a big page that held two snapshots at once.
            raw = message = None
            raw, received = await conn.receive()
            size = len(raw)
            cpu_start = time.thread_time()
            try:
                message = classify(raw)
            except MessageProblem as problem:
                log.warning("session %s: %s message (%d bytes): %s", session_id[:8], problem.reply.code, len(raw), problem.reply.message)
                # A refused reply fails its waiting request now instead of at its timeout (all of them when
                # it carried no readable id).
                session.fail_waiting(problem.reply.id, f"the reply was refused: {problem.reply.message}")
                await conn.send_message(problem.reply)
                continue
            if message.type in _COMPANION_ONLY or message.type in _PAIRING_ONLY or isinstance(message, Hello):
                await conn.send_message(ErrorMessage(id=message.id, code="unknown_type",
                                                     message=f"{message.type} is not a message the extension sends"))
                continue
            raw = None  # parsed (and recorded): the text is not needed any more
            reply = session.deliver(message, received, size, parse_cpu=time.thread_time() - cpu_start)
            if reply is not None:
                await conn.send_message(reply)
    except WebSocketDisconnect as exc:
        if exc.code == 1009 and not paired:
            reason = f"a frame over {PAIRING_MAX_SIZE:,} bytes before pairing (closed with 1009, message too big)"
            hub.note_refusal(websocket.headers.get("origin"), reason)
            log.warning("session %s: %s", session_id[:8], reason)
        if exc.code == 1009 and session is not None:  # the websocket layer refused a frame over WS_MAX_SIZE
            session.fail_waiting("", f"the reply was refused: a message over {settings.ws_max_size:,} bytes "
                                     "closed the connection (1009, message too big); the page is too large to read")
        _close(session, f"socket closed (code {exc.code})")
    except Exception as exc:  # keep the server up whatever one connection does
        log.exception("session %s failed", session_id[:8])
        _close(session, f"internal error: {exc}")
        if websocket.application_state == WebSocketState.CONNECTED:
            await websocket.close(code=1011)
    finally:
        _close(session, "connection ended")
        if session is not None:
            hub.remove(session)


def _close(session: BrowserSession | None, reason: str) -> None:
    if session is not None:
        session.close(reason)


def _listening_port(websocket: WebSocket, settings: BridgeSettings) -> int:
    """The port this socket was accepted on: the one the extension dialled, which both proofs cover."""
    server = websocket.scope.get("server")
    return int(server[1]) if server and server[1] else settings.port


async def _await_pairing(conn: _Connection, settings: BridgeSettings) -> str | None:
    """Run the pairing check (auth.py); None once the extension proved it holds the token, else why not.

    On failure the socket is closed (1008). A silent client gets nothing at all; a client that sent a
    challenge gets our proof over its own nonce, which proves nothing to anyone else: it covers this
    port and that nonce only.
    """
    websocket = conn.websocket

    async def refuse(reason: str, reply: ErrorMessage | None = None) -> str:
        if reply is not None:
            await conn.send_message(reply, record=False)
        await websocket.close(code=1008, reason=reason[:120])
        return reason

    async def next_message(step: str) -> Message | str:
        try:
            raw, _ = await asyncio.wait_for(conn.receive(record=False), settings.pairing_timeout)
        except asyncio.TimeoutError:
            return f"no {step} within {settings.pairing_timeout:g} s"
        try:
            return classify(raw)
        except MessageProblem as problem:
            return f"{step} expected, got an invalid message: {problem.reply.message}"

    challenge = await next_message("auth_challenge")
    if isinstance(challenge, str):
        return await refuse(challenge)
    if not isinstance(challenge, AuthChallenge):
        return await refuse(f"the first message must be auth_challenge, got {challenge.type}",
                            ErrorMessage(id=challenge.id, code="unauthorized",
                                         message="pair first: the first message must be auth_challenge"))
    port = _listening_port(websocket, settings)
    server_nonce = new_nonce()
    await conn.send_message(AuthResponse(id=challenge.id, server_nonce=server_nonce,
                                         proof=companion_proof(settings.token, port, challenge.client_nonce, server_nonce)),
                            record=False)  # a recording starts at hello: the pairing says nothing about pages
    try:
        answer = await next_message("auth_proof")
    except WebSocketDisconnect:
        # The extension checks our proof first: closing here means it holds another token.
        return "the extension rejected our pairing proof and left (its token is not this companion's: pair it again)"
    if isinstance(answer, str):
        return await refuse(answer)
    if not isinstance(answer, AuthProof) or answer.id != challenge.id:
        return await refuse(f"auth_proof expected, got {answer.type}",
                            ErrorMessage(id=answer.id, code="unauthorized", message="auth_proof expected"))
    if not proof_matches(answer.proof, extension_proof(settings.token, port, challenge.client_nonce, server_nonce)):
        return await refuse("wrong pairing proof", ErrorMessage(id=answer.id, code="unauthorized",
                                                                 message="the pairing proof did not check"))
    return None


async def _await_hello(conn: _Connection, timeout: float) -> Hello | None:
    """The first message must be a Hello with our protocol version; anything else ends the connection."""
    try:
        raw, _ = await asyncio.wait_for(conn.receive(), timeout)
    except asyncio.TimeoutError:
        await conn.send_message(ErrorMessage(code="timeout", message=f"no hello within {timeout:g} s"))
        await conn.websocket.close(code=1008)
        return None
    try:
        message = classify(raw)
    except MessageProblem as problem:
        message, error = None, problem.reply
    if not isinstance(message, Hello):
        if message is not None:
            error = ErrorMessage(id=message.id, code="malformed", message=f"the first message must be hello, got {message.type}")
        log.warning("connection refused after handshake: %s", error.message)
        await conn.send_message(error)
        await conn.websocket.close(code=1008)
        return None
    if message.protocol_version != PROTOCOL_VERSION:
        await conn.send_message(ErrorMessage(id=message.id, code="unsupported_version",
                                             message=f"companion speaks protocol {PROTOCOL_VERSION}, extension {message.protocol_version}"))
        await conn.websocket.close(code=1008)
        return None
    return message
