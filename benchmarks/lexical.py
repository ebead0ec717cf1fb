"""The lexical policy (`--llm lexical`): a no-model baseline that answers every prompt by word overlap.

It runs as an OpenAI-compatible server (benchmarks/openai_server.py underneath), so the whole pipeline runs as
with a model: the real client, the real prompts, the real schemas and validation. Each answer is computed from
the rendered prompt and the JSON schema the client sent, never from the page or a task list:
  - a numbered choice: the option sharing most words with the task (a phrase the task quotes counts more);
    an option the history shows as already done counts less, so the policy moves on; "end the task" once
    nothing scores and something was done; -1 ("none of these") when nothing scores and -1 is allowed;
  - a subset: for the prompts that ask to keep every plausible option (sections, candidates, form fields),
    every option, best first, up to the schema's limit; for the others only those that share a word;
  - text to type: the task's quoted phrase nearest in words to the field, else the words after
    "enter"/"type"; summaries and extractions: the lines of the prompt's page text that share words with
    the task (or its first lines); yes/no: verified when some browser action was taken, stop a list scan
    once something is selected.
It is a harness check and a floor, not a solver: where it solves a task, a real model's failure there is the
model's. Nothing here knows any site or benchmark task.

    lexical_server()               # started once per process, on 127.0.0.1, and its address handed to the LLM layer
    LLMClient(spec="lexical")      # what `--llm lexical` builds (companion/llm/config.py): a client of that server

The product never starts it: the `webchallenger` command does, before any command whose LLM is `lexical` runs
(benchmarks/cli.py `serve_stand_in`, called from companion/cli.py), and a test calls lexical_server() itself.
"""

from __future__ import annotations

import atexit
import itertools
import json
import re
import threading

from benchmarks.openai_server import ChatReply, OpenAIServer, RecordedRequest
from companion.act.candidates import END_TASK_LABEL, TYPE_URL_LABEL, VIEW_ALL_LABEL
from companion.llm.config import use_lexical_server

MODEL = "lexical"

_OPTION = re.compile(r"^\[(-?\d+)\] (.*)$")
_MARKER = re.compile(r"</?page-content nonce=[0-9a-f]+>")
_WORD = re.compile(r"[a-z0-9]+")
_QUOTED = re.compile(r"\"([^\"]+)\"|“([^”]+)”|'([^']{2,})'(?!\w)")
STOPWORDS = frozenset(
    "a an the and or of to in on at by for with from into onto as is are be it its this that these those then "
    "than so do does did you your me my i we our they them there here what which who whom when where how all any "
    "each some please using use"
    .split())
# Words that introduce the text to type ("Enter 12/03/2016 as the date") and words that end it.
_ENTER = re.compile(r"\b(?:enter|type|write|input|fill in|search for)\b\s+(.+)", re.I)
_ENTER_END = re.compile(r"\s+(?:into|in|as|and|then|to|on|under|for)\b|[.,;!?](?:\s|$)", re.I)
# Prompts whose subset answer should keep every option the policy cannot rule out (the prompt itself asks to
# keep all plausible ones, and an empty answer would leave the step with nothing to look at or act on).
_NAMED = re.compile(r'[a-z]+(?: "[^"]*")?')  # role and accessible name, the start of every element line
_TEXT_INPUT = re.compile(r"(textbox|searchbox|combobox|spinbutton)\b")
KEEP_ALL = frozenset({"section_selection", "candidate_filtering", "form_field_selection"})
DONE_PENALTY = 3.0
QUOTE_BONUS = 3.0
TEXT_LINES = 6


def words(text: str) -> list[str]:
    return [w for w in _WORD.findall(text.lower()) if w not in STOPWORDS]


def unwrap(text: str) -> str:
    """The prompt without its page-content markers (the policy reads page text like a model would)."""
    return _MARKER.sub("", text)


def quoted(text: str) -> list[str]:
    return [next(g for g in m.groups() if g) for m in _QUOTED.finditer(text)]


def task_of(text: str) -> str:
    match = re.search(r"^Task: (.*)$", text, re.M)
    return match.group(1).strip() if match else ""


