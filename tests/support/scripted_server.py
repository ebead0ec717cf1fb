"""A scripted OpenAI-compatible server for tests: the real openai client and HTTP path run, the answers are ours.

    with ScriptedLLMServer(script=['{"index": 1}']) as server:
        client = LLMClient(spec=server.spec)
        ...
        server.requests        # every request received: body, prompt name, start/end timestamps

Answers come from, in this order: the first matching rule (by prompt name and/or regex over the last user
message; a rule's responses are used in order, the last one repeats), else the next entry of the script.
An exhausted script answers HTTP 500 with a message saying so, so a test never hangs on a missing answer.
Options: reject_json_schema (HTTP 400 to response_format json_schema, like older llama.cpp builds),
reject_response_format (HTTP 400 to any response_format), reject_grammar (HTTP 400 to a `grammar` field), delay_s (every answer waits), garbage (every
answer is non-JSON text), stall (chosen requests sleep before anything else, like a busy server: Stall(seconds,
at=N, count=K, prompt=NAME) stalls the N-th chat request and the K-1 after it, counting only those of prompt
NAME when given; a stalled request takes no scripted answer, so a retry gets the answer it would have had).
The HTTP server underneath (request recording, completion bodies, lifecycle) is benchmarks/openai_server.py, shared
with the lexical stand-in.
"""

from __future__ import annotations

import asyncio
import re

from pydantic import BaseModel, Field, field_validator

from benchmarks.openai_server import ChatReply, OpenAIServer, RecordedRequest

# A scripted answer is the server's reply: one model, under the name the tests have always used.
ScriptedReply = ChatReply
GARBAGE = "Sure! Here is what I think: the answer is probably the second one."
__all__ = ["RecordedRequest", "Rule", "ScriptedLLMServer", "ScriptedReply", "Stall"]


class Stall(BaseModel):
    seconds: float
    at: int = Field(1, ge=1)  # the at-th chat request (of `prompt`, when given) stalls ...
    count: int = Field(1, ge=1)  # ... and so do the count - 1 after it (2: a request and its retry)
    prompt: str | None = None


class Rule(BaseModel):
    prompt: str | None = None  # the prompt name the client sends in X-WebChallenger-Prompt
    pattern: str | None = None  # regex searched in the last user message
    responses: list[ScriptedReply] = Field(default_factory=list)
    used: int = 0

    @field_validator("responses", mode="before")
    @classmethod
    def _strings_are_contents(cls, value):
        return [{"content": v} if isinstance(v, str) else v for v in value]

    def matches(self, prompt: str, last_user: str) -> bool:
        if self.prompt is not None and self.prompt != prompt:
            return False
        return self.pattern is None or re.search(self.pattern, last_user, re.S) is not None

    def next(self) -> ScriptedReply:
        reply = self.responses[min(self.used, len(self.responses) - 1)]
        self.used += 1
        return reply


def _as_reply(value) -> ScriptedReply:
    if isinstance(value, ScriptedReply):
        return value
    if isinstance(value, str):
        return ScriptedReply(content=value)
    return ScriptedReply.model_validate(value)


class ScriptedLLMServer(OpenAIServer):
    error_type = "scripted_error"

    def __init__(self, script: list | None = None, rules: list[Rule | dict] | None = None, *, model: str = "scripted-model",
                 reject_json_schema: bool = False, reject_response_format: bool = False, reject_grammar: bool = False, delay_s: float = 0.0,
                 garbage: bool = False, stall: Stall | dict | None = None):
        self.script: list[ScriptedReply] = [_as_reply(x) for x in (script or [])]
        self.rules: list[Rule] = [r if isinstance(r, Rule) else Rule.model_validate(r) for r in (rules or [])]
        self.reject_json_schema = reject_json_schema
        self.reject_response_format = reject_response_format
        self.reject_grammar = reject_grammar
        self.delay_s = delay_s
        self.garbage = garbage
        self.stall = Stall.model_validate(stall) if isinstance(stall, dict) else stall
        self.stalled: list[RecordedRequest] = []  # the requests that were made to stall
        self._stall_count = 0
        super().__init__(model=model)

    # ------------------------------------------------------------------ scripting

    def add_rule(self, prompt: str | None = None, pattern: str | None = None, responses: list | None = None) -> Rule:
        rule = Rule(prompt=prompt, pattern=pattern, responses=[_as_reply(r) for r in (responses or [])])
        with self._lock:
            self.rules.append(rule)
        return rule

    def push(self, *replies) -> None:
        with self._lock:
            self.script.extend(_as_reply(r) for r in replies)

    def max_concurrency(self) -> int:
        """The most chat requests that were in flight at the same moment."""
        events = []
        for r in self.requests:
            if r.path.endswith("chat/completions"):
                events += [(r.started, 1), (r.finished or float("inf"), -1)]
        level = peak = 0
        for _, delta in sorted(events, key=lambda e: (e[0], e[1])):
            level += delta
            peak = max(peak, level)
        return peak

    def _should_stall(self, record: RecordedRequest) -> bool:
        stall = self.stall
        if stall is None or (stall.prompt is not None and stall.prompt != record.prompt):
            return False
        with self._lock:
            self._stall_count += 1
            if not stall.at <= self._stall_count < stall.at + stall.count:
                return False
            self.stalled.append(record)
        return True

    def _next_reply(self, prompt: str, last_user: str) -> ScriptedReply:
        with self._lock:
            for rule in self.rules:
                if rule.responses and rule.matches(prompt, last_user):
                    return rule.next()
            if self.script:
                return self.script.pop(0)
        return ScriptedReply(status=500, content=f"scripted server: script exhausted (prompt {prompt!r})")

    # ------------------------------------------------------------------ answering

    async def _answer(self, record: RecordedRequest):
        fmt = (record.body.get("response_format") or {}).get("type")
        if (self.reject_json_schema and fmt == "json_schema") or (self.reject_response_format and fmt):
            return self._error(record, 400, f"response_format {fmt} is not supported", "invalid_request_error")
        if self.reject_grammar and "grammar" in record.body:
            return self._error(record, 400, "unknown field: grammar", "invalid_request_error")
        if self._should_stall(record):
            await asyncio.sleep(self.stall.seconds)
        reply = self._next_reply(record.prompt, record.last_user)
        delay = reply.delay_s or self.delay_s
        if delay:
            await asyncio.sleep(delay)
        if self.garbage and reply.status == 200:
            reply = reply.model_copy(update={"content": GARBAGE})
        return self._respond(record, reply)
