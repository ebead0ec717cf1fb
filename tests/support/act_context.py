"""ACT helpers: an AgentContext over the controlled tab (the make_ctx fixture, made available by the conftest.py of
tests/act and tests/security), the scripted action choice, and reading the page back."""

from __future__ import annotations

import json

import pytest
from selenium.webdriver.common.by import By

from companion.act import Candidate
from companion.act import AgentContext
from companion.act.candidates import element_candidate


def choice(index: int, reason: str = "fits the task") -> str:
    return json.dumps({"reason": reason, "index": index})


def candidate_for(ctx, name: str) -> Candidate:
    for section in ctx.pagemem.sections:
        for el in section.all_elements():
            if el.name == name:
                return element_candidate(el, section.id)
    raise LookupError(f"no element named {name!r}: {[e.name for e in ctx.pagemem.all_elements()]}")


def text_of(browser, css: str) -> str:
    return browser.driver.find_element(By.CSS_SELECTOR, css).text


class User:
    """The confirm callback: records every question, answers `yes`."""

    def __init__(self, yes: bool):
        self.yes = yes
        self.asked: list[str] = []

    async def __call__(self, question: str) -> bool:
        self.asked.append(question)
        return self.yes


@pytest.fixture
def make_ctx(browser, tmp_path):
    """make_ctx(task, confirm=..., **fields) -> an AgentContext over the active tab, refreshed once."""

    async def _make(task: str, **fields) -> AgentContext:
        ctx = AgentContext(session=browser.session, task=task, files_dir=tmp_path / "files", **fields)
        await ctx.refresh()
        return ctx

    return _make


async def offered_on(make_ctx, task: str):
    """(the context, every element of the page as a candidate) for `task` on the open page."""
    ctx = await make_ctx(task)
    pm = ctx.pagemem
    return ctx, [element_candidate(el, s.id) for s in pm.sections for el in s.all_elements()]


def names_of(ctx, offered: list[Candidate], keys: set[str]) -> set[str]:
    """The names of the elements whose candidates' keys are among `keys`."""
    return {ctx.pagemem.element_by_ref(c.element).name for c in offered if c.key in keys}


async def names_left_out(make_ctx, task: str, *rules) -> set[str]:
    """The names of the page's elements whose candidates any of `rules` (rule(task, pm, offered) -> keys, the
    act/candidates.py and act/list_choices.py rules run before the filtering call) leaves out."""
    ctx, offered = await offered_on(make_ctx, task)
    return names_of(ctx, offered, set().union(*(rule(task, ctx.pagemem, offered) for rule in rules)))
