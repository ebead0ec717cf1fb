"""Pause and Resume between steps (the side panel's Pause button, protocol.PauseTask).

    gate = PauseGate()
    gate.pause()            # the task finishes the step under way, then waits
    await gate.wait()       # what the loop does before each step: returns at once unless paused
    gate.resume()

A step is never paused midway: an action half done (a form half filled, a menu open) would leave the page in a
state the next step did not observe. Stopping a paused task works as always (the wait is cancelled).
"""

from __future__ import annotations

import asyncio


class PauseGate:
    def __init__(self) -> None:
        self._open = asyncio.Event()
        self._open.set()

    @property
    def paused(self) -> bool:
        return not self._open.is_set()

    def pause(self) -> None:
        self._open.clear()

    def resume(self) -> None:
        self._open.set()

    async def wait(self) -> None:
        await self._open.wait()
