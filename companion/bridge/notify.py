"""Wait for a condition that another thread or event loop may make true.

The companion's server runs on its own event loop (often in a background thread) while
callers may await from another loop (pytest-asyncio) or block from plain threads. A plain
asyncio.Condition is bound to one loop; this notifier wakes waiters on whatever loop they
wait on, so `await hub.wait_for_session()` works from anywhere.
"""

from __future__ import annotations

import asyncio
import threading
import time
from typing import Callable, TypeVar

T = TypeVar("T")


def _wake(fut: asyncio.Future) -> None:
    if not fut.done():
        fut.set_result(None)


class ChangeNotifier:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._waiters: list[tuple[asyncio.AbstractEventLoop, asyncio.Future]] = []

    def notify(self) -> None:
        """Wake every waiter so it re-checks its predicate. Safe from any thread."""
        with self._lock:
            waiters, self._waiters = self._waiters, []
        for loop, fut in waiters:
            if not loop.is_closed():
                loop.call_soon_threadsafe(_wake, fut)

    async def wait_for(self, predicate: Callable[[], T | None], timeout: float, what: str) -> T:
        """Return the first truthy predicate() value; raise TimeoutError naming `what` after `timeout` s."""
        loop = asyncio.get_running_loop()
        deadline = time.monotonic() + timeout
        while True:
            fut = loop.create_future()
            # Register before checking, so a notify between check and await is not lost.
            with self._lock:
                self._waiters.append((loop, fut))
            result = predicate()
            if result:
                with self._lock:
                    if (loop, fut) in self._waiters:
                        self._waiters.remove((loop, fut))
                return result
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError(f"timed out after {timeout:g} s waiting for {what}")
            try:
                await asyncio.wait_for(fut, remaining)
            except asyncio.TimeoutError:
                pass  # loop once more: the predicate decides, then the deadline does
