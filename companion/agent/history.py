"""The interaction history h_t in the paper's exact format, one block per step:

    Step 3
    Observation: Product list (http://shop/list) - Summary: Ten kettles are listed ...
    Reason for Action: The red kettle is the one asked for.
    Action: Click [12] link "Red kettle"

A step with several basic actions (a compound workflow or a continuation chain) lists them:

    Actions:
    - Type "kettle" into [3] searchbox "Search"
    - Press Enter

Only successful actions are recorded: failed attempts (the retry rule) never reach the history.
A step that produced no action at all is not recorded either, but for one the model gave no valid decision in
("Action: none" and a note saying so: loop.py, llm/fallback.py). A refused end of the task is (a "Note:" line of
the next recorded step), so the model keeps being told what was left to try.

Every task prompt of a step (the observation's, filtering, the actor's) sees the history without the earlier
steps' reasons (render_for_actor, cut to the budget: StepPhases.prompt_history), one text so the server's prompt
cache carries it from call to call; the end checks and the final answer read it whole (render). Reasons went: a small
model copied the first step's "The task requires logging in..." as its reason for six steps after the login.
Nor its previous reason: marked as the reason for an action already taken, it was still copied (render_for_actor).
"""

from __future__ import annotations

from pydantic import BaseModel, Field


class StepRecord(BaseModel):
    step: int = Field(ge=1)
    page_name: str  # the page title from PageMem (falls back to the URL)
    url: str
    summary: str  # the page task summary of the step (the observation)
    reason: str
    actions: list[str]  # basic action strings, in execution order (none: the step had no valid decision)
    notes: list[str] = Field(default_factory=list)  # what the agent was told in the step (a refused end task)


def _one_line(text: str) -> str:
    # A newline inside a field would break the block structure the LLM reads.
    return " ".join(text.split())


def format_step(record: StepRecord, reason: bool = True, notes: bool = True) -> str:
    page = _one_line(record.page_name) or record.url
    lines = [
        f"Step {record.step}",
        f"Observation: {page} ({record.url}) - Summary: {_one_line(record.summary)}",
    ]
    if reason:
        lines.append(f"Reason for Action: {_one_line(record.reason)}")
    if not record.actions:  # a step that ended with no valid decision (its note says so)
        lines.append("Action: none")
    elif len(record.actions) == 1:
        lines.append(f"Action: {_one_line(record.actions[0])}")
    else:
        lines.append("Actions:")
        lines += [f"- {_one_line(a)}" for a in record.actions]
    lines += [f"Note: {_one_line(n)}" for n in record.notes] if notes else []
    return "\n".join(lines)


def format_earlier(task: str, answer: str) -> str:
    """What a follow-up task is told of the task before it (the side panel's follow-up), ahead of its own steps."""
    result = _one_line(answer) or "(no result)"
    return f"Before this task, the previous task was: {_one_line(task)}\nIts result: {result}"


class History:
    """The task's history: append a StepRecord per completed step, render() for the prompts.
    `earlier`: a follow-up's previous task and result (format_earlier), rendered before the steps."""

    def __init__(self, earlier: str = "") -> None:
        self.steps: list[StepRecord] = []
        self.earlier = earlier

    def add(self, record: StepRecord) -> None:
        self.steps.append(record)

    def render(self, notes: bool = True) -> str:
        """notes=False: without the steps' notes (an end refused earlier: the verifier echoed it as its own verdict
        after the form it was refused for had been submitted)."""
        return "\n\n".join(([self.earlier] if self.earlier else []) + [format_step(r, notes=notes) for r in self.steps])

    def render_for_actor(self) -> str:
        """The history for action selection: no reasons. Shown even its previous one, marked as done with, the
        default 1.5B model wrote it again word for word as its next reason, for six steps in a row, and repeated
        the moves it had given it for (the kettles page with the price, then Home, then the kettles page ...)."""
        return "\n\n".join(([self.earlier] if self.earlier else []) + [format_step(r, reason=False) for r in self.steps])

    def actions(self) -> list[str]:
        """Every basic action string of the task, in order (what a replay must reproduce)."""
        return [a for r in self.steps for a in r.actions]

    def __len__(self) -> int:
        return len(self.steps)
