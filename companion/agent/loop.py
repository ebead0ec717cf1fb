"""run_task: the agent's step loop (paper §2.5, App. A.4).

Each step: refresh the PageMem, observe (PageObserver), gather candidates (companion.act), let the LLM pick
one numbered candidate with a reason, execute it. Around that:
  - retry rule: a candidate that fails at runtime (ActionFailed) is removed and the LLM re-prompted,
    at most MAX_ATTEMPTS failures per step (it keeps its number, shown as tried, so no other number moves);
    failed attempts never reach the history; a submit refused because fields the task names are unset
    (act/named_fields.py) is told with what is left and counts as no attempt;
  - continuation: after an action that stays on the same URL (no modal), refresh, describe the change in
    words, append it to the observation and choose again from fresh candidates, until the URL changes,
    a modal opens, end task is chosen or MAX_STEP_ACTIONS actions ran in the step;
  - end task: one verification call per task; "not complete" removes end task for this step only; a later
    end-task choice ends the task without another LLM check; a final-answer call produces the answer.
    Before either, a rule check (grounding.py) on every end-task choice refuses an observation stating a
    number no visited page showed (small models invent prices), a task asking for an action none of the
    actions could have done, and an answer saying "not provided", or stating a number no page showed, while
    the site was not searched (finish.py);
  - view all: the observer shows every section in full for the rest of the page; observe again;
  - each step's observation loses the sentences stating numbers no visited page showed (grounding.py);
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
from typing import Awaitable, Callable, Literal
from urllib.parse import urldefrag

from pydantic import BaseModel, Field

from companion import llm
from companion.act import ActionFailed, AgentContext, Candidate, execute, gather_candidates
from companion.act.errors import Declined, NoOp, NotYet
from companion.act.filter_guard import element_name
from companion.act.sites import WEB_SCHEMES, SitePolicy, parse_url
from companion.agent.bookmarks import choose_bookmarks
from companion.agent.change import describe_change, page_lines
from companion.agent.checkpoint import TaskCheckpoint, TaskOptions
from companion.agent.decide import CHANGED_NOTHING, DECLINED, TRIED, select_action
from companion.agent.events import EventStream, Subscriber, usage_of
from companion.agent.finish import (declined_end, final_answer, hollow_answer, invented_answer, missing_action,
                                    moves_on, unset_at_end, verify_end_task)
from companion.agent.history import History, StepRecord, format_earlier
from companion.agent.grounding import SeenText
from companion.agent.loopguard import LoopGuard, page_state, page_text
from companion.agent.pause import PauseGate
from companion.agent.site_memory import SiteMemory
from companion.bridge.errors import BridgeActionInterrupted, BridgeError
from companion.bridge.session import BrowserSession
from companion.llm.client import LLMError
from companion.llm.fallback import NoDecision
from companion.llm.fit import check_declared
from companion.memory.store import WebsiteMemStore
from companion.observe import PageObserver
from companion.protocol import PreviousTask, TaskEventData, TaskUsage

log = logging.getLogger(__name__)

DEFAULT_MAX_STEPS = 30
MAX_ATTEMPTS = 3  # failed executions per step (the retry rule)
MAX_STEP_ACTIONS = 5  # actions per step, continuation included
MAX_NO_DECISIONS = 2  # steps that ended with no valid decision from the model before the task stops
# A final answer with no valid reply from the model (finish.final_answer's stand-in): said in the result.
UNVERIFIED = ("the model gave no valid final answer (asked twice); the answer is the latest observation's text for "
              "the task, not verified")
NOTHING_GROUNDED = "(The page summary was left out: it stated values that appear on no page visited.)"

Status = Literal["done", "stopped", "failed", "out_of_steps", "looping"]
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


class _Ended(Exception):
    """Internal: the task ends now with this status (raised from deep inside a step)."""

    def __init__(self, status: Status, explanation: str = "", answer: str = "", llm_error: bool = False,
                 unverified: bool = False):
        super().__init__(explanation)
        self.status, self.explanation, self.answer, self.llm_error = status, explanation, answer, llm_error
        self.unverified = unverified


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
            await agent.finish(_Ended("stopped", "stopped by the user"))
            raise
        if stopper:
            stopper.cancel()
        if not inner.done():
            await _cancel(inner)
            return await agent.finish(_Ended("stopped", "stopped by the user"))
        return await agent.finish(inner.result())


async def _cancel(task: asyncio.Task) -> None:
    """Cancel `task` until it has ended. Before Python 3.12, asyncio.wait_for (the LLM call's and the bridge's)
    swallows a cancellation that arrives as its awaited call completes: Stop pressed as an LLM reply lands was
    lost, and the task went on acting."""
    while not task.done():
        task.cancel()
        await asyncio.wait({task}, timeout=0.2)
    await asyncio.gather(task, return_exceptions=True)


class _Agent:
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
        self.verified = checkpoint.verified  # at most one verification per task
        for record in self.history.steps:
            self.seen.add(record.url)
            self.seen.add(record.summary)
        self.ctx: AgentContext | None = None
        self.pending_notes: list[str] = []  # refused ends not in the history yet (the next recorded step carries them)
        self.already_so: list[str] = []  # no-op actions refused (act.errors.NoOp): what they asked for was there
        self.end_warnings: set[tuple[str, ...]] = set()  # end-task refusals for fields left unset (finish.unset_at_end)
        self.declined_here: set[tuple[str, str]] = set()  # (page, candidate label) the user declined: not offered again
        self.declined_pending: str | None = None  # the last declined, until an action that moves on runs (finish.py)
        self.pause: PauseGate | None = None
        self.previous: PreviousTask | None = None
        self.no_decisions = 0  # steps ended without a valid decision (NoDecision)
        self.fallbacks_told = 0  # the tally's fallback notes already said in a step's notes

    # ------------------------------------------------------------------ lifecycle

    async def run(self, start_url: str | None) -> _Ended:
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
            raise _Ended("out_of_steps", f"the step budget of {self.max_steps} steps was used up before the task was done")
        except _Ended as ended:
            if ended.status in ("looping", "out_of_steps") and self.history.steps:
                ended.answer = await self._found_so_far()
            return ended
        except (LLMError, BridgeError, ActionFailed) as exc:
            ended = _Ended("failed", f"{type(exc).__name__}: {exc}", llm_error=isinstance(exc, LLMError))
            if self.history.steps and not isinstance(exc, LLMError):  # the LLM still answers: say what was found
                ended.answer = await self._found_so_far()
            return ended
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # a bug must end the task with a message, not hang the UI
            log.exception("task failed")
            return _Ended("failed", f"internal error: {type(exc).__name__}: {exc}")
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

    async def _check_answer(self, answer: str) -> None:
        check = self.seen.check(answer)
        if check.derived:  # a total or a count: the user sees how it was computed
            await self.events.emit("note", step=self.step, text="The answer's computed values: "
                                   + "; ".join(self.seen.explain(d) for d in check.derived))
        unseen = check.unseen
        if unseen:  # invented, or computed in a way the rule cannot follow: the user should know
            await self.events.emit("note", step=self.step, text=f"The answer states {', '.join(unseen)}, "
                                                                "which no visited page showed.")

    def _note_soon(self, text: str) -> None:
        """Emit a note from a synchronous callback (the bridge hub, the site memory)."""
        note = asyncio.get_running_loop().create_task(self.events.emit("note", step=self.step or None, text=text))
        self._notes.add(note)
        note.add_done_callback(self._notes.discard)

    async def finish(self, ended: _Ended) -> TaskResult:
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

    async def _save_checkpoint(self, ended: _Ended | None = None) -> Path | None:
        """The task's state now: after a step, or how it ended (a failure never stops at a failed save)."""
        cp = self.checkpoint
        # A step that failed midway counts once its actions are in the history: they happened.
        last = self.history.steps[-1].step if self.history.steps else 0
        cp.step = max(self.steps_done, last)
        cp.history = list(self.history.steps)
        cp.verified = self.verified
        cp.url = await self._current_url() or cp.url
        if ended is not None:
            cp.status, cp.explanation, cp.answer = ended.status, ended.explanation, ended.answer
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
                raise _Ended("failed", f"cannot start on {start_url!r}: a task starts on an http(s) page")
            result = await self._navigate(start.href)
            if not result.ok:
                raise _Ended("failed", f"could not open {start_url}: {result.error}")
        files_dir = self.files_dir or Path(tempfile.mkdtemp(prefix="webchallenger-task-"))
        ctx = AgentContext(session=self.session, task=self.task, files_dir=files_dir, tab=self.tab,
                           history_text=self.history.render, confirm=self._confirm,
                           allowed_domains=list(self.allowed_domains))
        # Every prompt of this task marks page text with this task's nonce (this asyncio task's context only).
        llm.use_task_nonce(ctx.nonce)
        await ctx.refresh()
        # The task's sites: the page it starts on and those its text names; elsewhere is asked (act/sites.py).
        # A resumed task keeps its original start site (the page it resumes on is added just below).
        ctx.sites = SitePolicy(start_url=self.checkpoint.start_url or start_url or ctx.url, task=self.task,
                               allowed_domains=list(self.allowed_domains), can_ask=self.user_confirm is not _approve_everything)
        ctx.sites.add_start(ctx.url)  # where the start URL landed (a redirect) is the start site too
        self.store = self.sites.attach(ctx)
        ctx.bookmarks = await choose_bookmarks(self.task, self.store)
        if ctx.bookmarks:
            await self.events.emit("note", text="Bookmarks for this task: " + ", ".join(b.title or b.url for b in ctx.bookmarks))
        self.observer = PageObserver(self.store)
        self.ctx = ctx
        self._pending_update = None  # the first step observes the page as refreshed above
        return ctx

    async def _confirm(self, description: str) -> bool:
        await self.events.emit("confirm", step=self.step, text=description)
        approved = await self.user_confirm(description)
        await self.events.emit("note", step=self.step, text=("Approved: " if approved else "Declined: ") + description)
        return approved

    # ------------------------------------------------------------------ one step

    async def _run_step(self, ctx: AgentContext) -> None:
        try:
            update = await ctx.refresh() if self.step > 1 else None
        except ActionFailed as exc:  # e.g. the last action led to a browser error page
            await self._recover(ctx, exc)
            return
        await self.events.emit("step", step=self.step, url=ctx.url, page=ctx.pagemem.title, text=f"Step {self.step}")
        self.store = self.sites.attach(ctx, self.observer)  # the page may belong to another site
        page = ctx.pagemem  # remembered at the end of the step, with what the step did to it
        obs = await self.observer.observe(self.task, self.history.render(), ctx.pagemem, update)
        self.seen.add_page(ctx.pagemem)
        self.seen.add_relevant(*obs.extractions.values())  # their numbers may be the operands of a total
        obs.summary = await self._grounded(obs.summary)
        await self.events.emit("observation", step=self.step, url=obs.url, page=obs.page_title, text=obs.summary)
        # The history keeps the step's observation (a page shown whole: its start), not the continuation notes.
        step_summary = obs.history_summary if obs.whole and obs.history_summary else obs.summary
        whole, afters = obs.whole, []  # a page shown whole is shown again after each in-page action
        small = obs.small  # a small page's changes are listed by rule (observe/whole.py)
        observation = obs.summary
        ctx.observation = observation
        actions: list[str] = []
        reasons: list[str] = []
        failed: set[str] = set()
        end_task_removed = False
        attempts = executed = 0
        not_yet = ""  # why the submit just chosen was refused (act/named_fields.py), for the next choice only
        candidates = await gather_candidates(ctx, obs, exclude=failed)
        arrived = False
        try:
            while True:
                await self._tell_fallbacks()
                state, text = page_state(ctx.pagemem), page_text(ctx.pagemem)
                if not arrived:  # the page this step started on (loopguard.py: returns to it)
                    self.guard.arrive(state, text, self.step)
                    arrived = True
                self.guard.at(ctx.pagemem.url)
                await self._learn_noop(state, text)
                noops = self.guard.changed_nothing(state)
                unavailable: dict[int, str] = {}  # kept numbers, not choosable
                for i, c in enumerate(candidates):
                    if (urldefrag(ctx.url)[0], c.label) in self.declined_here:
                        unavailable[i] = DECLINED
                    elif c.key in failed or (end_task_removed and c.kind == "end_task"):
                        unavailable[i] = TRIED
                    elif c.label in noops:
                        unavailable[i] = CHANGED_NOTHING
                if len(unavailable) == len(candidates):
                    await self.events.emit("note", step=self.step, text="No action is left to try on this page.")
                    return
                decision = await select_action(self.task, self.history.render_for_actor(), observation + not_yet,
                                               [c.label for c in candidates], self.guard.nudge(state, text),
                                               unavailable=unavailable)
                chosen = candidates[decision.index]
                if chosen.kind == "end_task":
                    declined = declined_end(self.task, self.declined_pending)
                    if declined:  # the user said no to what the task needed: say so, never "done"
                        raise _Ended("stopped", declined)
                    # The rule check runs on every end-task choice (it is not the one LLM verification of the
                    # paper): an observation stating a number no page showed is an invention, not an answer.
                    invented = self.seen.ungrounded_numbers(observation)
                    if invented:
                        why = f"the value(s) {', '.join(invented)} appear on no page visited so far"
                        end_task_removed = True
                        await self.events.emit("note", step=self.step, reason=decision.reason, text=f"Not done yet: {why}")
                        observation += f" (Not verified: {why}.)"  # so the next choice looks for the value
                        continue
                    missing = missing_action(self.task, self.history.actions() + actions + self.already_so)  # finish.py
                    if missing:
                        end_task_removed = True
                        observation = await self._refuse_end(missing, decision.reason, observation)
                        continue
                    # Refused once per set of unset fields: the task may name a label for another reason.
                    left = unset_at_end(self.task, ctx.pagemem, self.history.actions() + actions, ctx.typed_secrets)
                    if left and left not in self.end_warnings:
                        self.end_warnings.add(left)
                        end_task_removed = True
                        why = f"the task names what is unset on this page ({'; '.join(left)}): set that first"
                        observation = await self._refuse_end(why, decision.reason, observation)
                        continue
                    if not self.verified:
                        self.verified = True
                        verdict = await verify_end_task(self.task, self._history_with(obs, step_summary, reasons, actions,
                                                                                      notes=False),
                                                        observation, self.history.actions() + actions,
                                                        self.seen.where_seen(observation), ctx.parts.listed())
                        if not verdict.complete:
                            end_task_removed = True
                            await self.events.emit("note", step=self.step, reason=decision.reason,
                                                   text=f"Not done yet: {verdict.reason}")
                            continue
                    final = await final_answer(self.task, self._history_with(obs, step_summary, reasons, actions), observation)
                    answer = final.text
                    done_so_far = self.history.actions() + actions
                    hollow = (hollow_answer(answer, self.task, ctx.pagemem, done_so_far, ctx.visited_urls)
                              or invented_answer(self.seen.check(answer).unseen, self.task, ctx.pagemem, done_so_far,
                                                 ctx.visited_urls))
                    if hollow:  # "not provided", or an unseen price, while the site was not searched (finish.py)
                        end_task_removed = True
                        observation = await self._refuse_end(hollow, decision.reason, observation)
                        continue
                    self._record(obs, step_summary, reasons, actions)
                    if final.stood_in:
                        await self.events.emit("note", step=self.step, text=f"Answer not verified: {UNVERIFIED}.")
                    await self._check_answer(answer)
                    raise _Ended("done", UNVERIFIED if final.stood_in else "", answer=answer, unverified=final.stood_in)
                if chosen.kind == "view_all":
                    self.observer.view_all()
                    ctx.view_all_active = True
                    await self.events.emit("note", step=self.step, reason=decision.reason, text="Viewing every section of the page in full.")
                    obs = await self.observer.observe(self.task, self.history.render(), ctx.pagemem, None)
                    observation, whole, small = obs.summary, obs.whole, obs.small
                    ctx.observation = observation
                    candidates = await gather_candidates(ctx, obs, exclude=failed)
                    continue
                before = page_lines(ctx.pagemem)
                try:
                    outcome = await execute(ctx, chosen, decision.reason)
                except ActionFailed as exc:
                    actions += exc.done  # parts of a compound action that did happen
                    failed.add(chosen.key)
                    if isinstance(exc, NoOp):  # the state it asks for is there already: say so to the next choice
                        self.already_so.append(exc.would_be)
                        observation += f" (Already so: {exc}.)"
                    elif isinstance(exc, NotYet):  # a submit before the fields the task names: say what is left,
                        not_yet = f" ({chosen.label} {exc}.)"  # until the next action (then it may be stale)
                    elif isinstance(exc, Declined):  # not offered again here, and the task's end must say so
                        self.declined_here.add((urldefrag(ctx.url)[0], chosen.label))
                        self.declined_pending = exc.what
                    attempts += not isinstance(exc, NotYet)  # refused once per button and unset set in a task: bounded
                    await self.events.emit("note", step=self.step, text=f"Attempt failed ({chosen.label}): {exc}")
                    if attempts >= MAX_ATTEMPTS:
                        await self.events.emit("note", step=self.step, text=f"{MAX_ATTEMPTS} attempts failed in this step.")
                        return
                    continue
                executed += 1
                not_yet = ""
                if outcome.url_changed and chosen.kind == "element":  # evidence a part it names is done (task_parts.py)
                    ctx.parts.tick([element_name(chosen.label)])
                actions += outcome.actions
                if moves_on(outcome.actions, outcome.url_changed):
                    self.declined_pending = None
                reasons.append(decision.reason)
                await self.events.emit("action", step=self.step, reason=decision.reason, actions=outcome.actions,
                                       text="; ".join(outcome.actions) or chosen.label)
                self.guard.record(state, chosen.label, text)
                if self.guard.should_stop(state, chosen.label):
                    self._record(obs, step_summary, reasons, actions)
                    raise _Ended("looping", self.guard.explanation(state, chosen.label))
                if outcome.url_changed or outcome.modal_opened or executed >= MAX_STEP_ACTIONS:
                    return
                # Continuation: same page, fresh look, choose again.
                update = await ctx.refresh()
                self.seen.add_page(ctx.pagemem)
                if ctx.page_changed or ctx.pagemem.modal() is not None:
                    return
                done = "; ".join(outcome.actions) or chosen.label
                again = whole and self.observer.shows_whole(ctx.pagemem)
                # On a small page the changed lines themselves say it, exactly, for no call: the 1.5B model's
                # sentence adds nothing a few listed lines do not (and has said "no visible change" of a ticked box).
                listed = again or (small and self.observer.is_small(ctx.pagemem))
                change = await describe_change(done, before, page_lines(ctx.pagemem), update, by_rule=listed)
                await self.events.emit("note", step=self.step, text=f"Page change: {change}")
                afters.append(f"After \"{done}\": {change}")
                if again:
                    # Observed again, for no call while it stays small: the actor reads the page as it is now (a
                    # summary written before the action kept saying "the text field is empty" once it was filled).
                    now = await self.observer.observe(self.task, self.history.render(), ctx.pagemem, update)
                    observation = f"{await self._grounded(now.summary)}\n{' '.join(afters)}"
                    obs_now = now.model_copy(update={"summary": observation})
                else:  # a large page, or one that grew past the bound: the change is said next to the observation
                    observation = f"{observation} {afters[-1]}"
                    # What the action added (a popover, new results) is offered, though this step observed the page before.
                    obs_now = obs.model_copy(update={"summary": observation,
                                                     "added": self.observer.added_since_entry(ctx.pagemem)})
                ctx.observation = observation
                # What was refused was refused for the page as it was: after an action it may be offered again.
                failed, end_task_removed = set(), False
                candidates = await gather_candidates(ctx, obs_now, exclude=failed)
        except NoDecision as exc:
            if exc.done:  # a workflow's actions before the decision that failed (a form's fills) did happen
                actions += exc.done
                reasons.append(decision.reason)
                await self.events.emit("action", step=self.step, reason=decision.reason, actions=exc.done,
                                       text="; ".join(exc.done))
                self.pending_notes.append(f"Step {self.step} ended after these actions: the model gave no valid "
                                          "answer to what came next.")
            else:
                self.pending_notes.append(f"Step {self.step} ended with no action: the model gave no valid answer.")
            self._record(obs, step_summary, reasons, actions, no_op=True)  # the reason is in the history
            await self._no_decision(exc)
        finally:
            await self._tell_fallbacks()
            if not (self.history.steps and self.history.steps[-1].step == self.step):
                self._record(obs, step_summary, reasons, actions)
            self.sites.remember(page)

    async def _tell_fallbacks(self) -> None:
        """Say in the step's notes each call a stand-in answered since the last time (llm/fallback.py)."""
        notes = self.tally.fallbacks[self.fallbacks_told:] if self.tally is not None else []
        self.fallbacks_told += len(notes)
        for note in notes:
            await self.events.emit("note", step=self.step, text=f"Fallback: {note}")

    async def _no_decision(self, problem: NoDecision) -> None:
        """The step ended as a no-op (recorded with its reason); the MAX_NO_DECISIONS-th such step ends the task
        (run() stops it with a checkpoint, as for a stalled call)."""
        self.no_decisions += 1
        why = f"no valid answer from the model ({problem})"
        await self.events.emit("note", step=self.step, text=f"Step {self.step} ends with no action: {why}")
        if self.no_decisions >= MAX_NO_DECISIONS:
            raise NoDecision(f"{self.no_decisions} steps ended with no valid answer from the model; the last: {problem}")

    async def _learn_noop(self, state: str, text: str) -> None:
        """The page after the last action: unchanged, that action is a known no-op here (loopguard.py), said once."""
        before = set(self.guard.changed_nothing(state))
        self.guard.look(state, text)
        for action in self.guard.changed_nothing(state) - before:
            await self.events.emit("note", step=self.step, text=f"{action} changed nothing on the page: it is not "
                                                                 "offered again while the page stays as it is.")

    async def _grounded(self, summary: str) -> str:
        """The observation without sentences stating numbers no visited page showed nor supports by a
        computation; a computed number keeps its computation in the observation, so in the history (grounding.py)."""
        grounded = self.seen.grounded(summary)
        if grounded.derived:
            await self.events.emit("note", step=self.step, text="Computed from values seen: "
                                   + "; ".join(self.seen.explain(d) for d in grounded.derived))
        if grounded.dropped:
            await self.events.emit("note", step=self.step, text="Left out of the observation, its values are on no page "
                                                                 "visited: " + " ".join(grounded.dropped))
        self.seen.add_relevant(grounded.kept)
        if not grounded.dropped and not grounded.derived:
            return summary
        return grounded.kept or NOTHING_GROUNDED

    async def _navigate(self, url: str):
        """Open `url` in the task's tab. Opening a URL twice is harmless, so one interrupted by a connection
        drop is sent once more (clicks and typing never are: see BridgeActionInterrupted)."""
        try:
            return await self.session.navigate(url, tab=self.tab)
        except BridgeActionInterrupted:
            return await self.session.navigate(url, tab=self.tab)

    async def _recover(self, ctx: AgentContext, problem: ActionFailed) -> None:
        """The page cannot be read (an error page, a crashed tab): go back and say so in the history, so the
        LLM sees what happened instead of the task failing. A second failure in a row ends the task."""
        tabs = await self.session.list_tabs()
        url = next((t.url for t in tabs if t.tab_id == self.tab), "") or ctx.url
        await self.events.emit("step", step=self.step, url=url, page="(unreadable page)", text=f"Step {self.step}")
        await self.events.emit("note", step=self.step, text=f"The page could not be read ({problem}); going back.")
        previous = ctx.url  # the PageMem still holds the last page that could be read
        # Navigate rather than history.back(): nothing can run inside a browser error page.
        result = await self._navigate(previous)
        if not result.ok:
            raise problem
        await ctx.refresh()
        self.history.add(StepRecord(step=self.step, page_name="Unreadable page", url=url,
                                    summary=f"The page could not be loaded or read: {problem}",
                                    reason="Leave a page that cannot be used.", actions=[f"Went back to {previous}"]))

    async def _refuse_end(self, why: str, reason: str, observation: str) -> str:
        """End task refused by a rule (finish.py): told now (the observation) and later (the history's next step)."""
        await self.events.emit("note", step=self.step, reason=reason, text=f"Not done yet: {why}")
        if not any(why in n for n in self.pending_notes):
            self.pending_notes.append(f"End task refused at step {self.step}: {why}.")
        return f"{observation} (Not done yet: {why}.)"

    def _record(self, obs, summary: str, reasons: list[str], actions: list[str], no_op: bool = False) -> None:
        """no_op: recorded though no action ran (a step with no valid decision: its note says why)."""
        if not (actions or no_op) or (self.history.steps and self.history.steps[-1].step == self.step):
            return  # nothing happened in the browser: failed attempts are never logged
        self.history.add(StepRecord(step=self.step, page_name=obs.page_title or obs.url, url=obs.url, summary=summary,
                                    reason=" Then: ".join(r for r in reasons if r) or "-", actions=list(actions),
                                    notes=list(self.pending_notes)))
        self.pending_notes = []

    def _history_with(self, obs, summary: str, reasons: list[str], actions: list[str], notes: bool = True) -> str:
        """The history including this step's actions so far (what the verifier must judge)."""
        if not actions:
            return self.history.render(notes=notes)
        probe = History(self.history.earlier)
        probe.steps = list(self.history.steps)
        probe.add(StepRecord(step=self.step, page_name=obs.page_title or obs.url, url=obs.url, summary=summary,
                             reason=" Then: ".join(r for r in reasons if r) or "-", actions=list(actions),
                             notes=list(self.pending_notes)))
        return probe.render(notes=notes)
