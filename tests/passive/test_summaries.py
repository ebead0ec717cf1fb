"""Summaries of passively learned pages are made later, in the background, one LLM call at a time and only while
no task runs (the task service registers its tasks on the hub): the scripted OpenAI-compatible server answers."""

from __future__ import annotations

import time

import pytest

from companion import llm
from companion.agent.service import install_task_service
from companion.llm.client import LLMClient
from companion.memory.store import normalize_url
from companion.observe.summarize_later import BackgroundSummarizer
from companion.protocol import StartTask, StopTask
from tests.support.agent_llm import AgentLLM, index_of
from tests.support.passive import allow, read_memory, stored_urls, tab_id_of, wait_for

SUMMARY_PROMPTS = ("section_summary", "page_summary")


@pytest.fixture
def scripted_llm():
    server = AgentLLM(choose=lambda text, labels: index_of(labels, r'button "Delete account"')).start()
    llm.set_client(LLMClient(spec=server.spec))
    yield server
    llm.set_client(None)
    server.stop()


@pytest.fixture
def summarizer(browser, learner, memory_dir, scripted_llm):
    background = BackgroundSummarizer(busy=lambda: browser.hub.busy(within=2.0), memory_dir=memory_dir)
    learner.on_page = background.enqueue

    async def start() -> None:
        background.start()

    browser.run(start())
    yield background
    browser.run(background.stop())


def _summary_requests(server: AgentLLM, url: str) -> list:
    return [r for r in server.requests if r.prompt in SUMMARY_PROMPTS and f"({url})" in r.last_user]


def _summarized(memory_dir, url: str):
    page = read_memory(memory_dir, url, lambda s: s.load_page(url), None)
    if page is None or page.summary is None:
        return None
    return page if all(s.summary and not s.needs_summary for s in page.sections) else None


def test_summaries_are_filled_in_later_while_no_task_runs(browser, pages, passive, summarizer, scripted_llm, user_tab,
                                                          memory_dir, policy_dir):
    allow(pages.base, policy_dir)
    url = pages.url("passive/home.html")
    user_tab.get(url)
    page = wait_for(lambda: _summarized(memory_dir, url), "the page's summaries")
    calls = _summary_requests(scripted_llm, normalize_url(url)) or _summary_requests(scripted_llm, url)
    assert [r.prompt for r in calls][-1] == "page_summary" and "section_summary" in [r.prompt for r in calls]
    # One call at a time: each began after the previous one was answered.
    assert all(b.started >= a.finished for a, b in zip(calls, calls[1:]))
    assert page.summary == "scripted"
    assert summarizer.pages_done == 1


def test_no_summary_call_while_a_task_runs(browser, pages, passive, summarizer, scripted_llm, memory_dir, policy_dir, tmp_path):
    allow(pages.base, policy_dir)
    service = install_task_service(browser.hub, memory_dir=tmp_path / "agent-memory")
    driver = browser.driver
    task_page = pages.url("agent_account.html")
    browser.open(task_page)
    task_tab = tab_id_of(browser, task_page)
    session = browser.session

    async def start() -> None:
        service._on_start(session, StartTask(id="passive-task", task="Delete my account", tab_id=task_tab))

    async def stop() -> None:
        service._on_stop(session, StopTask(id="stop", task_id="passive-task"))

    home = driver.current_window_handle
    try:
        browser.run(start())
        # The task waits for the user's confirmation: it runs, and the model is its own.
        wait_for(lambda: service.current is not None and service.current.confirmations, "the task to ask for confirmation")
        driver.switch_to.new_window("tab")
        url = pages.url("passive/about.html")
        driver.get(url)  # the user browses another tab meanwhile: learned, not summarized
        wait_for(lambda: stored_urls(memory_dir, url), "the page to be learned")
        time.sleep(4.0)
        assert _summary_requests(scripted_llm, url) == [] and _summary_requests(scripted_llm, normalize_url(url)) == []
        assert summarizer.pending() == [(passive.learner.history[-1].site, normalize_url(url))]
        browser.run(stop())
        wait_for(lambda: "passive-task" in service.finished, "the task to stop")
        wait_for(lambda: _summarized(memory_dir, url), "the summaries once the task is over")
    finally:
        if service.current is not None and service.current.future is not None and not service.current.future.done():
            browser.run(stop())
        for name in ("start_task", "stop_task", "confirm_answer"):
            browser.hub.message_handlers.pop(name, None)
        if driver.current_window_handle != home:
            driver.close()
            driver.switch_to.window(home)
