"""What the observation pipeline asked the scripted LLM: the requests of one kind, and prompt sizes."""

from __future__ import annotations

from companion.pagemem.tokens import count_tokens


def requests_for(server, prompt: str, since: int = 0):
    return [r for r in server.requests[since:] if r.prompt == prompt]


def prompt_size(request) -> int:
    """Our token count of a recorded request, measured the way the budget measures it."""
    return sum(count_tokens(m.get("content") or "") for m in request.body.get("messages", []))
