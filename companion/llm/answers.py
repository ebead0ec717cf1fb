"""Answer models of the prompts whose answer is not a plain numbered choice.

Numbered choices use `client.choose` / `client.choose_many` (schemas built per call with an `enum` of the
valid indices). Every free-text field has a max_length: the constrained decoder stops there, which bounds
generation time, and our validation rejects longer text from servers that do not constrain. Each is sized so
the whole reply fits its call's max_tokens (fit.py checks it for every call and, at start-up, every prompt).
"""

from __future__ import annotations

from pydantic import Field

from companion.llm.structured import REASON_MAX, StrictAnswer


class PageSummary(StrictAnswer):
    """prompts/page_summary.j2: one sentence about the whole page."""

    summary: str = Field(max_length=160)


class Extraction(StrictAnswer):
    """prompts/detail_extraction.j2: task-relevant details of one section ("" when nothing is relevant).
    Kept short: a constrained decoder stops at max_length, and small models otherwise ramble until max_tokens
    (seen with a 0.5B model: 280 tokens of invention)."""

    details: str = Field(max_length=700)


class EarlyStop(StrictAnswer):
    """prompts/list_early_stop.j2: stop scanning a long list now?"""

    reason: str = Field(max_length=60)
    stop: bool


class TaskSummary(StrictAnswer):
    """prompts/page_task_summary.j2: one short paragraph, the observation passed to action selection (it is also
    what the history keeps of the step)."""

    summary: str = Field(max_length=700)


class TextValue(StrictAnswer):
    """prompts/field_value.j2 and prompts/input_value.j2: the text to type."""

    value: str = Field(max_length=500)


class NewFile(StrictAnswer):
    """prompts/new_file_content.j2: a text file the agent writes before uploading it."""

    filename: str = Field(pattern=r"^[A-Za-z0-9][A-Za-z0-9._-]{0,79}$", max_length=80)
    content: str = Field(max_length=1000)


class Verification(StrictAnswer):
    """prompts/end_task_verification.j2: is the task really complete?"""

    reason: str = Field(max_length=REASON_MAX)
    complete: bool


class FinalAnswer(StrictAnswer):
    """prompts/final_answer.j2: the answer reported to the user ("" for pure action tasks)."""

    answer: str = Field(max_length=1000)


class ChangeDescription(StrictAnswer):
    """prompts/change_description.j2: what changed on the page after an action."""

    description: str = Field(max_length=200)


__all__ = [
    "PageSummary",
    "Extraction",
    "EarlyStop",
    "TaskSummary",
    "TextValue",
    "NewFile",
    "Verification",
    "FinalAnswer",
    "ChangeDescription",
]
