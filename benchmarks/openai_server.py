"""An in-process OpenAI-compatible chat-completions server on a free 127.0.0.1 port, in a thread.

The stand-ins that answer in place of a model run behind it, so the real `openai` client and HTTP path run as
with a model: the lexical stand-in of the benchmarks (benchmarks/lexical.py) and the scripted server of the tests
(tests/support/scripted_server.py). A subclass says what to answer (`reply_to`, or all of `_answer`); this module
serves /v1/models and /v1/chat/completions, records every request, and shapes the completion or error body.

    with SomeServer(model="name") as server:      # started on enter, stopped on exit
        LLMClient(spec=server.spec)               # openai:http://127.0.0.1:PORT/v1#name
        server.requests                           # every request received: body, prompt name, start/end times
"""

from __future__ import annotations

import asyncio
import socket
import threading
import time
from typing import Any

import uvicorn
from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel

PROMPT_HEADER = "x-webchallenger-prompt"


class ChatReply(BaseModel):
    content: str = ""
    status: int = 200  # non-200: an error body is returned instead of a completion
    delay_s: float = 0.0
    prompt_tokens: int | None = None  # None: a rough count from the request
    completion_tokens: int | None = None
    cached_tokens: int | None = None  # reported as usage.prompt_tokens_details.cached_tokens (llama.cpp's prompt cache)
    finish_reason: str = "stop"


class RecordedRequest(BaseModel):
    path: str
    prompt: str
    body: dict[str, Any]
    started: float  # time.monotonic() on arrival
    finished: float = 0.0  # time.monotonic() when the answer was sent
    status: int = 200
    authorization: str = ""  # the Authorization header as received (the client's API key)

    @property
    def last_user(self) -> str:
        for message in reversed(self.body.get("messages", [])):
            if message.get("role") == "user":
                return message.get("content") or ""
        return ""


class OpenAIServer:
    error_type = "server_error"  # the `type` of an error body

    def __init__(self, *, model: str):
        self.model = model
        self.requests: list[RecordedRequest] = []
        self._lock = threading.Lock()
        self._server: uvicorn.Server | None = None
        self._thread: threading.Thread | None = None
        self.port = 0
        self.app = self._build_app()

    # ------------------------------------------------------------------ answering

    def reply_to(self, record: RecordedRequest) -> ChatReply:
        """The answer to one chat request (a subclass's job, unless it overrides _answer)."""
        raise NotImplementedError

    async def _answer(self, record: RecordedRequest):
        reply = self.reply_to(record)
        if reply.delay_s:
            await asyncio.sleep(reply.delay_s)
        return self._respond(record, reply)

    def _error(self, record: RecordedRequest, status: int, message: str, error_type: str | None = None) -> JSONResponse:
        record.status = status
        return JSONResponse({"error": {"message": message, "type": error_type or self.error_type}}, status_code=status)

    def _respond(self, record: RecordedRequest, reply: ChatReply):
        """The HTTP answer for `reply`: its error body, or a chat completion with token counts."""
        if reply.status != 200:
            return self._error(record, reply.status, reply.content)
        prompt_chars = sum(len(m.get("content") or "") for m in record.body.get("messages", []))
        prompt_tokens = reply.prompt_tokens if reply.prompt_tokens is not None else max(1, prompt_chars // 4)
        completion_tokens = reply.completion_tokens if reply.completion_tokens is not None else max(1, len(reply.content) // 4)
        usage: dict[str, Any] = {"prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens,
                                 "total_tokens": prompt_tokens + completion_tokens}
        if reply.cached_tokens is not None:
            usage["prompt_tokens_details"] = {"cached_tokens": reply.cached_tokens}
        return {
            "id": f"chatcmpl-{self.model}-{len(self.requests)}",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": record.body.get("model", self.model),
            "choices": [{"index": 0, "message": {"role": "assistant", "content": reply.content}, "finish_reason": reply.finish_reason}],
            "usage": usage,
        }

    def _build_app(self) -> FastAPI:
        app = FastAPI()

        @app.get("/v1/models")
        async def models():
            return {"object": "list", "data": [{"id": self.model, "object": "model", "owned_by": "webchallenger"}]}

        @app.post("/v1/chat/completions")
        async def chat(request: Request):
            body = await request.json()
            prompt = request.headers.get(PROMPT_HEADER, "")
            record = RecordedRequest(path=request.url.path, prompt=prompt, body=body, started=time.monotonic(),
                                     authorization=request.headers.get("authorization", ""))
            with self._lock:
                self.requests.append(record)
            try:
                return await self._answer(record)
            finally:
                record.finished = time.monotonic()

        return app

    # ------------------------------------------------------------------ lifecycle

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    @property
    def spec(self) -> str:
        return f"openai:{self.base_url}#{self.model}"

    def start(self):
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(("127.0.0.1", 0))
        self.port = sock.getsockname()[1]
        config = uvicorn.Config(self.app, log_level="warning", lifespan="off", loop="asyncio")
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(target=self._server.run, kwargs={"sockets": [sock]}, daemon=True,
                                        name=f"{self.model}-llm")
        self._thread.start()
        deadline = time.monotonic() + 10
        while not self._server.started:
            if time.monotonic() > deadline or not self._thread.is_alive():
                raise RuntimeError(f"{type(self).__name__} did not start")
            time.sleep(0.01)
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._server.should_exit = True
            self._server.force_exit = True  # do not wait for a deliberately slow answer to finish
        if self._thread is not None:
            self._thread.join(timeout=5)
        self._server = self._thread = None

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()
