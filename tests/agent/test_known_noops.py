"""An action seen to change nothing is not offered again on that page state (agent/loopguard.py): it keeps its
number, shown as done. The default 1.5B model re-ran the search whose results it was reading, and re-clicked a
consent button that left its dialog in place, until the loop guard ended the task at the fifth repetition. Real
headless Chromium, the real extension, the scripted LLM."""

from __future__ import annotations

from companion.agent.decide import CAME_BACK, CHANGED_NOTHING, TRIED
from companion.agent.loop import run_task
from tests.support.agent_llm import candidates_of, index_of
from tests.support.task_events import notes

PAGE = "known_noops.html"


def pick(pattern: str, times: int = 99):
    """Choose the element matching `pattern` while it is offered (at most `times` times), then end the task."""
    chosen = []

    def choose(text: str, labels: list[str]) -> int:
        found = index_of(labels, pattern)
        if found is not None and len(chosen) < times:
            chosen.append(found)
            return found
        return index_of(labels, r"^end the task")
    return choose


def run(browser, pages, memory_dir, task: str, page: str = PAGE, max_steps: int = 2):
    return browser.run(run_task(task, session=browser.session, start_url=pages.url(page), memory_dir=memory_dir,
                                max_steps=max_steps), timeout=240)


def test_a_click_that_changed_nothing_is_not_offered_again_on_that_page(browser, pages, agent_llm, memory_dir):
    server = agent_llm(choose=pick(r'^button "Reject all"'))
    result = run(browser, pages, memory_dir, "What does the Blue kettle cost?")

    assert browser.driver.execute_script("return window.rejects") == 1
    assert result.actions == ['Clicked button "Reject all"']
    first, second = (candidates_of(p) for p in server.prompts("action_selection")[:2])
    at = index_of(first, r'^button "Reject all"')
    assert second[at] == CHANGED_NOTHING  # same number, not choosable
    assert first[at + 1:] == second[at + 1:]  # no other number moved
    assert any(n.startswith('button "Reject all" changed nothing') for n in notes(result))
    assert result.status == "done", result.explanation


def test_a_click_whose_only_effect_is_text_is_offered_again(browser, pages, agent_llm, memory_dir):
    server = agent_llm(choose=pick(r'^button "Add one"', times=3))
    result = run(browser, pages, memory_dir, "Put three kettles in the basket", max_steps=1)

    assert browser.driver.execute_script("return document.getElementById('count').textContent") == "3"
    assert result.actions == ['Clicked button "Add one"'] * 3
    offered = [candidates_of(p) for p in server.prompts("action_selection")[:3]]
    assert all(index_of(labels, r'^button "Add one"') is not None for labels in offered)


def test_a_search_repeated_on_its_own_results_is_refused_before_enter(browser, pages, agent_llm, memory_dir):
    server = agent_llm(choose=pick(r'^searchbox "Search the shop"'),
                       overrides={"search_query": lambda text: {"value": "steel teapot"}})
    result = run(browser, pages, memory_dir, "Search for the steel teapot and tell me its price.",
                 page="agent_tea.html", max_steps=4)

    searches = [a for a in result.actions if a.startswith("Pressed Enter")]
    assert len(searches) == 1, result.actions  # on the results for "steel teapot", that search is not run again
    third = server.prompts("action_selection")[2]  # after the refused search, on the same results page
    assert 'Already so: this page already shows the results for "steel teapot"' in third
    assert TRIED in candidates_of(third)
    assert result.status == "done", result.explanation
    assert result.steps == 2


def test_an_in_page_search_that_re_creates_the_same_results_is_not_offered_again(browser, pages, agent_llm, memory_dir):
    # The page replaces its results on every search: the same links under new element numbers.
    server = agent_llm(choose=pick(r'^searchbox "Search the shop"'),
                       overrides={"search_query": lambda text: {"value": "Moka Express pot"}})
    result = run(browser, pages, memory_dir, "What is the price of the Moka Express pot? Use the shop's search.",
                 page="late_results.html", max_steps=1)

    searches = [a for a in result.actions if a.startswith("Pressed Enter")]
    assert len(searches) == 2, result.actions  # the second one re-created the same results: learnt
    assert result.status != "looping", result.explanation
    third = candidates_of(server.prompts("action_selection")[2])
    assert CHANGED_NOTHING in third and index_of(third, r"^searchbox") is None


def test_a_toggle_that_took_the_page_back_is_not_clicked_there_again(browser, pages, agent_llm, memory_dir):
    """Closed, opened, closed: the click that reopened the panel undid the first; on the page it was done on it is
    not offered again. The first click, which led forward, is still offered where it was done."""
    server = agent_llm(choose=pick(r"By placed at"))
    result = run(browser, pages, memory_dir, "Who placed order SO-7?", page="toggle_panel.html", max_steps=1)

    assert browser.driver.execute_script("return window.toggles") == 3
    assert len([a for a in result.actions if "By placed at" in a]) == 3
    offered = [candidates_of(p) for p in server.prompts("action_selection")]
    assert index_of(offered[2], r"By placed at") is not None  # back where it started: it may close it again
    assert CAME_BACK in offered[3] and index_of(offered[3], r"By placed at") is None
