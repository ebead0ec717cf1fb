"""The task service: runs tasks started from the extension's side panel and streams their events back.

    install_task_service(hub)   # once per companion; every session then accepts start_task/stop_task/pause_task/
                                # confirm_answer and companion_status_get (the LLM the tasks use, for the panel)

One task at a time per companion (the agent drives one tab; two tasks would fight over it). A task runs on
the companion's loop as an asyncio task; stop_task cancels it at once; pause_task holds it before its next step
(agent/pause.py) until resumed. Confirmations are asked with a confirm_request and the task waits for the
matching confirm_answer (or for the task to be stopped). A start_task naming a previous task is a follow-up.
Each task's checkpoint is named by its id: a start_task with `resume` goes on from the checkpoint of that id (the
panel's Resume of a stopped or failed task), with its history and step count, on the page it had reached.
"""

from __future__ import annotations

import asyncio
import logging
import re
from dataclasses import dataclass, field
from pathlib import Path

from companion.bridge.errors import BridgeError
from companion.bridge.hub import BridgeHub
from companion.agent.checkpoint import TASK_ID, CheckpointError, TaskCheckpoint, TaskOptions, task_checkpoint
from companion.agent.pause import PauseGate
from companion.bridge.session import BrowserSession, new_id, outlining_actions
from companion.protocol import (
    CompanionStatus, CompanionStatusGet, ConfirmAnswer, ConfirmRequest, PauseTask, StartTask, StopTask, TaskEventData,
    TaskUpdate, WireModel,
)

log = logging.getLogger(__name__)

# The user watches a side-panel task: each action's target is outlined this long on the page before it is done.
TARGET_OUTLINE_MS = 400


@dataclass
class RunningTask:
    task_id: str
    session: BrowserSession
    future: asyncio.Task | None = None
    confirmations: dict[str, asyncio.Future] = field(default_factory=dict)
    seq: int = 0
    gate: PauseGate = field(default_factory=PauseGate)


