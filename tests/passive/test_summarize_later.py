"""The background summarizer gives the model up the moment a task starts: a call in flight is cancelled, nothing
more is asked while busy, and the section is asked again once the task is over (scripted server, slow answers)."""

from __future__ import annotations

import asyncio
import time

import pytest

from companion.llm.client import LLMClient
from companion.memory.store import WebsiteMemStore, normalize_url, site_key
from companion.observe.summarize_later import BackgroundSummarizer
from companion.protocol import PageVisited
from tests.support.agent_llm import AgentLLM
from tests.support.passive import allow

ANSWER_S = 2.0


@pytest.fixture
def slow_llm():
    server = AgentLLM(choose=lambda text, labels: 0, delay_s=ANSWER_S).start()
    yield server
    server.stop()


async def _until(predicate, what: str, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.05)


async def test_a_task_that_starts_cancels_the_call_in_flight_and_the_section_is_asked_again_later(
        browser, pages, learner, memory_dir, policy_dir, slow_llm):
    allow(pages.base, policy_dir)
    learner.page_visited(PageVisited(id="v", tab_id=1, snapshot=await _home(browser, pages)))
    busy = False
    summarizer = BackgroundSummarizer(busy=lambda: busy, memory_dir=memory_dir, client=LLMClient(spec=slow_llm.spec))
    site, url = site_key(pages.base), normalize_url(learner.history[-1].url)
    summarizer.start()
    try:
        summarizer.enqueue(site, url)
        await _until(lambda: len(slow_llm.requests) == 1, "the first call")
        busy = True  # a task starts while the call waits for its answer
        await _until(lambda: summarizer.cancelled_calls == 1, "the call to be given up")
        await asyncio.sleep(ANSWER_S + 1.0)
        assert len(slow_llm.requests) == 1 and summarizer.pending() == [(site, url)]
        busy = False
        await _until(lambda: summarizer.pages_done == 1, "the page to be summarized once idle", 120)
    finally:
        await summarizer.stop()
    asked = [r.last_user for r in slow_llm.requests]
    assert asked[1] == asked[0]  # the cancelled section first, then the rest, one at a time
    assert all(b.started >= a.finished for a, b in zip(slow_llm.requests[1:], slow_llm.requests[2:]))
    with WebsiteMemStore(site, memory_dir) as store:
        page = store.load_page(url)
    assert page.summary == "scripted" and all(not s.needs_summary for s in page.sections)


async def _home(browser, pages):
    await asyncio.to_thread(browser.open, pages.url("passive/home.html"))
    return await browser.session.snapshot()


async def test_a_summary_with_no_valid_answer_leaves_no_stand_in_in_the_sites_memory(browser, pages, learner, memory_dir,
                                                                                     policy_dir):
    """A stand-in is not the model's summary: saved, the page would never be asked about again."""
    server = AgentLLM(choose=lambda text, labels: 0, overrides={"section_summary": lambda text: {"summary": "no state"}})
    server.start()
    allow(pages.base, policy_dir)
    learner.page_visited(PageVisited(id="v", tab_id=1, snapshot=await _home(browser, pages)))
    summarizer = BackgroundSummarizer(busy=lambda: False, memory_dir=memory_dir, client=LLMClient(spec=server.spec))
    site, url = site_key(pages.base), normalize_url(learner.history[-1].url)
    summarizer.start()
    try:
        summarizer.enqueue(site, url)
        await _until(lambda: summarizer.pages_done == 1, "the page to be done", 120)
    finally:
        await summarizer.stop()
        server.stop()
    assert [r for r in server.requests if r.prompt == "section_summary"]  # asked, never validly answered
    with WebsiteMemStore(site, memory_dir) as store:
        page = store.load_page(url)
        cached = store.db.table("summaries").all()
    asked = [s for s in page.sections if s.needs_summary]
    assert asked and all(s.summary is None for s in asked)  # still to be summarized: the next visit asks again
    assert page.summary is None and cached == []
    assert not [r for r in server.requests if r.prompt == "page_summary"]  # not asked of stand-ins
