"""SubmitForm on a form whose field already holds a value: an empty answer for that field leaves it as it is
(typing "" into it cleared the name the page had filled in, and the form went out with name= empty). Real
headless Chromium, the real extension, the scripted LLM."""

from __future__ import annotations

from companion.agent.loop import run_task
from tests.support.agent_llm import index_of, options

TASK = "Sign Kasie up for the newsletter: her name is Kasie; tick the box and send the form."


def sign_up(text: str, labels: list[str]) -> int:
    if "form_done.html" in text.split("Current page:", 1)[1].split("\n", 1)[0]:
        return index_of(labels, r"^end the task")
    return index_of(labels, r'^button "Sign up"')


OVERRIDES = {
    "form_field_selection": lambda text: {"indices": list(range(len(options(text.split("Fields:\n", 1)[1].split("\n\n", 1)[0]))))},
    "field_value": lambda text: {"value": ""},  # the small model's answer for a field that is already right
    "form_review": lambda text: {"reason": "scripted", "index": index_of(options(text), r"^Submit the form")},
}


def test_an_empty_answer_keeps_the_value_a_field_holds(browser, pages, agent_llm, memory_dir):
    agent_llm(choose=sign_up, overrides=OVERRIDES)
    result = browser.run(run_task(TASK, session=browser.session, start_url=pages.url("bench_filled.html"),
                                  memory_dir=memory_dir, max_steps=2), timeout=300)

    assert "name=Kasie&news=on" in browser.driver.current_url, result.actions
    assert not any(a.startswith("Typed") for a in result.actions), result.actions
