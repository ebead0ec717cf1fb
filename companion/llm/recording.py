"""Record every completion to a JSONL session file; replay a session with no server at all.

The key of a request is a hash of what determines the answer: prompt name, rendered messages, answer schema
and max_tokens (not the structured-output mode, which depends on the server, not on the question).
Repeated identical requests are answered in recorded order.

What is written keeps no secrets (typed_secrets.redact): text the agent typed into a secret field is masked in
every line and every spelling, also in lines written before it was typed (a replay then types the mask, not the
secret), and URLs lose their secret-looking query values. The file is 0600 (paths.private_file). The
key is computed before any of this, so a replay still finds every call.

Besides the calls, a session file may hold meta lines ({"meta": {...}}): facts about the recorded run that a
replay must reproduce, e.g. the port a local start page was served on (`webchallenger run`), since every
URL in the prompts names it; and browser lines ({"browser": {...}}, companion/replay/recorded.py): the agent's
browser requests and their replies in order, which `webchallenger replay` compares (and, with the pages kept,
answers from). Both go through the same scrubbing and masking as the calls.
"""

from __future__ import annotations

import hashlib
import json
import threading
import time
from collections import defaultdict, deque
from pathlib import Path

from pydantic import BaseModel

from companion import paths, typed_secrets

from companion.llm.prompts import mask_nonce


class ReplayMiss(LookupError):
    """The replayed session never saw this request."""


class Completion(BaseModel):
    """What one HTTP completion returned (the unit that is recorded and replayed)."""

    text: str
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cached_tokens: int = 0
    finish_reason: str = ""


def request_key(prompt: str, messages: list[dict], schema: dict, max_tokens: int) -> str:
    # The page-content nonce differs per task (a replay is another task): the key must not depend on it.
    messages = [{**m, "content": mask_nonce(m["content"])} if isinstance(m.get("content"), str) else m for m in messages]
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
        paths.private_dir(self.path.parent)
        self._lock = threading.Lock()
        typed_secrets.register(self)

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
        self._write(record)

    def append_meta(self, **facts) -> None:
        """Record facts about the run (JSON values) that a replay reads back with Replayer.meta."""
        self._write({"meta": facts})

    def append_browser(self, exchange: dict) -> None:
        """Record one browser request and its reply (companion.replay.recorded.Exchange as JSON)."""
        self._write({"browser": exchange})

    def _write(self, record: dict) -> None:
        line = json.dumps(_clean(record, typed_secrets.redact), ensure_ascii=False) + "\n"
        with self._lock, paths.private_file(self.path, "a") as fh:
            fh.write(line)  # one write per record: readers never see half a line from us

    def mask_existing(self) -> None:
        """A secret was just typed: mask it in the calls already recorded (their prompts quote the task, and
        the call that chose the value answered it)."""
        def clean(line: str) -> str:
            return json.dumps(_clean(json.loads(line), typed_secrets.mask), ensure_ascii=False) if line.strip() else line

        with self._lock:
            typed_secrets.rewrite_lines(self.path, clean)


def _clean(record: dict, clean) -> dict:
    """Every string of a record through `clean`, except the request key (a hash)."""
    return {k: v if k == "key" else typed_secrets.map_strings(v, clean) for k, v in record.items()}


class Replayer:
    def __init__(self, path: str | Path):
        self.path = Path(path)
        if not self.path.exists():
            raise FileNotFoundError(f"replay session file not found: {self.path}")
        self._answers: dict[str, deque[Completion]] = defaultdict(deque)
        self._last: dict[str, Completion] = {}
        self._prompts: set[str] = set()
        self.meta: dict = {}  # the recorded run's facts (append_meta); later lines win
        self.browser: list[dict] = []  # the browser exchanges (append_browser), in order
        self.misses: list[str] = []  # "prompt: why" of every request with no recorded answer (a replay's divergence)
        for n, line in enumerate(self.path.read_text(encoding="utf-8").splitlines(), 1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
                if isinstance(record, dict) and isinstance(record.get("meta"), dict):
                    self.meta.update(record["meta"])
                    continue
                if isinstance(record, dict) and isinstance(record.get("browser"), dict):
                    self.browser.append(record["browser"])
                    continue
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
        self.misses.append(f"{prompt}: {seen}")
        raise ReplayMiss(f"replay {self.path}: no recorded answer for prompt {prompt!r} ({seen})")