def numbered_options(text: str, n: int | None) -> list[str]:
    """The last run of options numbered from [0] upwards in the prompt, as a list of k labels (k == n when n is
    known). A number left out of a run (an action that cannot be chosen now: agent/decide.py) is ""."""
    runs: list[list[str]] = []
    for line in text.splitlines():
        match = _OPTION.match(line.strip())
        if not match:
            continue
        index, label = int(match.group(1)), match.group(2)
        if index == 0:
            runs.append([label])
        elif runs and index >= len(runs[-1]):
            runs[-1] += [""] * (index - len(runs[-1])) + [label]
    fitting = [r for r in runs if n is None or len(r) == n]
    return (fitting or runs or [[]])[-1]


def block(text: str, heading: str) -> list[str]:
    """The lines after the line `heading` up to the next blank line."""
    match = re.search(rf"^{re.escape(heading)}[ \t]*\n", text, re.M)
    if not match:
        return []
    rest = text[match.end():]
    return [line.strip() for line in rest.split("\n\n", 1)[0].splitlines() if line.strip()]


def listed(text: str, heading: str) -> list[str]:
    """The "- item" lines right under the line `heading`."""
    return [line[2:] for line in itertools.takewhile(lambda line: line.startswith("- "), block(text, heading))]


def line_after(text: str, label: str) -> str:
    match = re.search(rf"^{re.escape(label)}\s*(.*)$", text, re.M)
    return match.group(1).strip() if match else ""


def done_actions(text: str) -> list[str]:
    """Browser actions the prompt shows as already taken: the history's ("Action: ..." lines and the "- ..."
    lines under "Actions:"), this step's continuation notes, and the verifier's list."""
    out: list[str] = []
    under_actions = False
    for line in text.splitlines():
        if line.startswith("Action: "):
            out.append(line[len("Action: "):])
        elif line == "Actions:":
            under_actions = True
            continue
        elif under_actions and line.startswith("- "):
            out.append(line[2:])
            continue
        under_actions = False
    out += re.findall(r'After "(.+?)": ', text)  # the action string itself quotes names: `After "Clicked tab "A"": ...`
    out += listed(text, "Browser actions taken so far:")
    return out


def _clip(text: str, limit: int | None) -> str:
    text = " ".join(text.split())
    return text if limit is None or len(text) <= limit else text[: max(0, limit - 1)].rstrip() + "…"


class Scorer:
    """Word overlap with the task; a phrase the task quotes is worth more, an action already done less."""

    def __init__(self, task: str, done: list[str] | None = None):
        self.task = task
        self.task_words = set(words(task))
        self.phrases = [q.lower() for q in quoted(task) if q.strip()]
        self.done = [" ".join(d.lower().split()) for d in (done or [])]

    def overlap(self, option: str) -> float:
        low = option.lower()
        score = float(len(self.task_words & set(words(option))))
        score += sum(QUOTE_BONUS for p in self.phrases if p in low)
        return score

    def score(self, option: str) -> float:
        """overlap, plus: a text field the task gives a value for and that does not hold it yet counts more; an
        element the history shows as acted on, a field already holding its value, a ticked box count less."""
        label = " ".join(option.lower().split())
        # A field's value is what was typed, not what it is: it must not earn the task's words back.
        score = self.overlap(label.split(" value=", 1)[0] if _TEXT_INPUT.match(label) else option)
        # The element as the history names it: `Clicked tab "A"` for the option `tab "A" [expanded]`.
        named = _NAMED.match(label)
        name = named.group(0) if named else label
        done = any(name in d for d in self.done) or "[checked]" in label
        if _TEXT_INPUT.match(label):
            value = type_value(self.task, option).lower()
            if value and value in label:
                done = True
            elif value and not done:
                score += QUOTE_BONUS
        return score - (DONE_PENALTY if done else 0.0)

    def best(self, options: list[str]) -> tuple[int, float]:
        if not options:
            return 0, 0.0
        scores = [self.score(o) for o in options]
        top = max(scores)
        return scores.index(top), top


