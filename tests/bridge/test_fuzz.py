"""Fuzzing every wire message type against the companion (hypothesis, bounded: a few hundred examples).

Messages are generated from companion/protocol.py itself, so a new message type is fuzzed without a change
here: for each type in the Message union, plausible values for its fields (by annotation, nested models
included), then mutations of them (a field dropped, an unknown field, a value of the wrong JSON kind, the
text cut short, nesting far too deep, not JSON at all). Properties:
  - classify() (the server's parser) returns a message of the sent type or refuses it with an ErrorMessage
    carrying a known code and a message; it never raises anything else;
  - a BrowserSession delivers whatever classify() accepted without raising, answering None or a wire model;
  - over a real paired connection to a real server, every reply to a fuzzed message is such an error (or the
    heartbeat a heartbeat asks for), and the connection stays open and answers the next heartbeat.
"""

from __future__ import annotations

import asyncio
import json
import threading
import time
import types
import typing
import uuid
from datetime import timedelta

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from pydantic import BaseModel

from companion.bridge.auth import load_or_create_token
from companion.bridge.hub import BridgeHub
from companion.bridge.runner import CompanionServer
from companion.bridge.server import BridgeSettings, MessageProblem, classify
from companion.bridge.session import BrowserSession
from companion.protocol import ErrorMessage, Hello, Message, WireModel, dump_message

from tests.support.bridge_client import connect, paired

MESSAGE_TYPES: list[type[WireModel]] = list(typing.get_args(typing.get_args(Message)[0]))
ERROR_CODES = set(typing.get_args(ErrorMessage.model_fields["code"].annotation))
FUZZ = settings(max_examples=300, deadline=timedelta(seconds=10), database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

# ----------------------------------------------------------------------------- strategies from the protocol

json_scalars = st.one_of(st.none(), st.booleans(), st.integers(-2**63, 2**63), st.floats(allow_nan=False),
                         st.text(max_size=20))
any_json = st.recursive(json_scalars, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                               st.dictionaries(st.text(max_size=8), inner, max_size=4)),
                        max_leaves=12)


def value_of(annotation, depth: int = 0) -> st.SearchStrategy:
    """Plausible JSON for one annotation: right kind and shape, values unconstrained (lengths, ranges,
    patterns are the validator's to check)."""
    origin = typing.get_origin(annotation)
    args = typing.get_args(annotation)
    if origin is typing.Annotated:
        return value_of(args[0], depth)
    if origin in (typing.Union, types.UnionType):
        return st.one_of([value_of(a, depth) for a in args])
    if origin is typing.Literal:
        return st.sampled_from(args)
    if annotation is type(None):
        return st.none()
    if annotation is bool:
        return st.booleans()
    if annotation is int:
        return st.integers(-2**40, 2**40)
    if annotation is float:
        return st.one_of(st.integers(-10**6, 10**6), st.floats(-1e9, 1e9, allow_nan=False))
    if annotation is str:
        return st.text(max_size=40)
    if origin is list:
        return st.lists(value_of(args[0], depth + 1), max_size=3 if depth < 3 else 0)
    if origin is dict:
        return st.dictionaries(st.text(max_size=10), value_of(args[1], depth + 1), max_size=3)
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return model_dict(annotation, depth + 1)
    return any_json


def model_dict(model: type[BaseModel], depth: int = 0) -> st.SearchStrategy[dict]:
    required, optional = {}, {}
    for name, field in model.model_fields.items():
        key = field.alias or name
        (required if field.is_required() or name == "type" else optional)[key] = value_of(field.annotation, depth)
    return st.fixed_dictionaries(required, optional=optional)


def mutated(message: dict) -> st.SearchStrategy[dict]:
    keys = sorted(message)
    ops = [st.just(message),
           st.builds(lambda k, v: {**message, k: v}, st.sampled_from(keys), any_json),  # a value of the wrong kind
           st.builds(lambda k, v: {**message, k: v}, st.text(min_size=1, max_size=12), any_json)]  # unknown field
    droppable = [k for k in keys if k != "type"]
    if droppable:
        ops.append(st.sampled_from(droppable).map(lambda k: {x: v for x, v in message.items() if x != k}))
    return st.one_of(ops)


