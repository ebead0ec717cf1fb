"""One step of the agent loop (paper §2.5, App. A.4), as phases read top to bottom:

    observe     refresh the PageMem, observe the page (PageObserver), ground the observation;
    candidates  gather the numbered candidates (companion.act);
    choose      the LLM picks one, those tried, declined or known to change nothing shown as unavailable;
    dispatch    end task (the gate, finish.py), view all, or execute it (a failure: the retry rule);
    after       record the action, then on the same page: refresh, describe the change, candidates again.

A StepState carries what one step has seen and done; the task-long state (history, loop guard, what was
declined) is the agent's (loop.py). The rules each phase applies are listed in loop.py's docstring.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal
from urllib.parse import urldefrag, urlsplit

from companion.act import ActionFailed, AgentContext, Candidate, execute, gather_candidates
from companion.act.candidates import element_candidate
from companion.act.errors import Declined, NoOp, NotYet
from companion.act.models import Outcome
from companion.act.filter_guard import element_name
from companion.act.gestures import GESTURE_KINDS
from companion.agent.describe_change import describe_change, page_lines
from companion.agent.decide import CAME_BACK, CHANGED_NOTHING, DECLINED, TRIED, select_action
from companion.agent.finish import (
    Answer, EndFacts, EndGate, Refused, declined_end, is_question, moves_on, narrowed_as_asked,
    sorted_as_asked, split_problems,
)
from companion.agent.seen_text import SeenText
from companion.agent.events import usage_of
from companion.agent.history import History, StepRecord
from companion.agent.loopguard import LoopGuard, page_state, page_text
from companion.bridge.errors import BridgeActionInterrupted
from companion import llm
from companion.llm.fallback import NoDecision
from companion.observe.budget import Budget, fit_history
from companion.observe import PageObserver
from companion.observe.grounding import not_found_note, without_progress_claims
from companion.observe.observer import Observation
from companion.observe.task_summary import direct_summary
from companion.pagemem.model import PageMem
from companion.protocol import ElementRef

if TYPE_CHECKING:
    from companion.protocol import TaskUsage
    from companion.agent.events import EventStream
    from companion.agent.site_memory import SiteMemory
    from companion.bridge.session import BrowserSession
    from companion.memory.store import WebsiteMemStore

MAX_ATTEMPTS = 3  # failed executions per step (the retry rule)
POINTED_TWICE = 2  # refusals in a step pointing at one element (NotYet.remedy) before it is taken without a choice
HISTORY_TOKENS = Budget().history_tokens  # the history a prompt shows; older steps are left out, said so
MAX_STEP_ACTIONS = 5  # actions per step, continuation included
MAX_NO_DECISIONS = 2  # steps that ended with no valid decision from the model before the task stops
# A final answer with no valid reply from the model (finish.final_answer's stand-in): said in the result.
UNVERIFIED = ("the model gave no valid final answer (asked twice); the answer is the latest observation's text for "
              "the task, not verified")
NOTHING_DONE = "(Nothing has been done in this task yet.)"
NOTHING_GROUNDED = "(The page summary was left out: it stated values that appear on no page visited.)"

Status = Literal["done", "stopped", "failed", "out_of_steps", "looping"]


class Ended(Exception):
    """The task ends now with this status (raised from deep inside a step, caught by the agent's run())."""

    def __init__(self, status: Status, explanation: str = "", answer: str = "", llm_error: bool = False,
                 unverified: bool = False):
        super().__init__(explanation)
        self.status, self.explanation, self.answer, self.llm_error = status, explanation, answer, llm_error
        self.unverified = unverified


@dataclass
class StepState:
    """What one step has seen and done, from its observation to its last action (recorded in the history)."""

    ctx: AgentContext
    obs: Observation  # the step's observation (a view-all replaces it)
    page: PageMem  # the page the step started on: remembered at the end, with what the step did to it
    summary: str  # what the history keeps: the step's observation (a page shown whole: its start)
    seen: str  # the page as observed (a small page: as observed again after the last in-page action)
    whole: bool  # a page shown whole is shown again after each in-page action
    small: bool  # a small page's changes are listed by rule (observe/whole.py)
    candidates: list[Candidate] = field(default_factory=list)
    afters: list[str] = field(default_factory=list)  # 'After "action": change', one per in-page action
    actions: list[str] = field(default_factory=list)  # the basic actions that happened
    reasons: list[str] = field(default_factory=list)  # the model's reason for each executed choice
    failed: set[str] = field(default_factory=set)  # candidates that failed on this page (the retry rule)
    end_task_removed: bool = False  # end task refused: not offered again until the page changes
    attempts: int = 0  # failed executions (MAX_ATTEMPTS)
    executed: int = 0  # actions run (MAX_STEP_ACTIONS)
    not_yet: str = ""  # why the submit just chosen was refused (act/named_fields.py), for the next choice only
    arrived: bool = False  # the loop guard was told the page this step started on
    state: str = ""  # the page as the last choice saw it (loopguard.py's state and text)
    text: str = ""
    reason: str = ""  # the last decision's reason
    remedy: ElementRef | None = None  # the one way a refused end named (finish.Refused.remedy): taken next, no choice
    # How often a refused click (NotYet.remedy) pointed at each element in this step: pointed at twice, the model
    # has chosen past it once already, and it is taken (a model refused a dozen times for one post's "like" chose
    # every other control first, one call each, until the episode's time ran out).
    pointed: dict[tuple[int, int], int] = field(default_factory=dict)
    # What was said since `seen`: 'After "action": change', "(Already so: ...)", "(Not done yet: ...)". The actor
    # reads them after the candidates, so that a continuation's prompt repeats the one before it up to them and
    # llama.cpp takes the page and the candidates from its cache (a continuation had cost about 1,100 new tokens).
    since: list[str] = field(default_factory=list)

    @property
    def observation(self) -> str:
        """The observation and what was said since, as one text (the end check, the page's candidates)."""
        return " ".join([self.seen, *self.since]) if self.since else self.seen


class StepPhases:
    """The step's phases, mixed into the agent (loop.py), whose task-long state they read and update."""

    task: str
    step: int
    max_steps: int
    session: BrowserSession
    tab: int | None
    events: EventStream
    guard: LoopGuard
    seen: SeenText
    history: History
    gate: EndGate
    sites: SiteMemory
    store: WebsiteMemStore | None
    observer: PageObserver
    tally: object
    fallbacks_told: int
    no_decisions: int
    pending_notes: list[str]
    already_so: list[str]
    declined_here: set[tuple[str, str]]
    declined_pending: str | None

    def prompt_history(self) -> str:
        """The history every prompt of a step reads, the same text in all of them (the actor's form, without reasons,
        cut to the budget once): llama.cpp reuses a prompt prefix it has seen, and system, task and history come
        first in every task prompt. The observation's prompts read the history with reasons and cut, the actor's
        without and whole, so the prefix broke at the first reason and each call paid for the history again."""
        return fit_history(self.history.render_for_actor(), HISTORY_TOKENS)

    async def _run_step(self, ctx: AgentContext) -> None:
        st = await self._observe(ctx)
        if st is None:
            return
        try:
            in_sight = self._answer_in_sight(st)
            if in_sight:
                # The row the question names is in sight, copied by rule with its headers (or the list is narrowed
                # as a count question asks): ask the end check first. Filtering the page's candidates and choosing
                # "end" cost the held-out admin's last step three calls and ~2,700 prompt tokens (60+ s) before the
                # same check ran. Refused, the step goes on as usual, the end shown as tried.
                await self.events.emit("note", step=self.step, text=f"{in_sight}: checked first for the answer.")
                await self._end_task(st)
            elif st.remedy is None and (unsorted := self.gate.unsorted_once(st.ctx.pagemem)) is not None:
                # A superlative on a list of several pages not sorted as it asks: its sort link is the way, taken
                # before any choice. The default model, on the held-out admin's product list, toggled the price
                # sort between ascending and unsorted for six steps and never ended to be refused.
                await self.events.emit("note", step=self.step, text=f"Not answerable here yet: {unsorted[0]}.")
                st.remedy = unsorted[1]
            await self._candidates(st, st.obs)
            while (chosen := await self._choose(st)) is not None:
                if not await self._dispatch(st, chosen):
                    return
        except NoDecision as exc:
            await self._no_decision(st, exc)
        finally:
            await self._tell_fallbacks()
            self._record(st)
            self.sites.remember(st.page)

    # ------------------------------------------------------------------ observe

    async def _observe(self, ctx: AgentContext) -> StepState | None:
        """Refresh (the first step observes the page as _start refreshed it) and observe; None: the page could not
        be read, the step went back instead."""
        try:
            update = await ctx.refresh() if self.step > 1 else None
        except ActionFailed as exc:  # e.g. the last action led to a browser error page
            await self._recover(ctx, exc)
            return None
        await self.events.emit("step", step=self.step, url=ctx.url, page=ctx.pagemem.title, text=f"Step {self.step}",
                               usage=self._usage())
        self.store = self.sites.attach(ctx, self.observer)  # the page may belong to another site
        page = ctx.pagemem
        obs = await self.observer.observe(self.task, self.prompt_history(), ctx.pagemem, update, related=ctx.related_terms)
        self.seen.add_page(ctx.pagemem)
        for text in obs.by_rule:  # "Row matching the task (1 of 3): - row 2: …": our counts of what the page shows
            self.seen.add(text)
        self.seen.add_relevant(*obs.extractions.values())  # their numbers may be the operands of a total
        ctx.related_terms = list(dict.fromkeys([*ctx.related_terms, *obs.related]))
        if obs.related:
            ctx.related_found_on.add(urlsplit(obs.url).path)
        self.seen.relate(ctx.related_terms)
        obs.summary = await self._grounded(obs.summary, read=obs.whole, facts=[t for t in obs.by_rule if t.strip()])
        await self.events.emit("observation", step=self.step, url=obs.url, page=obs.page_title, text=obs.summary)
        ctx.observation = obs.summary
        # The history keeps the step's observation (a page shown whole: its start), not the continuation notes.
        summary = obs.history_summary if obs.whole and obs.history_summary else obs.summary
        return StepState(ctx=ctx, obs=obs, page=page, summary=summary, seen=obs.summary, whole=obs.whole,
                         small=obs.small)

    async def _grounded(self, summary: str, *, read: bool = False, facts: list[str] | None = None) -> str:
        """The observation without sentences stating numbers no visited page showed nor supports by a
        computation, or other values not read or not where the task's identifier is; a computed number keeps its
        computation in the observation, so in the history, and a left-out value leaves a note saying it was not
        found, so the actor looks for it instead of believing it (seen_text.py).

        `read`: the observation is the page's own text (a page shown whole), which no model wrote: nothing in it
        is a claim to check, and cut into sentences it would lose its element lines. Before the task's first action,
        a sentence saying the user already did something is left out too (grounding.claims_progress).

        `facts`: what the observation read off the page by rule (the rows the task names, with their headers). When
        no sentence of the summary holds, they are the observation: the held-out admin's order row ("Customer:
        Daniel Ricci") was lost with a summary that gave that name as the email address."""
        if read:
            self.seen.add_relevant(summary)
            return summary
        claimed: list[str] = []
        if not self.history.actions() and not self.history.earlier:  # nothing done yet: no sentence may say otherwise
            summary, claimed = without_progress_claims(summary)
            if claimed:
                await self.events.emit("note", step=self.step, text="Left out of the observation, nothing was done in "
                                                                     "this task yet: " + " ".join(claimed))
                summary = f"{summary} {NOTHING_DONE}".strip()
        grounded = self.seen.grounded(summary)
        llm.record_dropped(grounded.notes)
        if grounded.derived:
            await self.events.emit("note", step=self.step, text="Computed from values seen: "
                                   + "; ".join(self.seen.explain(d) for d in grounded.derived))
        if grounded.dropped:
            await self.events.emit("note", step=self.step, text="Left out of the observation, its values are on no page "
                                                                 "visited: " + " ".join(grounded.dropped))
        self.seen.add_relevant(grounded.kept)
        if not grounded.dropped and not grounded.derived:
            return summary
        kept = grounded.kept or direct_summary(facts or []) or NOTHING_GROUNDED
        return f"{kept} {not_found_note(grounded.notes)}".strip()

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
        await self.events.emit("step", step=self.step, url=url, page="(unreadable page)", text=f"Step {self.step}",
                               usage=self._usage())
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

    # ------------------------------------------------------------------ candidates

    async def _candidates(self, st: StepState, obs: Observation) -> None:
        """The page's candidates, those that failed on it left out (companion.act)."""
        st.candidates = await gather_candidates(st.ctx, obs, exclude=st.failed)

    # ------------------------------------------------------------------ choose

    async def _choose(self, st: StepState) -> Candidate | None:
        """The candidate the LLM picks; None: nothing is left to try on this page (the step ends)."""
        await self._tell_fallbacks()
        pagemem = st.ctx.pagemem
        st.state, st.text = page_state(pagemem), page_text(pagemem)
        if not st.arrived:  # the page this step started on (loopguard.py: returns to it)
            self.guard.arrive(st.state, st.text, self.step)
            st.arrived = True
        self.guard.at(pagemem.url)
        await self._learn_noop(st.state, st.text)
        unavailable = self._unavailable(st)
        # A rule's remedy first: it may be an element no candidate offers (the page link toward the Nth result, in a
        # section the observation left out), and the offered ones may all have been tried.
        remedy, st.remedy = st.remedy, None
        taken = self._remedy(st, remedy, unavailable) if remedy is not None else None
        if taken is not None:
            st.reason = f"A rule named {taken.label} as the way to what the task asks: taken as it said."
            await self.events.emit("note", step=self.step, text=st.reason)
            return taken
        if len(unavailable) == len(st.candidates):
            await self.events.emit("note", step=self.step, text="No action is left to try on this page.")
            return None
        decision = await select_action(self.task, self.prompt_history(), st.seen, [c.label for c in st.candidates],
                                       self.guard.nudge(st.state, st.text), unavailable=unavailable,
                                       parts=st.ctx.parts.listed(), since=" ".join(st.since) + st.not_yet)
        st.reason = decision.reason
        return st.candidates[decision.index]

    def _remedy(self, st: StepState, remedy: ElementRef, unavailable: dict[int, str]) -> Candidate | None:
        """The candidate acting on the element a refused end named: the step's own, else made for it (the filtering
        call may have left it out), unless it failed or changed nothing here."""
        for i, c in enumerate(st.candidates):
            if c.kind == "element" and c.element == remedy and c.pick is None:
                return None if i in unavailable else c
        pagemem = st.ctx.pagemem
        el, section = pagemem.element_by_ref(remedy), pagemem.section_of(remedy)
        return element_candidate(el, section.id) if el is not None and section is not None else None

    def _unavailable(self, st: StepState) -> dict[int, str]:
        """The candidates shown with their number but not choosable, and why."""
        noops, failed = self.guard.changed_nothing(st.state), self.guard.failed_here(st.state)
        cycled = self.guard.came_back(st.state, st.text)
        page = urldefrag(st.ctx.url)[0]
        unavailable: dict[int, str] = {}
        for i, c in enumerate(st.candidates):
            if (page, c.label) in self.declined_here:
                unavailable[i] = DECLINED
            elif c.key in st.failed or c.label in failed or (st.end_task_removed and c.kind == "end_task"):
                unavailable[i] = TRIED
            elif c.label in noops:
                unavailable[i] = CHANGED_NOTHING
            elif c.label in cycled and c.kind != "end_task":
                unavailable[i] = CAME_BACK
        return unavailable

    async def _learn_noop(self, state: str, text: str) -> None:
        """The page after the last action: unchanged, that action is a known no-op here (loopguard.py), said once."""
        before = set(self.guard.changed_nothing(state))
        self.guard.look(state, text)
        for action in self.guard.changed_nothing(state) - before:
            await self.events.emit("note", step=self.step, text=f"{action} changed nothing on the page: it is not "
                                                                 "offered again while the page stays as it is.")

    # ------------------------------------------------------------------ dispatch

    async def _dispatch(self, st: StepState, chosen: Candidate) -> bool:
        """Carry out the choice; False: the step ends (Ended: the task does)."""
        if chosen.kind == "end_task":
            await self._end_task(st)
            return True
        if chosen.kind == "view_all":
            await self._view_all(st)
            return True
        before = page_lines(st.ctx.pagemem)
        try:
            outcome = await execute(st.ctx, chosen, st.reason)
        except ActionFailed as exc:
            return await self._failed(st, chosen, exc)
        return await self._after(st, chosen, outcome, before)

    def _answer_in_sight(self, st: StepState) -> str | None:
        """Why this page holds the answer to the question by rule (None: no such reason)."""
        if not is_question(self.task):
            return None
        if st.obs.named_rows:
            return "The row the question names is on this page"
        if narrowed_as_asked(self.task, st.ctx.pagemem):
            return "This list is narrowed as the question asks"
        if sorted_as_asked(self.task, st.ctx.pagemem):
            return "This list is sorted as the question asks"
        if st.obs.related_rows:
            # The order's row named its customer; this is the customer's row. On the held-out admin the extraction
            # read daniel.ricci@example.com off it, and the actor searched for him three more times.
            return "A row the question's record leads to is on this page"
        return None

    async def _end_task(self, st: StepState) -> None:
        """End task: a declined action ends the task stopped; else the gate (finish.py) refuses, and the step
        goes on, or gives the answer, and the task is done."""
        declined = declined_end(self.task, self.declined_pending)
        if declined:  # the user said no to what the task needed: say so, never "done"
            raise Ended("stopped", declined)
        ctx = st.ctx
        verdict = await self.gate.decide(EndFacts(
            observation=st.observation, done=self.history.actions() + st.actions, already_so=self.already_so,
            pagemem=ctx.pagemem, typed_secrets=ctx.typed_secrets, parts=ctx.parts.listed(), visited=ctx.visited_urls,
            history=lambda notes: self._history_with(st, notes=notes), last_step=self.step >= self.max_steps,
            read=st.whole, declined=bool(self.declined_here)))
        if isinstance(verdict, Refused):
            st.end_task_removed = True
            st.remedy = verdict.remedy
            if verdict.by == "rule":
                st.since.append(await self._refuse_end(verdict.why, st.reason))
                return
            await self.events.emit("note", step=self.step, reason=st.reason, text=f"Not done yet: {verdict.why}")
            if verdict.by == "unseen":
                st.since.append(f"(Not verified: {verdict.why}.)")  # so the next choice looks for the value
            return
        await self._answer(st, verdict)

    async def _answer(self, st: StepState, answer: Answer) -> None:
        self._record(st)
        if answer.stood_in:
            await self.events.emit("note", step=self.step, text=f"Answer not verified: {UNVERIFIED}.")
        await self._check_answer(answer.text)
        raise Ended("done", UNVERIFIED if answer.stood_in else "", answer=answer.text, unverified=answer.stood_in)

    async def _check_answer(self, answer: str) -> None:
        check = self.seen.check(answer)
        if check.derived:  # a total or a count: the user sees how it was computed
            await self.events.emit("note", step=self.step, text="The answer's computed values: "
                                   + "; ".join(self.seen.explain(d) for d in check.derived))
        unseen, misplaced = split_problems(self.seen.unsupported(answer, answer=True))
        said = [f"The answer states {', '.join(unseen)}, which no visited page showed."] if unseen else []
        said += [f"The answer's {p.value} was not found with {p.anchor} on any page visited." for p in misplaced]
        if said:  # invented, or computed in a way the rule cannot follow: the user should know
            await self.events.emit("note", step=self.step, text=" ".join(said))

    async def _refuse_end(self, why: str, reason: str) -> str:
        """End task refused by a rule (finish.py): told now (what the next choice reads after the observation) and
        later (the history's next step)."""
        await self.events.emit("note", step=self.step, reason=reason, text=f"Not done yet: {why}")
        if not any(why in n for n in self.pending_notes):
            self.pending_notes.append(f"End task refused at step {self.step}: {why}.")
        return f"(Not done yet: {why}.)"

    async def _view_all(self, st: StepState) -> None:
        """The observer shows every section in full for the rest of the page: observe again."""
        ctx = st.ctx
        self.observer.view_all()
        ctx.view_all_active = True
        await self.events.emit("note", step=self.step, reason=st.reason, text="Viewing every section of the page in full.")
        st.obs = await self.observer.observe(self.task, self.prompt_history(), ctx.pagemem, None, related=ctx.related_terms)
        st.seen, st.since, st.whole, st.small = st.obs.summary, [], st.obs.whole, st.obs.small
        ctx.observation = st.observation
        await self._candidates(st, st.obs)

    async def _failed(self, st: StepState, chosen: Candidate, exc: ActionFailed) -> bool:
        """The retry rule: the candidate is left out on this page and the LLM chooses again, at most MAX_ATTEMPTS
        times; False: the step ends."""
        st.actions += exc.done  # parts of a compound action that did happen
        st.failed.add(chosen.key)
        if isinstance(exc, NoOp):  # the state it asks for is there already: say so to the next choice
            self.already_so.append(exc.would_be)
            st.since.append(f"(Already so: {exc}.)")
        elif isinstance(exc, NotYet):  # a submit before the fields the task names: say what is left,
            st.not_yet = f" ({chosen.label} {exc}.)"  # until the next action (then it may be stale)
            if exc.remedy is not None:
                key = (exc.remedy.frame, exc.remedy.id)
                st.pointed[key] = st.pointed.get(key, 0) + 1
                if st.pointed[key] >= POINTED_TWICE or exc.at_once:
                    st.remedy = exc.remedy
        elif isinstance(exc, Declined):  # not offered again here, and the task's end must say so
            self.declined_here.add((urldefrag(st.ctx.url)[0], chosen.label))
            self.declined_pending = exc.what
        if not isinstance(exc, (NotYet, Declined)):  # refused for a reason the next action may remove / said apart
            self.guard.failed(st.state, chosen.label)
        st.attempts += not isinstance(exc, NotYet)  # refused once per button and unset set in a task: bounded
        await self.events.emit("note", step=self.step, text=f"Attempt failed ({chosen.label}): {exc}")
        if st.attempts >= MAX_ATTEMPTS:
            await self.events.emit("note", step=self.step, text=f"{MAX_ATTEMPTS} attempts failed in this step.")
            return False
        return True

    # ------------------------------------------------------------------ after

    async def _after(self, st: StepState, chosen: Candidate, outcome: Outcome, before: list[str]) -> bool:
        """An action ran: record it, stop a loop; on the same page (no new URL, no modal) choose again."""
        actions, url_changed = outcome.actions, outcome.url_changed
        st.executed += 1
        st.not_yet = ""
        if url_changed and chosen.kind == "element":  # evidence a part it names is done (task_parts.py)
            st.ctx.parts.tick([element_name(chosen.label)])
        elif chosen.kind == "element" or chosen.kind in GESTURE_KINDS:  # done on the page: each action names what
            for action in actions:                                          # it did (a scroll: "Scrolled ...")
                st.ctx.parts.tick_action(action)
        st.actions += actions
        if moves_on(actions, url_changed):
            self.declined_pending = None
        st.reasons.append(st.reason)
        await self.events.emit("action", step=self.step, reason=st.reason, actions=actions,
                               text="; ".join(actions) or chosen.label)
        self.guard.record(st.state, chosen.label, st.text)
        if self.guard.should_stop(st.state, chosen.label):
            self._record(st)
            raise Ended("looping", self.guard.explanation(st.state, chosen.label))
        if url_changed or outcome.modal_opened or st.executed >= MAX_STEP_ACTIONS:
            return False
        return await self._continue(st, "; ".join(actions) or chosen.label, before)

    async def _continue(self, st: StepState, done: str, before: list[str]) -> bool:
        """Continuation: same page, fresh look, choose again; False: the refresh found another page or a modal."""
        ctx = st.ctx
        update = await ctx.refresh()
        self.seen.add_page(ctx.pagemem)
        if ctx.page_changed or ctx.pagemem.modal() is not None:
            return False
        again = st.whole and self.observer.shows_whole(ctx.pagemem)
        # On a small page the changed lines themselves say it, exactly, for no call: the 1.5B model's
        # sentence adds nothing a few listed lines do not (and has said "no visible change" of a ticked box).
        listed = again or (st.small and self.observer.is_small(ctx.pagemem))
        change = await describe_change(done, before, page_lines(ctx.pagemem), update, by_rule=listed)
        await self.events.emit("note", step=self.step, text=f"Page change: {change}")
        st.afters.append(f"After \"{done}\": {change}")
        if again:
            # Observed again, for no call while it stays small: the actor reads the page as it is now (a
            # summary written before the action kept saying "the text field is empty" once it was filled).
            now = await self.observer.observe(self.task, self.prompt_history(), ctx.pagemem, update, related=ctx.related_terms)
            st.seen, st.since = await self._grounded(now.summary, read=now.whole), list(st.afters)
            obs_now = now.model_copy(update={"summary": st.observation})
        else:  # a large page, or one that grew past the bound: the change is said next to the observation
            st.since.append(st.afters[-1])
            # What the action added (a popover, new results) is offered, though this step observed the page before.
            obs_now = st.obs.model_copy(update={"summary": st.observation,
                                                "added": self.observer.added_since_entry(ctx.pagemem)})
        ctx.observation = st.observation
        # What was refused was refused for the page as it was: after an action it may be offered again.
        st.failed, st.end_task_removed = set(), False
        await self._candidates(st, obs_now)
        return True

    # ------------------------------------------------------------------ the step's record

    async def _no_decision(self, st: StepState, problem: NoDecision) -> None:
        """The step ends as a no-op, recorded with its reason (and any fills a form did before it); the
        MAX_NO_DECISIONS-th such step ends the task (run() stops it with a checkpoint, as for a stalled call)."""
        if problem.done:  # a workflow's actions before the decision that failed (a form's fills) did happen
            st.actions += problem.done
            st.reasons.append(st.reason)
            await self.events.emit("action", step=self.step, reason=st.reason, actions=problem.done,
                                   text="; ".join(problem.done))
            self.pending_notes.append(f"Step {self.step} ended after these actions: the model gave no valid "
                                      "answer to what came next.")
        else:
            self.pending_notes.append(f"Step {self.step} ended with no action: the model gave no valid answer.")
        self._record(st, no_op=True)  # the reason is in the history
        self.no_decisions += 1
        why = f"no valid answer from the model ({problem})"
        await self.events.emit("note", step=self.step, text=f"Step {self.step} ends with no action: {why}")
        if self.no_decisions >= MAX_NO_DECISIONS:
            raise NoDecision(f"{self.no_decisions} steps ended with no valid answer from the model; the last: {problem}")

    def _usage(self) -> TaskUsage | None:
        """The task's LLM use so far (on each step event: a step's cost is the difference to the next)."""
        return usage_of(self.tally, by_prompt=False) if self.tally is not None else None

    async def _tell_fallbacks(self) -> None:
        """Say in the step's notes each call a stand-in answered since the last time (llm/fallback.py)."""
        notes = self.tally.fallbacks[self.fallbacks_told:] if self.tally is not None else []
        self.fallbacks_told += len(notes)
        for note in notes:
            await self.events.emit("note", step=self.step, text=f"Fallback: {note}")

    def _step_record(self, st: StepState) -> StepRecord:
        return StepRecord(step=self.step, page_name=st.obs.page_title or st.obs.url, url=st.obs.url, summary=st.summary,
                          reason=" Then: ".join(r for r in st.reasons if r) or "-", actions=list(st.actions),
                          notes=list(self.pending_notes))

    def _record(self, st: StepState, no_op: bool = False) -> None:
        """The step in the history, once; no_op: recorded though no action ran (a step with no valid decision:
        its note says why). Failed attempts are never logged: a step where nothing happened is not recorded."""
        if not (st.actions or no_op) or (self.history.steps and self.history.steps[-1].step == self.step):
            return
        self.history.add(self._step_record(st))
        self.pending_notes = []

    def _history_with(self, st: StepState, notes: bool = True) -> str:
        """The history including this step's actions so far (what the verifier must judge)."""
        if not st.actions:
            return self.history.render(notes=notes)
        probe = History(self.history.earlier)
        probe.steps = list(self.history.steps)
        probe.add(self._step_record(st))
        return probe.render(notes=notes)
