"""A companion nobody uses ends itself: one the browser's native host started (companion/native/host.py) exits once
no browser has been connected for a while, so closing the browser also ends the process it started.

    await exit_when_unattended(hub, 600, stop)   # calls stop() once, after 600 s with no browser and no task

A running task counts as use (its browser may be reconnecting). stop() asks the server to shut down as SIGTERM
does, so the same cleanup runs: memory files closed, the announcement withdrawn.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Callable

from companion.bridge.hub import BridgeHub

log = logging.getLogger(__name__)


async def exit_when_unattended(hub: BridgeHub, period_s: float, stop: Callable[[], None]) -> None:
    alone_since = time.monotonic()
    while True:
        await asyncio.sleep(min(1.0, period_s / 4))
        if hub.latest is not None or hub.running_tasks:
            alone_since = time.monotonic()
            continue
        if time.monotonic() - alone_since >= period_s:
            log.info("no browser has been connected for %g s: the companion exits (the browser's native host starts "
                     "it again when needed)", period_s)
            stop()
            return


__all__ = ["exit_when_unattended"]