def as_text(message: dict) -> st.SearchStrategy[str]:
    text = json.dumps(message)
    return st.one_of(
        st.just(text),
        st.integers(0, max(0, len(text) - 1)).map(lambda n: text[:n]),  # cut short
        st.integers(150, 5000).map(lambda d: f'{{"type":{json.dumps(message["type"])},"id":"deep","x":' + "[" * d + "]" * d + "}"),
        st.text(max_size=60),  # not JSON, or JSON of the wrong shape
        any_json.map(json.dumps),
    )


def message_texts() -> st.SearchStrategy[str]:
    plausible = st.sampled_from(MESSAGE_TYPES).flatmap(model_dict)
    # Half as generated (many pass validation and reach the session), half damaged.
    return st.one_of(plausible.map(json.dumps), plausible.flatmap(mutated).flatmap(as_text))


def assert_clear_refusal(problem: MessageProblem) -> ErrorMessage:
    reply = problem.reply
    assert isinstance(reply, ErrorMessage)
    assert reply.code in ERROR_CODES and reply.message.strip()
    dump_message(reply)  # and it can be sent
    return reply


# ----------------------------------------------------------------------------- the parser and the session


def test_every_message_type_appears_in_the_fuzz():
    assert len(MESSAGE_TYPES) >= 20 and Hello in MESSAGE_TYPES and ErrorMessage in MESSAGE_TYPES


@FUZZ
@given(text=message_texts())
def test_classify_accepts_or_refuses_clearly_and_a_session_delivers_what_it_accepts(text):
    try:
        message = classify(text)
    except MessageProblem as problem:
        event(f"refused: {assert_clear_refusal(problem).code}")
        return
    event("accepted")
    assert message.type == json.loads(text)["type"]
    session = BrowserSession("fuzz", Hello(id="h", protocol_version=1, extension_version="t", boot_id="b"),
                             _discard, asyncio.new_event_loop())
    try:
        reply = session.deliver(message, time.perf_counter(), len(text))
    finally:
        session.loop.close()
    assert reply is None or isinstance(reply, WireModel)
    if isinstance(reply, ErrorMessage):
        assert reply.code in ERROR_CODES and reply.message.strip()


async def _discard(raw: str, recorded: str) -> None:
    pass


# ----------------------------------------------------------------------------- a real server, a real socket


class _Client:
    """A paired websockets client on its own event loop thread, driven synchronously by hypothesis."""

    def __init__(self, server: CompanionServer):
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True, name="fuzz-client")
        self.thread.start()
        self._connect = connect(server)
        self.ws = self.run(self._connect.__aenter__())
        ack = self.run(paired(self.ws))
        assert ack["type"] == "hello_ack", ack

    def run(self, coro, timeout: float = 30):
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout)

    async def exchange(self, text: str) -> list[dict]:
        """Send `text`, then a heartbeat; every reply that came before the heartbeat's answer."""
        sentinel = f"sentinel-{uuid.uuid4().hex}"
        await self.ws.send(text)
        await self.ws.send(json.dumps({"type": "heartbeat", "id": sentinel, "sent_at": 1.0}))
        replies = []
        while True:
            reply = json.loads(await asyncio.wait_for(self.ws.recv(), 15))
            if reply.get("id") == sentinel and reply["type"] == "heartbeat":
                return replies
            replies.append(reply)

    def close(self) -> None:
        try:
            self.run(self._connect.__aexit__(None, None, None))
        finally:
            self.loop.call_soon_threadsafe(self.loop.stop)
            self.thread.join(5)


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    token = load_or_create_token(tmp_path_factory.mktemp("fuzz-config"))
    with CompanionServer(BridgeSettings(token=token, port=0), BridgeHub(reacquire_timeout=0)) as server:
        fuzz_client = _Client(server)
        yield fuzz_client
        alive = [s for s in server.hub.sessions if not s.closed]
        fuzz_client.close()
        assert len(alive) == 1 and len(server.hub.history) == 1  # one connection survived it all


@settings(FUZZ, max_examples=120, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                                        HealthCheck.function_scoped_fixture])
@given(text=message_texts())
def test_over_a_real_connection_every_fuzzed_message_gets_a_clear_error_or_nothing(client, text):
    replies = client.run(client.exchange(text))
    for reply in replies:
        if reply["type"] == "heartbeat":  # a fuzzed heartbeat that happened to be valid is answered in kind
            continue
        assert reply["type"] == "error", reply
        assert reply["code"] in ERROR_CODES and reply["message"].strip(), reply
