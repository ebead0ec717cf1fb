"""Record every completion to a JSONL session file; replay a session with no server at all.

The key of a request is a hash of what determines the answer: prompt name, rendered messages, answer schema
and max_tokens (not the structured-output mode, which depends on the server, not on the question).
Repeated identical requests are answered in recorded order.

Local pages move: `webchallenger run --start-url page.html` serves the file from 127.0.0.1 on a free port, so
a replay sees another port in every URL of its prompts. Such a served host:port is registered as an alias
(OriginAliases): it is written as LOCAL_PAGES_HOST in the key, in the recorded messages and in the recorded
answer, and a replayed answer gets the current host:port back. Nothing else in a request is rewritten.
"""

from __future__ import annotations

import hashlib
import json
import re
import threading
import time
from collections import defaultdict, deque
from pathlib import Path

from pydantic import BaseModel


class ReplayMiss(LookupError):
    """The replayed session never saw this request."""


class Completion(BaseModel):
    """What one HTTP completion returned (the unit that is recorded and replayed)."""

    text: str
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cached_tokens: int = 0
    finish_reason: str = ""


# A name that resolves nowhere (RFC 2606 .invalid): a recording never points at a real host by accident.
LOCAL_PAGES_HOST = "local-pages.webchallenger.invalid"


class OriginAliases:
    """host:port values of local page servers, written as LOCAL_PAGES_HOST in what is recorded and matched."""

    def __init__(self) -> None:
        self.netloc: str | None = None
        self._pattern: re.Pattern[str] | None = None

    def register(self, netloc: str) -> None:
        """`netloc` is '127.0.0.1:41234' (one served origin per run: the start page's folder)."""
        self.netloc = netloc
        # Not inside a longer host or port: 127.0.0.1:4123 must leave 127.0.0.1:41234 alone.
        self._pattern = re.compile(r"(?<![\w.-])" + re.escape(netloc) + r"(?![\w])")

    def normalize(self, text: str) -> str:
        return self._pattern.sub(LOCAL_PAGES_HOST, text) if self._pattern else text

    def normalize_messages(self, messages: list[dict]) -> list[dict]:
        if not self._pattern:
            return messages
        return [{**m, "content": self.normalize(m["content"])} if isinstance(m.get("content"), str) else m
                for m in messages]

    def expand(self, text: str) -> str:
        """A recorded answer in this run's terms: the placeholder becomes the current host:port."""
        return text.replace(LOCAL_PAGES_HOST, self.netloc) if self.netloc else text


def request_key(prompt: str, messages: list[dict], schema: dict, max_tokens: int) -> str:
    """`messages` as recorded: already normalized by OriginAliases when local pages are aliased."""
    canonical = json.dumps(
        {"prompt": prompt, "messages": messages, "schema": schema, "max_tokens": max_tokens},
        sort_keys=True,
        ensure_ascii=False,
        separators=(",", ":"),
    )
    return hashlib.sha256(canonical.encode()).hexdigest()


class Recorder:
    def __init__(self, path: str | Path):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()

    def append(self, key: str, prompt: str, version: str, messages: list[dict], params: dict, completion: Completion, mode: str, latency_s: float) -> None:
        record = {
            "key": key,
            "time": time.time(),
            "prompt": prompt,
            "prompt_version": version,
            "messages": messages,
            "params": params,
            "mode": mode,
            "latency_s": round(latency_s, 4),
            "response": completion.model_dump(),
        }
        line = json.dumps(record, ensure_ascii=False) + "\n"
        with self._lock, self.path.open("a", encoding="utf-8") as fh:
            fh.write(line)  # one write per record: readers never see half a line from us


class Replayer:
    def __init__(self, path: str | Path):
        self.path = Path(path)
        if not self.path.exists():
            raise FileNotFoundError(f"replay session file not found: {self.path}")
        self._answers: dict[str, deque[Completion]] = defaultdict(deque)
        self._last: dict[str, Completion] = {}
        self._prompts: set[str] = set()
        for n, line in enumerate(self.path.read_text(encoding="utf-8").splitlines(), 1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
                completion = Completion.model_validate(record["response"])
                key = record["key"]
            except (json.JSONDecodeError, KeyError, ValueError) as exc:
                raise ValueError(f"{self.path}:{n}: not a recorded LLM call ({exc})") from exc
            self._answers[key].append(completion)
            self._prompts.add(record.get("prompt", "?"))
        self._lock = threading.Lock()

    def answer(self, key: str, prompt: str) -> Completion:
        with self._lock:
            queue = self._answers.get(key)
            if queue:
                self._last[key] = queue.popleft()
                return self._last[key]
            if key in self._last:  # asked more often than recorded: same question, same answer
                return self._last[key]
        seen = "the prompt was recorded, but with other variables" if prompt in self._prompts else "the prompt was never recorded"
        raise ReplayMiss(f"replay {self.path}: no recorded answer for prompt {prompt!r} ({seen})")
