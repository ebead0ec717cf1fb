"""Run the companion's server: in the foreground (`webchallenger serve`) or in a background thread
(the launcher, tests, `webchallenger snapshot`), where sync code reaches it through `call()`.

The listening socket is bound here (port 0 = a free port) and handed to uvicorn, so the port is
known before the server starts and a restart can take the same port again.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import socket
import threading
from typing import Any, Coroutine, TypeVar

import uvicorn

from companion.bridge.hub import BridgeHub
from companion.bridge.server import BridgeSettings, create_app
from companion.bridge.wsprotocol import PairingFrameLimitProtocol

log = logging.getLogger(__name__)
T = TypeVar("T")


def bind_loopback(port: int) -> socket.socket:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    # Restarting on the same port must not wait out TIME_WAIT from the previous server.
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(("127.0.0.1", port))
    except OSError as exc:
        sock.close()
        raise OSError(exc.errno, f"cannot listen on 127.0.0.1:{port}: {exc.strerror} (is another companion running?)") from None
    sock.listen(64)
    sock.setblocking(False)
    return sock


def uvicorn_server(settings: BridgeSettings, hub: BridgeHub, log_level: str = "warning") -> uvicorn.Server:
    config = uvicorn.Config(
        create_app(settings, hub),
        host=settings.host,
        port=settings.port,
        ws=PairingFrameLimitProtocol,  # small frames until a connection has paired
        ws_max_size=settings.ws_max_size,
        # Loopback only: compressing multi-MB snapshots would cost the browser more time than it saves.
        ws_per_message_deflate=False,
        log_level=log_level,
        access_log=False,
        timeout_graceful_shutdown=2,
        lifespan="off",
    )
    return uvicorn.Server(config)


class CompanionServer:
    """The companion in a background thread with its own event loop.

    with CompanionServer(settings) as companion:
        session = companion.call(companion.hub.wait_for_session(30))
        snap = companion.call(session.snapshot())
    """

    def __init__(self, settings: BridgeSettings, hub: BridgeHub | None = None, log_level: str = "warning"):
        self.settings = settings
        self.hub = hub or BridgeHub()
        self.log_level = log_level
        self.loop: asyncio.AbstractEventLoop | None = None
        self._server: uvicorn.Server | None = None
        self._thread: threading.Thread | None = None

    @property
    def port(self) -> int:
        return self.settings.port

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws"

    def start(self, timeout: float = 15.0) -> "CompanionServer":
        sock = bind_loopback(self.settings.port)
        self.settings = self.settings.model_copy(update={"port": sock.getsockname()[1]})
        self._server = uvicorn_server(self.settings, self.hub, self.log_level)
        ready = threading.Event()
        failure: list[BaseException] = []

        def run() -> None:
            loop = asyncio.new_event_loop()
            asyncio.set_event_loop(loop)
            self.loop = loop
            ready_task = loop.create_task(self._signal_when_started(ready))
            try:
                loop.run_until_complete(self._server.serve(sockets=[sock]))
            except BaseException as exc:  # reported to start() if it happens before startup completes
                failure.append(exc)
                log.exception("companion server stopped with an error")
            finally:
                ready_task.cancel()
                ready.set()
                sock.close()
                loop.run_until_complete(loop.shutdown_asyncgens())
                loop.close()

        self._thread = threading.Thread(target=run, name=f"companion-{self.port}", daemon=True)
        self._thread.start()
        if not ready.wait(timeout) or failure or not self._server.started:
            raise RuntimeError(f"companion server did not start on port {self.port}: {failure[0] if failure else 'timeout'}")
        return self

    async def _signal_when_started(self, ready: threading.Event) -> None:
        while not self._server.started:
            await asyncio.sleep(0.01)
        ready.set()

    def stop(self, timeout: float = 10.0) -> None:
        """Stop serving; open sockets are closed, so connected browsers see the companion go away."""
        if self._server is not None:
            self._server.should_exit = True
        if self._thread is not None:
            self._thread.join(timeout)
            if self._thread.is_alive():
                log.warning("companion server thread did not stop within %s s", timeout)
        self._server = self._thread = None

    def restart(self, timeout: float = 15.0) -> "CompanionServer":
        """Stop and start again on the same port with the same hub (sessions reconnect by themselves)."""
        self.stop()
        return self.start(timeout)

    def call(self, coro: Coroutine[Any, Any, T], timeout: float | None = None) -> T:
        """Run a coroutine on the companion's loop from synchronous code and return its result."""
        if self.loop is None or self.loop.is_closed():
            coro.close()
            raise RuntimeError("the companion server is not running")
        future = asyncio.run_coroutine_threadsafe(coro, self.loop)
        try:
            return future.result(timeout)
        except concurrent.futures.TimeoutError:
            if future.done():
                raise  # the coroutine's own timeout (e.g. BridgeTimeout, a TimeoutError too): keep its message
            future.cancel()
            raise TimeoutError(f"call did not finish within {timeout} s") from None

    def __enter__(self) -> "CompanionServer":
        return self.start() if self._thread is None else self

    def __exit__(self, *exc_info) -> None:
        self.stop()
