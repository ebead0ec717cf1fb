"""A control the task says nothing of, chosen while the page shows one the task names, is refused once with it
(act/premature.py check_named_instead): "forward that email" and the model's "Reply" (chosen again, it is clicked:
tests/act/test_refused_once.py).
Real headless Chromium, the real extension, the scripted LLM."""

from __future__ import annotations

from selenium.webdriver.common.by import By

from companion.agent.loop import run_task
from tests.support.agent_llm import index_of

TASK = "Forward that email to Harmony."


def _run(browser, pages, agent_llm, memory_dir, choose):
    agent_llm(choose=choose)
    return browser.run(run_task(TASK, session=browser.session, start_url=pages.url("mail_actions.html"),
                                memory_dir=memory_dir, max_steps=2), timeout=300)


def test_a_control_the_task_does_not_name_is_refused_once_for_the_one_it_names(browser, pages, agent_llm, memory_dir):
    def reply_until_told(text: str, labels: list[str]) -> int:
        if "pressed" in text:
            return index_of(labels, r"^end the task")
        if "not clicked yet" in text:
            return index_of(labels, r'^button "Forward"')
        return index_of(labels, r'^button "Reply"')
    result = _run(browser, pages, agent_llm, memory_dir, reply_until_told)

    refusal = next(e.text for e in result.events if e.kind == "note" and "not clicked yet" in e.text)
    assert 'names button "Forward" here and nothing of button "Reply"' in refusal, refusal
    assert browser.driver.find_element(By.ID, "did").text == "pressed Forward", result.actions
