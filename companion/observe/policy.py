"""LocalPolicy: a deterministic stand-in for the LLM, for measuring the pipeline without a model.

It has the client's ask/choose_many signature and renders every prompt with the real templates, so the
prompt sizes it reports are the sizes a real model would receive; only the answers are computed by
rule, from the same variables the model would see:
- section selection: the three sections whose purpose shares most words with the task (ties: page order);
- list items: items sharing a word with the task (at most 5 per chunk); stop once 5 are selected;
- summaries and extractions: the content's own first words / the lines sharing words with the task,
  within each answer's length limit.
"""

from __future__ import annotations

import json
import re

from pydantic import BaseModel

from companion.llm.prompts import prompt_version, render
from companion.llm.structured import subset_model
from companion.llm.usage import CallUsage, Reply
from companion.pagemem.tokens import count_tokens

_WORD = re.compile(r"[a-z0-9]{3,}")
STOPWORDS = frozenset("the and for with from this that what which page section list item items main find read "
                      "report about into your our are was were has have its".split())
SELECT_SECTIONS = 3
ITEMS_PER_CHUNK = 5
STOP_AFTER = 5
_PREFIX = re.compile(r"^\s*- (\[\d+\] )?")


def words(text: str) -> set[str]:
    return {w for w in _WORD.findall(text.lower()) if w not in STOPWORDS}


def _plain(text: str) -> list[str]:
    return [_PREFIX.sub("", line).strip() for line in text.splitlines() if line.strip()]


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _limit(model: type[BaseModel], field: str, default: int) -> int:
    for meta in model.model_fields[field].metadata:
        if getattr(meta, "max_length", None):
            return meta.max_length
    return default


class LocalPolicy:
    def __init__(self, keep_prompts: bool = False) -> None:
        self.calls: list[CallUsage] = []
        self.prompts: list[tuple[str, str]] = []  # (prompt name, user message) when keep_prompts
        self.keep_prompts = keep_prompts

    async def ask(self, prompt: str, variables: dict, answer: type[BaseModel], *, max_tokens: int,
                  temperature: float = 0.0) -> Reply:
        data = self._answer(prompt, variables, answer)
        return self._reply(prompt, variables, answer.model_validate(data))

    async def choose_many(self, prompt: str, variables: dict, n: int, *, max_items: int | None = None,
                          reason: bool = False, max_tokens: int | None = None) -> Reply:
        task = words(variables.get("task", ""))
        if prompt == "section_selection":
            options = [line.split(": ", 1)[0] for line in variables["sections"]]
            ranked = sorted(range(n), key=lambda i: (-len(words(options[i]) & task), i))
            picks = sorted(ranked[:SELECT_SECTIONS])
        else:
            picks = [i for i, item in enumerate(variables["items"]) if words(item) & task][:ITEMS_PER_CHUNK]
        model = subset_model(n, max_items=max_items)
        return self._reply(prompt, variables, model.model_validate({"indices": picks}))

    def _reply(self, prompt: str, variables: dict, value: BaseModel) -> Reply:
        rendered = render(prompt, variables)
        usage = CallUsage(prompt=prompt, prompt_version=prompt_version(prompt), mode="text", model="local-policy",
                          prompt_tokens=sum(count_tokens(m["content"]) for m in rendered.messages),
                          completion_tokens=count_tokens(json.dumps(value.model_dump())))
        self.calls.append(usage)
        if self.keep_prompts:
            self.prompts.append((prompt, rendered.messages[-1]["content"]))
        return Reply(answer=value, usage=usage)

    def _answer(self, prompt: str, v: dict, model: type[BaseModel]) -> dict:
        task = words(v.get("task", ""))
        fields = model.model_fields
        if prompt == "section_summary":
            lines = _plain(v["content"])
            headings = [line for line in lines if line.startswith("heading ")]
            first = (headings or lines or ["section"])[0]
            gist = " ".join(" ".join(lines).split()[:25])
            out = {"summary": _clip(gist, _limit(model, "summary", 240)),
                   "state": _clip(f"{len(lines)} lines; starts: {gist}", _limit(model, "state", 240))}
            if "purpose" in fields:
                out["purpose"] = _clip(first, _limit(model, "purpose", 80))
            return out
        if prompt == "page_summary":
            return {"summary": _clip("; ".join(v["sections"][:2]), _limit(model, "summary", 300))}
        if prompt == "list_early_stop":
            selected = [s for s in v["selected"] if not s.startswith("(")]
            return {"reason": "enough items found" if len(selected) >= STOP_AFTER else "keep looking",
                    "stop": len(selected) >= STOP_AFTER}
        if prompt == "detail_extraction":
            lines = _plain(v["details"])
            hits = [line for line in lines if words(line) & task] or lines[:2]
            return {"details": _clip("; ".join(hits), _limit(model, "details", 1200))}
        if prompt == "page_task_summary":
            return {"summary": _clip(" ".join(v["extractions"]) or "Nothing relevant found.", _limit(model, "summary", 900))}
        raise ValueError(f"LocalPolicy has no rule for prompt {prompt!r}")