class LexicalPolicy:
    """Answers one rendered prompt, given its name and the JSON schema of the answer."""

    def answer(self, prompt: str, text: str, schema: dict) -> dict:
        text = unwrap(text)
        props = schema.get("properties", {})
        task = task_of(text)
        scorer = Scorer(task, done_actions(text))
        out: dict = {}
        for name, spec in props.items():
            kind = spec.get("type")
            if name == "index":
                out[name] = self._choose(prompt, text, spec, scorer)
            elif name == "indices":
                out[name] = self._subset(prompt, text, spec, scorer)
            elif kind == "boolean":
                out[name] = self._yes_no(name, text)
            elif kind == "string":
                out[name] = self._text(prompt, name, text, spec, scorer)
            elif kind == "integer":
                out[name] = _allowed(spec)[0]
            else:
                out[name] = None
        if "reason" in out:  # the reason is written last: it states the choice made
            out["reason"] = _clip(self._reason(out), props["reason"].get("maxLength"))
        return out

    # ------------------------------------------------------------------ choices

    def _choose(self, prompt: str, text: str, spec: dict, scorer: Scorer) -> int:
        allowed = _allowed(spec)
        valid = [v for v in allowed if v >= 0]
        n = max(valid) + 1 if valid else 0  # shown options may include ones the schema leaves out (tried ones)
        options = numbered_options(text, n)
        if len(options) != n:
            return allowed[0]
        if prompt == "form_review":  # the prompt's own options: submit once the fields were filled
            return _first(options, lambda o: o.startswith("Submit the form"), default=n - 1)
        if prompt == "action_selection":
            return self._action(options, scorer, set(valid))
        index, top = scorer.best(options)
        if top <= 0 and -1 in allowed:
            return -1
        return index

    def _action(self, options: list[str], scorer: Scorer, valid: set[int]) -> int:
        fixed = {END_TASK_LABEL, TYPE_URL_LABEL, VIEW_ALL_LABEL}
        pages = [i for i, o in enumerate(options) if i in valid and o not in fixed
                 and not o.startswith(("go back to ", "go to bookmark ", "switch to tab "))]
        end = _first(options, lambda o: o == END_TASK_LABEL, default=None)
        end = end if end in valid else None
        scores = {i: scorer.score(options[i]) for i in pages}
        best = max(scores, key=lambda i: (scores[i], -i)) if scores else None
        if best is None:
            return end if end is not None else min(valid)
        # Nothing left that shares a word with the task: end once something was done, else try the first element.
        if end is not None and scores[best] <= 0 and (scorer.done or scores[best] < 0):
            return end
        return best

    def _subset(self, prompt: str, text: str, spec: dict, scorer: Scorer) -> list[int]:
        items = spec.get("items", {})
        allowed = _allowed(items)
        limit = spec.get("maxItems", len(allowed))
        options = numbered_options(text, len(allowed))
        if len(options) != len(allowed):
            return allowed[:limit] if prompt in KEEP_ALL else []
        scores = [scorer.overlap(o) for o in options]
        ranked = sorted(range(len(options)), key=lambda i: (-scores[i], i))
        if prompt not in KEEP_ALL:
            ranked = [i for i in ranked if scores[i] > 0]
        return ranked[:limit]

    @staticmethod
    def _yes_no(name: str, text: str) -> bool:
        if name == "complete":  # verified once the task's browser actions include anything at all
            return bool(listed(text, "Browser actions taken so far:"))
        if name == "stop":  # a list scan stops once something was selected
            return bool(listed(text, "Items selected so far:"))
        return True

    # ------------------------------------------------------------------ text

    def _text(self, prompt: str, name: str, text: str, spec: dict, scorer: Scorer) -> str:
        limit = spec.get("maxLength")
        if "pattern" in spec:  # a file name
            return "notes.txt"
        if name == "value":
            field = line_after(text, "Field:") or line_after(text, "The input to fill:") or line_after(text, "The search box:")
            rejected = re.search(r'^Not "(.*)": that is', text, re.M)
            return _clip(type_value(scorer.task, field, rejected.group(1) if rejected else ""), limit)
        if name == "content":
            return _clip(" ".join(quoted(scorer.task)) or scorer.task, limit)
        if name == "reason":
            return ""  # filled in once the choice is known
        if prompt == "change_description":
            parts = [f"{h[:-1]}: " + "; ".join(listed(text, h)) for h in ("Appeared:", "Disappeared:", "Changed:") if listed(text, h)]
            return _clip(" ".join(parts) or "no visible change", limit)
        if prompt == "section_summary":
            lines = _page_lines(text, "Section content:")
            if name == "purpose":
                return _clip(" ".join(" ".join(lines[:1]).split()[:5]) or "section", limit)
            if name == "summary":
                return _clip(" ".join(" ".join(lines).split()[:20]) or "empty section", limit)
            return _clip(" ".join(" ".join(lines[1:]).split()[:20]), limit)
        if prompt == "page_summary":
            return _clip(line_after(text, "Page:") or "a web page", limit)
        if prompt == "detail_extraction":
            lines = _page_lines(text, line_after(text, "Section:") or "Section:")
            return _clip("; ".join(_relevant(lines, scorer)), limit)
        if prompt == "page_task_summary":
            found = listed(text, "Relevant details found on the page:")
            page = line_after(text, "Current page:")
            return _clip(f"{page}. " + " ".join(found) if found else f"{page}. Nothing relevant found.", limit)
        if prompt == "final_answer":
            observation = line_after(text, "Current page:")
            return _clip(observation or "Done.", limit)
        return _clip(" ".join(_relevant(_page_lines(text, ""), scorer)), limit)

    @staticmethod
    def _reason(out: dict) -> str:
        if "index" in out:
            return "none of the options shares words with the task" if out["index"] == -1 else \
                f"option {out['index']} shares most words with the task"
        if "complete" in out:
            return "a browser action was taken" if out["complete"] else "no browser action was taken yet"
        if "stop" in out:
            return "items were selected" if out["stop"] else "nothing selected yet"
        return "word overlap with the task"


