"""Scripted agent behaviour for the suite's tasks (tests/support/agent_llm.py answers; these pick the actions)."""

from __future__ import annotations

import re

from benchmarks.task_runner import RunOptions
from tests.djangosite.server import SITE_DIR
from tests.support.agent_llm import index_of, options

OPTS = RunOptions(max_steps=5, task_timeout=300)


def task_of(suite, task_id: str):
    return next(t for t in suite.tasks if t.id == task_id)


def page_of(text: str) -> str:
    return text.split("Current page:", 1)[1].split("\n", 1)[0]


def count_shown(text: str) -> str:
    """The answer a reader of the page gives: the count of results the filtered list states."""
    match = re.search(r"\b(\d+) results\b", text.split("Current page:", 1)[1])
    return f"{match.group(1)} orders." if match else "I could not find it."


def count_summary(text: str) -> dict:
    """page_task_summary as a model focused on the task writes it: the page, then the result count it states
    (the default echo keeps the first 800 characters of the page, which a long banner can fill)."""
    page = re.search(r"Current page: (.*)", text).group(1)
    found = text.split("Relevant details found on the page:\n", 1)[-1].split("\n\n", 1)[0]
    counts = re.findall(r"\b\d+ results\b", found)
    return {"summary": f"{page}. " + ("; ".join(counts) if counts else " ".join(found.split())[:800])}


def count_orders(status_link: str, agent_llm, seen: list[list[str]] | None = None):
    """An agent that filters the order list by `status_link`, ends the task and answers the count it shows."""
    return agent_llm(choose=filter_then_end(status_link, seen), answer=count_shown,
                     overrides={"page_task_summary": count_summary})


def filter_then_end(status_link: str, seen: list[list[str]] | None = None):
    """Click the order list's status filter `status_link`, then end the task; `seen` gets the first candidates."""
    def choose(text: str, labels: list[str]) -> int:
        if seen is not None and not seen:
            seen.append(labels)
        if "status__exact=" in page_of(text):
            return index_of(labels, r"^end the task")
        return index_of(labels, rf'link "{status_link}"')
    return choose


def add_tag(name: str, agent_llm):
    """An agent that opens "Add tag", fills the name with `name` through the form workflow and submits."""
    def choose(text: str, labels: list[str]) -> int:
        if "Submitted the form" in text:
            return index_of(labels, r"^end the task")
        if "/add/" in page_of(text):
            return index_of(labels, r'textbox "Name:"')
        return index_of(labels, r'link "Add tag"')

    def review(text: str) -> dict:
        return {"reason": "the values are right", "index": index_of(options(text), r"^Submit")}

    return agent_llm(choose=choose, overrides={"form_review": review, "field_value": lambda text: {"value": name}})


SUITE_FILE = SITE_DIR / "tasks.json"
