"""A scripted LLM for agent tests: the real openai client over real HTTP to companion's ScriptedLLMServer,
answering from the request itself instead of a fixed list, so a multi-step task can be scripted by intent.

Every answer is built from the JSON schema the client sent (so it is always valid) and the prompt text:
  - subset choices (section_selection, candidate_filtering, ...): in selection="all" mode every option, up to
    maxItems; in selection="overlap" mode only the options sharing a word with the task (the lexical policy's
    scoring, benchmarks/lexical.py: a phrase the task quotes counts more), best first, up to maxItems, and
    every option only when none shares a word (a model with nothing to go on keeps what the prompt asks to keep).
    The agent tests run in both modes (tests/agent/conftest.py), so a narrowing choice is exercised too;
  - detail_extraction echoes the section's details, page_task_summary echoes "title (url)" plus the
    extractions: the observation really carries what the page shows, through the whole pipeline;
  - action_selection, end_task_verification and final_answer come from the test's own functions.
"""

from __future__ import annotations

import contextvars
import itertools
import json
import re
from typing import Callable

from benchmarks.lexical import Scorer, numbered_options, task_of
from companion.agent.loop import run_task
from tests.support.scripted_server import RecordedRequest, ScriptedLLMServer, ScriptedReply

_request: contextvars.ContextVar[RecordedRequest | None] = contextvars.ContextVar("agent_llm_request", default=None)
OPTION_RE = re.compile(r"^\[(\d+)\] (.*)$", re.M)
# The page-content markers around page text (companion.llm.prompts.untrusted): read through, like a model would.
MARKER_RE = re.compile(r"\n?</?page-content nonce=[0-9a-f]+>\n?")


def unwrap(text: str) -> str:
    """The prompt with its page-content markers taken out (blocks keep a line break in their place)."""
    return MARKER_RE.sub(lambda m: "\n" if m.group(0).startswith("\n") and m.group(0).endswith("\n") else "", text)

# (prompt text, candidate labels) -> index in labels
ChooseFn = Callable[[str, list[str]], int]


def options(text: str) -> list[str]:
    """The numbered options of a prompt, in order."""
    return [label for _, label in OPTION_RE.findall(text)]


def candidates_of(text: str) -> list[str]:
    """The action_selection prompt's candidates by number; one that cannot be chosen now (left out of the list and
    said under "Not offered now:", agent/decide.py) is its reason there, e.g. decide.TRIED."""
    block = text.split("Possible actions:\n", 1)[1]
    listed = {int(i): label for i, label in OPTION_RE.findall(block.split("\n\n", 1)[0])}
    gaps = text.split("\nNot offered now:\n", 1)[1].split("\n\n", 1)[0] if "\nNot offered now:\n" in text else ""
    for i, line in OPTION_RE.findall(gaps):
        listed[int(i)] = "(" + line.rsplit(" (", 1)[1]  # the reason decide.py appends to the label
    return [listed.get(i, "") for i in range(max(listed, default=-1) + 1)]


def index_of(labels: list[str], pattern: str) -> int | None:
    return next((i for i, label in enumerate(labels) if re.search(pattern, label, re.I)), None)


def end_or(pattern: str) -> Callable[[str, list[str]], int]:
    """An actor that always ends the task; while the end is not offered (refused for good), the action matching
    `pattern`: for end rules whose refusal names the way."""
    def choose(text: str, labels: list[str]) -> int:
        found = index_of(labels, r"^end the task")
        return found if found is not None else index_of(labels, pattern)
    return choose


def run_from(browser, pages, memory_dir, task: str, page: str, max_steps: int):
    """The task run by the agent loop from a fixture page, in the suite's browser."""
    return browser.run(run_task(task, session=browser.session, start_url=pages.url(page), memory_dir=memory_dir,
                                max_steps=max_steps), timeout=300)


def option_named(pattern: str) -> Callable[[str], dict]:
    """A scripted choice among a prompt's numbered options: the one matching `pattern`, else none (-1)."""
    def answer(text: str) -> dict:
        found = index_of(options(text), pattern)
        return {"reason": "scripted", "index": -1 if found is None else found}
    return answer


def submit_the_form(text: str) -> dict:
    """A form review that submits (its "Submit the form ..." option)."""
    return {"reason": "every value is right", "index": index_of(options(text), r"^Submit the form")}


def echo_details(text: str) -> dict:
    """A faithful extraction: the section's text as the prompt showed it (it ends at the blank line before
    the instructions)."""
    body = text.split("\nSection: ", 1)[-1].split("\n", 1)[-1]
    return {"details": body.split("\n\n", 1)[0]}