def type_value(task: str, field: str, rejected: str = "") -> str:
    """What to type: the task's quoted phrase whose preceding words best match the field, else the words after
    "enter"/"type" up to "into"/"as"/..., else the task's quoted phrases or nothing."""
    field_words = set(words(field))
    best, best_score = "", -1.0
    last_end = 0
    for m in _QUOTED.finditer(task):
        phrase = next(g for g in m.groups() if g)
        context = set(words(task[last_end:m.start()]))  # the words since the previous phrase: "the password"
        last_end = m.end()
        if phrase == rejected:
            continue
        score = len(context & field_words)
        if score > best_score:
            best, best_score = phrase, score
    if best:
        return best
    match = _ENTER.search(task)
    if match:
        value = _ENTER_END.split(match.group(1), 1)[0].strip()
        if value and value != rejected:
            return value
    return ""


def _page_lines(text: str, heading: str) -> list[str]:
    """The page-text lines of the prompt after `heading` (up to the instructions, which follow a blank line)."""
    rest = text.split(heading, 1)[1] if heading and heading in text else text
    lines = [line.strip() for line in rest.split("\n\n", 1)[0].splitlines()]
    return [line for line in lines if line and not line.startswith(("Task:", "(Page-content"))]


def _relevant(lines: list[str], scorer: Scorer) -> list[str]:
    hits = [line for line in lines if scorer.overlap(line) > 0]
    return (hits or lines)[:TEXT_LINES]


def _allowed(spec: dict) -> list:
    """The values an integer schema allows (a one-option choice is spelled with `const`)."""
    if "const" in spec:
        return [spec["const"]]
    return list(spec.get("enum", [0]))


def _first(items: list[str], test, default):
    return next((i for i, item in enumerate(items) if test(item)), default)


def _schema_of(body: dict) -> dict:
    fmt = body.get("response_format") or {}
    return (fmt.get("json_schema") or {}).get("schema") or fmt.get("schema") or {}


class LexicalLLMServer(OpenAIServer):
    """The policy behind an OpenAI-compatible endpoint."""

    def __init__(self, *, model: str = MODEL):
        super().__init__(model=model)
        self.policy = LexicalPolicy()

    def reply_to(self, record: RecordedRequest) -> ChatReply:
        try:
            answer = self.policy.answer(record.prompt, record.last_user, _schema_of(record.body))
        except Exception as exc:  # a policy bug must read as a clear server error, not a hang
            return ChatReply(status=500, content=f"lexical policy failed on prompt {record.prompt!r}: {type(exc).__name__}: {exc}")
        return ChatReply(content=json.dumps(answer))


_server: LexicalLLMServer | None = None
_server_lock = threading.Lock()


def lexical_server() -> LexicalLLMServer:
    """The process's lexical server, started on first use and stopped at exit; from then on `--llm lexical`
    clients of this process connect to it."""
    global _server
    with _server_lock:
        if _server is None:
            _server = LexicalLLMServer().start()
            atexit.register(_server.stop)
            use_lexical_server(_server.base_url)
        return _server