class TaskService:
    def __init__(self, hub: BridgeHub, *, memory_dir: Path | None = None):
        self.hub = hub
        self.memory_dir = memory_dir
        self.current: RunningTask | None = None
        self.finished: list[str] = []  # task ids, oldest first (tests and logs)

    def install(self) -> "TaskService":
        self.hub.message_handlers.update({
            "start_task": self._on_start,
            "stop_task": self._on_stop,
            "pause_task": self._on_pause,
            "confirm_answer": self._on_confirm_answer,
            "companion_status_get": self._on_status,
        })
        return self

    # ------------------------------------------------------------------ incoming (on the session's loop)

    def _on_start(self, session: BrowserSession, message: WireModel) -> None:
        assert isinstance(message, StartTask)
        if self.current is not None and self.current.future is not None and not self.current.future.done():
            running = RunningTask(message.id, session)
            asyncio.ensure_future(self._send_event(running, TaskEventData(
                seq=0, kind="finished", status="failed", text="another task is already running: stop it first")))
            return
        running = RunningTask(message.id, session)
        self.current = running
        self.hub.task_started(running.task_id, message.tab_id)  # passive learning and background summaries wait
        running.future = asyncio.ensure_future(self._run(running, message))

    def _on_stop(self, session: BrowserSession, message: WireModel) -> None:
        assert isinstance(message, StopTask)
        running = self.current
        if running is not None and running.task_id == message.task_id and running.future and not running.future.done():
            running.future.cancel()

    def _on_pause(self, session: BrowserSession, message: WireModel) -> None:
        assert isinstance(message, PauseTask)
        running = self.current
        if running is None or running.task_id != message.task_id or running.future is None or running.future.done():
            log.info("pause_task %s: no such task runs", message.task_id)
            return
        running.gate.pause() if message.paused else running.gate.resume()

    def _on_status(self, session: BrowserSession, message: WireModel) -> CompanionStatus:
        assert isinstance(message, CompanionStatusGet)
        from companion import llm  # late, as in _run

        running = self.current is not None and self.current.future is not None and not self.current.future.done()
        try:
            client = llm.get_client()
        except Exception as exc:  # no usable configuration: the panel says so instead of a model
            return CompanionStatus(id=message.id, backend="none", model=f"not configured: {exc}", task_running=running)
        settings = client.settings
        return CompanionStatus(id=message.id, backend=settings.kind, model=client.model or settings.model or settings.spec,
                               task_running=running)

    def _on_confirm_answer(self, session: BrowserSession, message: WireModel) -> None:
        assert isinstance(message, ConfirmAnswer)
        running = self.current
        future = running.confirmations.pop(message.id, None) if running else None
        if future is not None and not future.done():
            future.set_result(message.approved)
        else:
            log.warning("confirm_answer %s matches no open confirmation", message.id)

    # ------------------------------------------------------------------ the task

    async def _run(self, running: RunningTask, start: StartTask) -> None:
        from companion.agent.loop import run_task  # imported late: the loop pulls in the whole agent

        async def confirm(description: str) -> bool:
            request_id = new_id()
            future = asyncio.get_running_loop().create_future()
            running.confirmations[request_id] = future
            await running.session.post(ConfirmRequest(id=request_id, task_id=running.task_id, description=description))
            return await future  # blocks the task until the user answers (or stops the task)

        try:
            checkpoint = self._checkpoint(start)
        except CheckpointError as exc:
            await self._send_event(running, TaskEventData(seq=0, kind="finished", status="failed",
                                                          text=f"cannot resume: {exc}"))
            self._ended(running)
            return
        # A resumed task opens the page it had reached; a new one starts where start_url says (None: as the tab is).
        start_url = (checkpoint.url or checkpoint.start_url) if start.resume else start.start_url
        try:
            with outlining_actions(TARGET_OUTLINE_MS):
                result = await run_task(checkpoint.task, session=running.session, tab=start.tab_id, start_url=start_url,
                               max_steps=checkpoint.options.max_steps, confirm=confirm if start.confirm else None,
                               on_event=lambda event: self._send_event(running, event), memory_dir=self.memory_dir,
                               pause=running.gate, previous=start.previous, checkpoint=checkpoint)
            # The one line `serve` prints per task (without -v the per-call lines are quiet: commands/serve.py).
            log.info("task %s: %s after %d step(s), %d LLM calls: %.80r", running.task_id[:8], result.status,
                     result.steps, result.usage.calls, start.task)
        except asyncio.CancelledError:
            pass  # run_task already sent the "finished: stopped" event
        except Exception:
            log.exception("task %s crashed", running.task_id)
        finally:
            self._ended(running)

    def _ended(self, running: RunningTask) -> None:
        for future in running.confirmations.values():
            future.cancel()
        self.hub.task_ended(running.task_id)
        self.finished.append(running.task_id)

    @staticmethod
    def _checkpoint(start: StartTask) -> TaskCheckpoint:
        """The task's checkpoint, named by its id: the saved one for a resume (CheckpointError: why it cannot go
        on), else a new one, so the panel's Resume finds it by the task id it already knows."""
        if start.resume:
            return task_checkpoint(start.id)
        task_id = start.id if re.fullmatch(TASK_ID, start.id) else None
        return TaskCheckpoint.begin(start.task, start.start_url, TaskOptions(max_steps=start.max_steps), task_id=task_id)

    async def _send_event(self, running: RunningTask, event: TaskEventData) -> None:
        try:
            await running.session.post(TaskUpdate(id=new_id(), task_id=running.task_id, event=event))
        except BridgeError as exc:  # the panel may be gone; the task goes on and its result is still logged
            log.info("task %s: event %s not delivered: %s", running.task_id, event.kind, exc)


def install_task_service(hub: BridgeHub, *, memory_dir: Path | None = None) -> TaskService:
    return TaskService(hub, memory_dir=memory_dir).install()
