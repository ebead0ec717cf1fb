"""run_task: the agent's step loop (paper §2.5, App. A.4).

Each step: refresh the PageMem, observe (PageObserver), gather candidates (companion.act), let the LLM pick
one numbered candidate with a reason, execute it; step.py runs those as phases, finish.py holds the end-task
gate, and this module the task around them (start, steps, checkpoints, the result). Around that:
  - retry rule: a candidate that fails at runtime (ActionFailed) is removed and the LLM re-prompted,
    at most MAX_ATTEMPTS failures per step (it keeps its number, shown as tried, so no other number moves);
    failed attempts never reach the history; a submit refused because fields the task names are unset
    (act/named_fields.py) is told with what is left and counts as no attempt;
  - continuation: after an action that stays on the same URL (no modal), refresh, describe the change in
    words, append it to the observation and choose again from fresh candidates, until the URL changes,
    a modal opens, end task is chosen or MAX_STEP_ACTIONS actions ran in the step;
  - end task: one verification call per task; "not complete" removes end task for this step only; a later
    end-task choice ends the task without another LLM check; a final-answer call produces the answer.
    Before either, a rule check (seen_text.py) on every end-task choice refuses an observation stating a
    number no visited page showed (small models invent prices), a task asking for an action none of the
    actions could have done, and an answer saying "not provided", or stating a number no page showed, while
    the site was not searched (finish.py);
  - view all: the observer shows every section in full for the rest of the page; observe again;
  - each step's observation loses the sentences stating numbers no visited page showed (seen_text.py);
  - a declined action (act.errors.Declined) is shown as declined and not offered again on its page for the rest
    of the task (confirmation.py refuses what does the same, unasked); a task that asks to act and ends with
    nothing done since that could do it another way ends "stopped", saying what was declined (finish.py);
  - known no-ops: an action that left the page state and text as they were is not offered again on that
    state (it keeps its number, shown as done); loop detection (loopguard.py), the step budget,
    cancellation (asyncio or a `stop` event) and a confirm callback the workflows call before irreversible
    actions; a task stopped by a loop or the budget still reports what its history supports, unverified;
  - every visited page is saved in its own site's WebsiteMem (site_memory.py); a dropped browser
    connection is waited for and told to the user (the bridge hub's connection notes);
  - a checkpoint (checkpoint.py) is saved after every step and at the end; a failed task names it, and a
    task given one with steps done resumes with its history on the page it had reached;
  - Pause (pause.py) holds the task between steps, never inside one; a follow-up task (the side panel's) gets the
    previous task and its result ahead of its history;
  - one bad model answer never costs the task (llm/fallback.py): a call of the observation (or a change
    description, a candidate filtering) with no valid answer gets a deterministic stand-in, said in the step's
    notes; a decision (the action, a form review, an option, a value to type, a file, the end-task verification)
    is asked once more without the history, and with no valid answer again the step ends as a no-op with the
    reason (and any fills a form did before it) in the history; the MAX_NO_DECISIONS-th such step stops the task
    with a checkpoint, as a stalled call does. A final answer with none is the observation's text, unverified.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import tempfile
from pathlib import Path
from typing import Awaitable, Callable

from pydantic import BaseModel, Field

from companion import llm
from companion.act import ActionFailed, AgentContext
from companion.act.sites import WEB_SCHEMES, SitePolicy, parse_url
from companion.agent.bookmarks import choose_bookmarks
from companion.agent.checkpoint import TaskCheckpoint, TaskOptions
from companion.agent.events import EventStream, Subscriber, usage_of
from companion.agent.finish import EndGate, final_answer
from companion.agent.history import format_earlier
from companion.agent.seen_text import SeenText
from companion.agent.loopguard import LoopGuard
from companion.agent.pause import PauseGate
from companion.agent.site_memory import SiteMemory
from companion.agent.step import Ended, Status, StepPhases
from companion.bridge.errors import BridgeError
from companion.bridge.session import BrowserSession
from companion.llm.client import LLMError
from companion.llm.fit import check_declared
from companion.memory.store import WebsiteMemStore
from companion.observe import PageObserver
from companion.protocol import PreviousTask, TaskEventData, TaskUsage

log = logging.getLogger(__name__)

DEFAULT_MAX_STEPS = 30
ConfirmFn = Callable[[str], Awaitable[bool]]


class TaskResult(BaseModel):
    task: str
    status: Status
    answer: str = ""  # "done": the answer; "looping"/"out_of_steps": what the history supports, unverified
    explanation: str = ""  # why it ended, for anything but "done"
    steps: int = 0
    history: str = ""
    actions: list[str] = Field(default_factory=list)  # every basic action string, in order
    usage: TaskUsage = Field(default_factory=TaskUsage)
    events: list[TaskEventData] = Field(default_factory=list)
    checkpoint: str = ""  # the task's checkpoint file: `webchallenger run --resume FILE` goes on from its last step
    llm_error: bool = False  # it failed on an LLM error (no valid answer, a stalled or lost server): the benches count it
    unverified: bool = False  # "done", but the answer is the observation's text: the model gave no valid final answer


async def _approve_everything(description: str) -> bool:
    return True


@functools.cache
def replies_fit() -> None:
    """At start-up (the first task of the process): every prompt's answer fits its max_tokens (llm/fit.py); the
    modules imported above declared theirs. A ReplyBudgetError names each prompt that does not."""
    check_declared()


async def run_task(task: str, *, session: BrowserSession, tab: int | None = None, start_url: str | None = None,
                   max_steps: int = DEFAULT_MAX_STEPS, confirm: ConfirmFn | None = None,
                   on_event: Subscriber | list[Subscriber] | None = None, stop: asyncio.Event | None = None,
                   memory_dir: Path | None = None, files_dir: Path | None = None,
                   allowed_domains: list[str] | None = None, checkpoint: TaskCheckpoint | None = None,
                   pause: PauseGate | None = None, previous: PreviousTask | None = None) -> TaskResult:
    """Run one task to its end in `tab` (the active tab when None) and return how it ended.

    confirm: asked before irreversible actions (None: never ask, everything approved).
    on_event: subscriber(s) of the task events, called in order as they happen.
    stop: setting it ends the task at once (status "stopped"); cancelling the caller does the same.
    memory_dir: where WebsiteMem lives (default: the data dir); files_dir: staged and created files.
    checkpoint: saved after every step and at the end (checkpoint.py; a new one in the data dir when None);
    one with steps done is resumed: its history and step count go on, from the page `start_url` opens.
    pause: paused, the task waits before its next step until resumed (pause.py).
    previous: a follow-up: the task before it and its result, shown to the LLM ahead of the history.
    """
    replies_fit()
    subscribers = on_event if isinstance(on_event, list) else [on_event] if on_event else []
    events = EventStream(subscribers)
    checkpoint = checkpoint or TaskCheckpoint.begin(task, start_url, TaskOptions(max_steps=max_steps,
                                                                                 allowed_domains=allowed_domains or []))
    agent = _Agent(task, session, tab, events, max_steps, confirm or _approve_everything, memory_dir,
                   files_dir, allowed_domains or [], checkpoint)
    agent.pause, agent.previous = pause, previous
    if previous is not None:
        # In the history, not the task: the result came from web pages, and the task is the prompts' only trusted
        # text. Its values were read in the earlier task, so the grounding check counts them as seen.
        agent.history.earlier = format_earlier(previous.task, previous.answer)
        agent.seen.add(previous.answer)
    with llm.track_usage() as tally:
        agent.tally = tally
        inner = asyncio.ensure_future(agent.run(start_url))
        waiters = {inner}
        stopper = asyncio.ensure_future(stop.wait()) if stop is not None else None
        if stopper:
            waiters.add(stopper)
        try:
            await asyncio.wait(waiters, return_when=asyncio.FIRST_COMPLETED)
        except asyncio.CancelledError:
            await _cancel(inner)
            if stopper:
                stopper.cancel()
            await agent.finish(Ended("stopped", "stopped by the user"))
            raise
        if stopper:
            stopper.cancel()
        if not inner.done():
            await _cancel(inner)
            return await agent.finish(Ended("stopped", "stopped by the user"))
        return await agent.finish(inner.result())


async def _cancel(task: asyncio.Task) -> None:
    """Cancel `task` until it has ended. Before Python 3.12, asyncio.wait_for (the LLM call's and the bridge's)
    swallows a cancellation that arrives as its awaited call completes: Stop pressed as an LLM reply lands was
    lost, and the task went on acting."""
    while not task.done():
        task.cancel()
        await asyncio.wait({task}, timeout=0.2)
    await asyncio.gather(task, return_exceptions=True)


class _Agent(StepPhases):
    """One task: its lifecycle (start, steps, checkpoints, end) around the step's phases (step.py)."""

    def __init__(self, task: str, session: BrowserSession, tab: int | None, events: EventStream, max_steps: int,
                 confirm: ConfirmFn, memory_dir: Path | None, files_dir: Path | None, allowed_domains: list[str],
                 checkpoint: TaskCheckpoint):
        self.task = task
        self.session = session
        self.tab = tab
        self.events = events
        self.max_steps = max_steps
        self.user_confirm = confirm
        self.memory_dir = memory_dir
        self.files_dir = files_dir
        self.allowed_domains = allowed_domains
        self.guard = LoopGuard()
        self.step = 0
        self.tally = None
        self.store: WebsiteMemStore | None = None  # the current page's site
        self._notes: set[asyncio.Task] = set()  # notes emitted from synchronous callbacks, kept until sent
        self.sites = SiteMemory(memory_dir, warn=self._note_soon)  # one WebsiteMem per site the task visits
        self.finished: TaskResult | None = None
        self.seen = SeenText(task)  # what the agent has read: the grounding check's reference
        # A resumed task goes on where its checkpoint left it: the history, the step count, the verification
        # spent; the history's observations were grounded when written, so what they state counts as read.
        self.checkpoint = checkpoint
        self.history = checkpoint.restore_history()
        self.steps_done = checkpoint.step
        # A resume that ends before a step of its own began leaves the checkpoint as it was (its status, why it
        # ended): the file holds everything done, and "failed: could not open the page" would hide the first end.
        self.resuming = checkpoint.path is not None and checkpoint.path.exists()
        self.gate = EndGate(task, self.seen, verified=checkpoint.verified)  # at most one verification per task
        for record in self.history.steps:
            self.seen.add(record.url)
            self.seen.add(record.summary)
        self.ctx: AgentContext | None = None
        self.pending_notes: list[str] = []  # refused ends not in the history yet (the next recorded step carries them)
        self.already_so: list[str] = []  # no-op actions refused (act.errors.NoOp): what they asked for was there
        self.declined_here: set[tuple[str, str]] = set()  # (page, candidate label) the user declined: not offered again
        self.declined_pending: str | None = None  # the last declined, until an action that moves on runs (finish.py)
        self.pause: PauseGate | None = None
        self.previous: PreviousTask | None = None
        self.no_decisions = 0  # steps ended without a valid decision (NoDecision)
        self.fallbacks_told = 0  # the tally's fallback notes already said in a step's notes

    # ------------------------------------------------------------------ lifecycle

    async def run(self, start_url: str | None) -> Ended:
        """The whole task; returns how it ended (never raises for an ordinary failure)."""
        hub = getattr(self.session, "hub", None)

        def on_connection(state: str, text: str) -> None:
            self._note_soon(text)  # "browser connection lost, waiting..." / "back": why the task paused

        if hub is not None:
            hub.connection_listeners.append(on_connection)
        try:
            resumed = f" (resumed after step {self.steps_done})" if self.steps_done else ""
            await self.events.emit("started", text=f"Task: {self.task}{resumed}", url=start_url)
            if self.previous is not None:
                await self.events.emit("note", text=f"Follow-up to: {self.previous.task} (its result: "
                                                    f"{self.previous.answer or 'none'})")
            ctx = await self._start(start_url)
            for self.step in range(self.steps_done + 1, self.max_steps + 1):
                await self._hold()
                await self._run_step(ctx)
                self.steps_done = self.step
                await self._save_checkpoint()
            raise Ended("out_of_steps", f"the step budget of {self.max_steps} steps was used up before the task was done")
        except Ended as ended:
            if ended.status in ("looping", "out_of_steps") and self.history.steps:
                ended.answer = await self._found_so_far()
            return ended
        except (LLMError, BridgeError, ActionFailed) as exc:
            ended = Ended("failed", f"{type(exc).__name__}: {exc}", llm_error=isinstance(exc, LLMError))
            if self.history.steps and not isinstance(exc, LLMError):  # the LLM still answers: say what was found
                ended.answer = await self._found_so_far()
            return ended
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # a bug must end the task with a message, not hang the UI
            log.exception("task failed")
            return Ended("failed", f"internal error: {type(exc).__name__}: {exc}")
        finally:
            if hub is not None:
                hub.connection_listeners.remove(on_connection)
            self.sites.close()

    async def _hold(self) -> None:
        """Between steps: wait while the user paused the task (never inside a step: pause.py)."""
        if self.pause is None or not self.pause.paused:
            return
        await self.events.emit("paused", step=self.step, text=f"Paused before step {self.step}")
        await self.pause.wait()
        await self.events.emit("resumed", step=self.step, text=f"Resumed: step {self.step}")

    async def _found_so_far(self) -> str:
        """For a task stopped in a loop or by the step budget: the answer the history supports, so the user
        keeps what was found (in the bench, a 1.5B model read the price, then repeated its search 5 times).
        The status still says the task did not finish; nothing here is verified."""
        try:
            answer = (await final_answer(self.task, self.history.render(), self.history.steps[-1].summary)).text
        except LLMError as exc:
            log.warning("no answer from the history of an unfinished task: %s", exc)
            return ""
        if answer:
            await self.events.emit("note", step=self.step, text=f"Found before stopping (not verified): {answer}")
            await self._check_answer(answer)
        return answer

    def _note_soon(self, text: str) -> None:
        """Emit a note from a synchronous callback (the bridge hub, the site memory)."""
        note = asyncio.get_running_loop().create_task(self.events.emit("note", step=self.step or None, text=text))
        self._notes.add(note)
        note.add_done_callback(self._notes.discard)

    async def finish(self, ended: Ended) -> TaskResult:
        if self.finished is not None:
            return self.finished
        usage = usage_of(self.tally) if self.tally is not None else TaskUsage()
        path = await self._save_checkpoint(ended)
        if ended.status == "done":
            await self.events.emit("answer", step=self.step or None, answer=ended.answer, text=ended.answer or "(done)")
        elif ended.status == "failed":
            await self.events.emit("error", step=self.step or None, text=ended.explanation)
        if ended.status != "done" and path is not None:
            await self.events.emit("note", step=self.step or None,
                                   text=f"The task's state after step {self.checkpoint.step} is saved in {path}: "
                                        f"`webchallenger run --resume {path}` goes on from there.")
        text = ended.answer if ended.status == "done" else ended.explanation
        await self.events.emit("finished", status=ended.status, usage=usage, text=text)
        self.finished = TaskResult(task=self.task, status=ended.status, answer=ended.answer, explanation=ended.explanation,
                                   steps=self.step, history=self.history.render(), actions=self.history.actions(),
                                   usage=usage, events=list(self.events.events), checkpoint=str(path or ""),
                                   llm_error=ended.llm_error, unverified=ended.unverified)
        return self.finished

    async def _save_checkpoint(self, ended: Ended | None = None) -> Path | None:
        """The task's state now: after a step, or how it ended (a failure never stops at a failed save)."""
        cp = self.checkpoint
        if ended is not None and self.resuming and self.step == 0:  # self.step: set as a step begins (run)
            return cp.path
        # A step that failed midway counts once its actions are in the history: they happened.
        last = self.history.steps[-1].step if self.history.steps else 0
        cp.step = max(self.steps_done, last)
        cp.history = list(self.history.steps)
        cp.verified = self.gate.verified
        cp.url = await self._current_url() or cp.url
        if ended is not None:
            cp.status, cp.explanation, cp.answer = ended.status, ended.explanation, ended.answer
        else:
            cp.status, cp.explanation, cp.answer = "running", "", ""
        try:
            return cp.save()
        except OSError as exc:
            log.warning("task checkpoint not saved: %s", exc)
            return None

    async def _current_url(self) -> str:
        """The task tab's URL as the browser has it (where a resume must start), else the last one read."""
        try:
            tabs = await asyncio.wait_for(self.session.list_tabs(), 10)
            url = next((t.url for t in tabs if t.tab_id == self.tab), "")
        except (BridgeError, asyncio.TimeoutError):
            url = ""
        if not url.startswith(("http://", "https://")):  # an error page cannot be resumed on
            url = ""
        return url or (self.ctx.url if self.ctx is not None else "")

    async def _start(self, start_url: str | None) -> AgentContext:
        if self.tab is None:  # pin the tab: the user may switch tabs while the agent works
            tabs = await self.session.list_tabs()
            self.tab = next((t.tab_id for t in tabs if t.active), None)
        if start_url:
            start = parse_url(start_url)
            if start is None or start.scheme not in WEB_SCHEMES or not start.hostname:
                raise Ended("failed", f"cannot start on {start_url!r}: a task starts on an http(s) page")
            result = await self._navigate(start.href)
            if not result.ok:
                raise Ended("failed", f"could not open {start_url}: {result.error}")
        files_dir = self.files_dir or Path(tempfile.mkdtemp(prefix="webchallenger-task-"))
        ctx = AgentContext(session=self.session, task=self.task, files_dir=files_dir, tab=self.tab,
                           history_text=self.prompt_history, confirm=self._confirm,
                           allowed_domains=list(self.allowed_domains))
        # Every prompt of this task marks page text with this task's nonce (this asyncio task's context only).
        llm.use_task_nonce(ctx.nonce)
        await ctx.refresh()
        if not self.checkpoint.start_url:  # started on the tab as it was (the side panel): a resume starts there
            self.checkpoint.start_url = ctx.url
            self.checkpoint.options.start_target = self.checkpoint.options.start_target or ctx.url
        # The task's sites: the page it starts on and those its text names; elsewhere is asked (act/sites.py).
        # A resumed task keeps its original start site (the page it resumes on is added just below).
        ctx.sites = SitePolicy(start_url=self.checkpoint.start_url or start_url or ctx.url, task=self.task,
                               allowed_domains=list(self.allowed_domains), can_ask=self.user_confirm is not _approve_everything)
        ctx.sites.add_start(ctx.url)  # where the start URL landed (a redirect) is the start site too
        self.store = self.sites.attach(ctx)
        ctx.bookmarks = await choose_bookmarks(self.task, self.store)
        if ctx.bookmarks:
            await self.events.emit("note", text="Bookmarks for this task: " + ", ".join(b.title or b.url for b in ctx.bookmarks))
        # No page_summary call in a task: no step reads it (the actor reads the page task summary), so it is
        # memory's to make (exploration, the background summarizer): ~600 new prompt tokens per new page saved.
        self.observer = PageObserver(self.store, page_summary=False)
        self.ctx = ctx
        return ctx

    async def _confirm(self, description: str) -> bool:
        await self.events.emit("confirm", step=self.step, text=description)
        approved = await self.user_confirm(description)
        await self.events.emit("note", step=self.step, text=("Approved: " if approved else "Declined: ") + description)
        return approved
