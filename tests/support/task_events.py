"""What a finished task said along the way: its events (companion/agent/events.py), read by the agent tests."""

from __future__ import annotations


def notes(result) -> list[str]:
    """The text of every note the task emitted (refusals, attempts that failed, checks), in order."""
    return [e.text for e in result.events if e.kind == "note"]
