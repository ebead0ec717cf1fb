"""Passive learning on the bridge: route page_visited / user_clicked to memory/passive.py, answer the side
panel's site_policy_get / site_policy_set, and tell every connected extension whether to report at all.

    passive = install_passive_learning(hub, PassiveLearner(...), enabled=True)   # `webchallenger serve`

Off unless installed with enabled=True: the test harness's companion does not learn while other tests browse.
The extension reports only tabs no task drives; the companion checks again (hub.tab_busy: a running task's tab,
or a tab it sent a request to within a minute) and drops what comes from such a tab. Learning runs on one
worker thread, in arrival order, so the connection's loop never waits for a memory write; a backlog beyond
MAX_BACKLOG events drops new ones (the user browsing faster than memory can follow loses pages, never time).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import threading
from typing import Callable

from companion.bridge.hub import BridgeHub
from companion.bridge.session import BrowserSession, new_id
from companion.memory.passive import Learned, PassiveLearner, site_policy
from companion.memory.learning_consent import set_learning_consent
from companion.memory.storage import MemoryBusyError, MemoryFileError
from companion.protocol import (
    PageVisited, PassiveMode, SitePolicy, SitePolicyGet, SitePolicySet, UserClicked, WireModel,
)

log = logging.getLogger(__name__)

MAX_BACKLOG = 16
HANDLED = ("page_visited", "user_clicked", "site_policy_get", "site_policy_set")


class PassiveLearning:
    def __init__(self, hub: BridgeHub, learner: PassiveLearner, *, enabled: bool = True, settle_ms: int = 1500,
                 min_interval_ms: int = 5000) -> None:
        self.hub = hub
        self.learner = learner
        self.enabled = enabled
        self.settle_ms = settle_ms
        self.min_interval_ms = min_interval_ms
        self._worker = concurrent.futures.ThreadPoolExecutor(max_workers=1, thread_name_prefix="passive-learning")
        self._backlog = 0
        self._lock = threading.Lock()
        self.dropped: list[str] = []  # why events were dropped before learning (busy tab, off, backlog), latest last
        self.listeners: list[Callable[[Learned], None]] = []  # told of every outcome, on the worker thread

    # ------------------------------------------------------------------ setup

    def install(self) -> "PassiveLearning":
        self.hub.message_handlers.update({
            "page_visited": self._on_event,
            "user_clicked": self._on_event,
            "site_policy_get": self._on_policy_get,
            "site_policy_set": self._on_policy_set,
        })
        self.hub.session_listeners.append(self._tell)
        for session in self.hub.sessions:
            self._tell(session)
        return self

    def uninstall(self) -> None:
        """Stop learning: the extensions are told to stop reporting, the handlers go, queued events finish."""
        self.enabled = False
        for session in self.hub.sessions:
            self._tell(session)
        for name in HANDLED:
            self.hub.message_handlers.pop(name, None)
        if self._tell in self.hub.session_listeners:
            self.hub.session_listeners.remove(self._tell)
        self._worker.shutdown(wait=True)
        self.learner.close()

    def set_enabled(self, enabled: bool) -> None:
        self.enabled = enabled
        for session in self.hub.sessions:
            self._tell(session)

    def mode(self) -> PassiveMode:
        return PassiveMode(id=new_id(), enabled=self.enabled, settle_ms=self.settle_ms, min_interval_ms=self.min_interval_ms)

    def _tell(self, session: BrowserSession) -> None:
        """Send the passive mode to one session, from its own loop or from any other thread."""
        coro = session.post(self.mode())
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if running is session.loop:
            task = asyncio.ensure_future(coro)
            task.add_done_callback(_log_failure)
        elif not session.loop.is_closed():
            asyncio.run_coroutine_threadsafe(coro, session.loop).add_done_callback(_log_failure)
        else:
            coro.close()

    # ------------------------------------------------------------------ events (on the session's loop)

    def _on_event(self, session: BrowserSession, message: WireModel) -> None:
        assert isinstance(message, (PageVisited, UserClicked))
        if not self.enabled:
            return self._drop(f"{message.type}: passive learning is off")
        if self.hub.tab_busy(message.tab_id):
            self.learner.forget_tab(message.tab_id)
            return self._drop(f"{message.type}: a task drives tab {message.tab_id}")
        with self._lock:
            if self._backlog >= MAX_BACKLOG:
                return self._drop(f"{message.type}: {self._backlog} events still waiting")
            self._backlog += 1
        self._worker.submit(self._learn, message)

    def _learn(self, message: PageVisited | UserClicked) -> None:
        try:
            if isinstance(message, PageVisited):
                result = self.learner.page_visited(message)
            else:
                result = self.learner.user_clicked(message)
        except (MemoryFileError, MemoryBusyError, OSError) as exc:
            log.warning("passive learning: %s", exc)
            result = Learned("dropped", f"memory error: {exc}")
        except Exception as exc:  # a bug here must not stop learning from the next page
            log.exception("passive learning failed on %s", message.type)
            result = Learned("dropped", f"internal error: {exc}")
        finally:
            with self._lock:
                self._backlog -= 1
        for listener in list(self.listeners):
            try:
                listener(result)
            except Exception:
                log.exception("passive learning listener failed")

    def _drop(self, why: str) -> None:
        log.debug("passive learning: dropped %s", why)
        self.dropped = (self.dropped + [why])[-200:]

    def drain(self, timeout: float = 30.0) -> None:
        """Wait until every event received so far was learned (tests, shutdown)."""
        self._worker.submit(lambda: None).result(timeout)

    # ------------------------------------------------------------------ the side panel's switch

    def _on_policy_get(self, session: BrowserSession, message: WireModel) -> SitePolicy:
        assert isinstance(message, SitePolicyGet)
        site, policy = site_policy(message.url, self.learner.policy_dir)
        paused, left = self.hub.tab_quiet(message.tab_id) if message.tab_id is not None else ("", 0.0)
        return SitePolicy(id=message.id, site=site, policy=policy, passive=self.enabled, paused=paused,
                          resumes_in_s=round(left, 1))

    def _on_policy_set(self, session: BrowserSession, message: WireModel) -> SitePolicy:
        assert isinstance(message, SitePolicySet)
        site, _ = site_policy(message.url, self.learner.policy_dir)
        if site:
            set_learning_consent(site, message.policy, self.learner.policy_dir)
            log.info("learning policy of %s: %s", site, message.policy)
        site, policy = site_policy(message.url, self.learner.policy_dir)
        return SitePolicy(id=message.id, site=site, policy=policy, passive=self.enabled)


def _log_failure(future) -> None:
    if not future.cancelled() and future.exception() is not None:
        log.info("passive mode not delivered: %s", future.exception())


def install_passive_learning(hub: BridgeHub, learner: PassiveLearner, **kwargs) -> PassiveLearning:
    return PassiveLearning(hub, learner, **kwargs).install()


__all__ = ["PassiveLearning", "install_passive_learning"]
