"""In real Chromium with the real extension and the scripted LLM: an action that cannot change
anything fails its attempt with the reason and leaves the step's candidates (typing the value a field holds,
selecting the selected option, toggling back a box the agent itself set, re-opening an open menu), and the loop
guard compares element state, so a ticking clock on the page does not hide a loop."""

from __future__ import annotations

from companion.agent.loop import run_task
from tests.support.agent_llm import candidates_of, index_of
from tests.support.task_events import notes

PAGE = "noop_controls.html"


def pick(pattern: str):
    """Choose the element matching `pattern` while it is offered, then end the task."""
    def choose(text: str, labels: list[str]) -> int:
        found = index_of(labels, pattern)
        return found if found is not None else index_of(labels, r"^end the task")
    return choose


def run(browser, pages, memory_dir, task: str, max_steps: int = 2):
    return browser.run(run_task(task, session=browser.session, start_url=pages.url(PAGE), memory_dir=memory_dir,
                                max_steps=max_steps), timeout=240)


def test_typing_the_value_a_field_holds_fails_the_attempt_and_is_not_repeated(browser, pages, agent_llm, memory_dir):
    agent_llm(choose=pick(r'^textbox "Name"'), overrides={"input_value": lambda text: {"value": "Kasie"}})
    result = run(browser, pages, memory_dir, 'Enter "Kasie" into the Name field')

    assert not any(a.startswith("Typed") for a in result.actions)  # never typed again
    assert any('already holds "Kasie"' in n and n.startswith("Attempt failed") for n in notes(result))
    # The field already holding it is what the task asked for: the end is accepted.
    assert result.status == "done", result.explanation


def test_selecting_the_selected_option_fails_the_attempt(browser, pages, agent_llm, memory_dir):
    server = agent_llm(choose=pick(r'^combobox "Colour"'), overrides={"select_option": lambda text: {"reason": "scripted", "index": 0}})
    result = run(browser, pages, memory_dir, "Choose a colour")

    assert result.actions == []  # '---------' was already selected
    assert any("is already the selected option" in n for n in notes(result))
    second = candidates_of(server.prompts("action_selection")[1])
    assert not any(label.startswith('combobox "Colour"') for label in second)  # removed for the step


def test_a_box_the_agent_checked_is_not_unchecked_by_choosing_it_again(browser, pages, agent_llm, memory_dir):
    agent_llm(choose=pick(r'^checkbox "Newsletter"'))
    result = run(browser, pages, memory_dir, "Check the Newsletter box")

    assert result.actions == ['Checked checkbox "Newsletter"']
    assert browser.driver.execute_script("return document.getElementById('news').checked") is True
    assert any("checked by an earlier action on this page" in n for n in notes(result))


def test_an_open_menu_trigger_is_not_offered(browser, pages, agent_llm, memory_dir):
    server = agent_llm(choose=pick(r"^end the task"))
    run(browser, pages, memory_dir, "What is in the options menu?", max_steps=1)

    offered = candidates_of(server.prompts("action_selection")[0])
    assert not any(label.startswith('button "Options"') for label in offered)  # aria-expanded=true: already open
    assert any('menuitem "Export"' in label for label in offered)  # its entries are


def test_a_ticking_clock_does_not_hide_a_loop(browser, pages, agent_llm, memory_dir):
    agent_llm(choose=lambda text, labels: index_of(labels, r'^button "Check again"'))
    result = run(browser, pages, memory_dir, "Check again until the report is ready", max_steps=3)

    assert result.status == "looping", result.explanation
    assert result.actions == ['Clicked button "Check again"'] * 5
