"""The one runtime error the agent loop retries on."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from companion.protocol import ElementRef


class ActionFailed(Exception):
    """An action could not be carried out (stale element, invalid URL, not interactable, declined by the user).

    The AGENT loop removes the candidate and re-prompts (at most three attempts per step). `done` lists the
    basic action strings that did succeed before the failure inside a compound workflow: they happened in
    the browser, so the history may mention them even though the compound action as a whole failed.
    """

    def __init__(self, message: str, done: list[str] | None = None):
        super().__init__(message)
        self.done = list(done or [])


class NoOp(ActionFailed):
    """The action would change nothing (typing the value a field holds, selecting the selected option: the
    rules are act/prefilter.py's). Failing it makes the loop remove the candidate and choose again, instead
    of logging an action that did nothing and repeating it. `would_be`: the action string it would have had
    (the state it asks for is already there: a task asking for it is not left undone by it)."""

    def __init__(self, message: str, would_be: str = "", done: list[str] | None = None):
        super().__init__(message, done)
        self.would_be = would_be


class NotYet(ActionFailed):
    """The action is premature: the task names something on the page it has not done yet (a submit click
    before the checkboxes or option the task names are set: act/named_fields.py). The loop tells the next
    choice why, so the model does that first. `remedy`: the one element the rule says to use instead (the
    checkbox at the counted place, the card with the shortest duration), when it names one; two refusals in a
    step pointing at it and the loop takes it without asking again (agent/step.py). `at_once`: the remedy sets a
    field the task names outright (the "to" of "forward it to X" with X, the radio "m9KQex" of "Select m9KQex"):
    nothing is left for the model to judge and a field is set back as easily as it is set, so it is taken at the
    first refusal."""

    def __init__(self, message: str, done: list[str] | None = None, remedy: "ElementRef | None" = None,
                 at_once: bool = False):
        super().__init__(message, done)
        self.remedy = remedy
        self.at_once = at_once and remedy is not None


class Declined(ActionFailed):
    """The user said no to the action (`what`: the question they answered). The task remembers it by what the
    action does (AgentContext.declined): it is not asked again, and a task that then ends without anything else
    doing what it asks says it was declined instead of done (agent/finish.py declined_end)."""

    def __init__(self, message: str, what: str, done: list[str] | None = None):
        super().__init__(message, done)
        self.what = what