def _fit(answer: dict, schema: dict) -> dict:
    """Cut echoed text to the schema's maxLength, as a constrained decoder would."""
    for name, spec in schema.get("properties", {}).items():
        if isinstance(answer.get(name), str) and "maxLength" in spec:
            answer[name] = answer[name][: spec["maxLength"]]
    return answer


def _allowed(spec: dict) -> list:
    """The values an integer schema allows (a one-option choice is spelled with `const`)."""
    return [spec["const"]] if "const" in spec else list(spec.get("enum", [0]))


SELECTION_MODES = ("all", "overlap")


def by_overlap(text: str, allowed: list, limit: int) -> list:
    """The options of a subset prompt that share words with the task, best first (all of them when none does)."""
    options = numbered_options(text, len(allowed))
    if len(options) != len(allowed):
        return allowed[:limit]
    scorer = Scorer(task_of(text))
    scores = [scorer.overlap(o) for o in options]
    hits = sorted((i for i in range(len(options)) if scores[i] > 0), key=lambda i: (-scores[i], i))
    return [allowed[i] for i in hits][:limit] or allowed[:limit]


class AgentLLM(ScriptedLLMServer):
    def __init__(self, *, choose: ChooseFn, verify: Callable[[str], bool] = lambda text: True,
                 answer: Callable[[str], str] = lambda text: "done",
                 overrides: dict[str, Callable[[str], dict]] | None = None, selection: str = "all", **kwargs):
        super().__init__(**kwargs)
        if selection not in SELECTION_MODES:
            raise ValueError(f"selection must be one of {SELECTION_MODES}, not {selection!r}")
        self.selection = selection
        self.overrides = overrides or {}  # prompt name -> (prompt text -> answer object)
        self.choose = choose
        self.verify = verify
        self.answer_fn = answer

    def prompts(self, name: str) -> list[str]:
        """The user message of every request made with prompt `name`, in arrival order."""
        return [r.last_user for r in self.requests if r.prompt == name]

    async def _answer(self, record: RecordedRequest):
        token = _request.set(record)
        try:
            return await super()._answer(record)
        finally:
            _request.reset(token)

    def _next_reply(self, prompt: str, last_user: str) -> ScriptedReply:
        record = _request.get()
        with self._lock:
            has_script = any(r.responses and r.matches(prompt, last_user) for r in self.rules) or bool(self.script)
        if has_script or record is None:
            return super()._next_reply(prompt, last_user)
        schema = ((record.body.get("response_format") or {}).get("json_schema") or {}).get("schema") or {}
        return ScriptedReply(content=json.dumps(_fit(self.respond(prompt, last_user, schema), schema)))

    def respond(self, prompt: str, text: str, schema: dict) -> dict:
        text = unwrap(text)
        if prompt in self.overrides:
            return self.overrides[prompt](text)
        if prompt == "action_selection":
            return {"reason": f"scripted choice for {prompt}", "index": self.choose(text, candidates_of(text))}
        if prompt == "end_task_verification":
            done = self.verify(text)
            return {"reason": "all parts are done" if done else "the value was not found yet", "complete": done}
        if prompt == "final_answer":
            return {"answer": self.answer_fn(text)}
        if prompt == "detail_extraction":
            return echo_details(text)
        if prompt == "change_description":
            block = text.split("Appeared:\n", 1)[1].splitlines() if "Appeared:\n" in text else []
            appeared = [line[2:] for line in itertools.takewhile(lambda line: line.startswith("- "), block)]
            return {"description": ("Now shown: " + "; ".join(appeared)) if appeared else "Something changed."}
        if prompt == "page_task_summary":
            page = re.search(r"Current page: (.*)", text).group(1)  # noqa: the prompt always names the page
            found = text.split("Relevant details found on the page:\n", 1)[-1].split("\n\n", 1)[0]
            return {"summary": f"{page}. " + " ".join(found.split())[:800]}
        return self.generic(schema, text if self.selection == "overlap" else None)

    @staticmethod
    def generic(schema: dict, text: str | None = None) -> dict:
        """Schema-valid answer; `text` given: subsets are chosen by word overlap with the prompt's task."""
        out: dict = {}
        for name, spec in schema.get("properties", {}).items():
            kind = spec.get("type")
            if kind == "array":
                values = _allowed(spec["items"])
                limit = spec.get("maxItems", len(values))
                out[name] = by_overlap(text, values, limit) if text is not None else values[:limit]
            elif kind == "integer":
                out[name] = _allowed(spec)[0]
            elif kind == "boolean":
                out[name] = False if name == "stop" else True
            elif kind == "string":
                out[name] = "notes.txt" if "pattern" in spec else "scripted"
            else:
                out[name] = None
        return out
