"""A declined action ends that path. The user declines the one action a login task needs (submitting the
form); the scripted model keeps choosing it, by the form's own workflow, by its button and by Enter, and its
end-task check and answer say "logged in". The user is asked once, what does the same is never asked about
again, the form is never submitted, and the task ends saying the user declined it, not "done".
Real Chromium with the real extension, the real loop and openai client, tests/fixtures/pages/sec_get_login.html."""

from __future__ import annotations

import pytest

from companion import llm, typed_secrets
from companion.agent.decide import DECLINED
from companion.agent.loop import run_task
from companion.llm.client import LLMClient
from tests.support.agent_llm import AgentLLM, candidates_of, index_of, submit_the_form, unwrap

TASK = 'Log in as alice with the password "p@ss w0rd".'
# Every way to the one submission, in the order an insistent model tries them.
TO_THE_SUBMIT = [r'button "Log in"', r'textbox "Username"', r"Password", r"Enter"]


def keep_logging_in(text: str, labels: list[str]) -> int:
    for pattern in TO_THE_SUBMIT:
        found = index_of(labels, pattern)
        if found is not None:
            return found
    return index_of(labels, r"^end the task")


@pytest.fixture(scope="module")
def declined_run(browser, pages, tmp_path_factory):
    """One run of the login task where the user declines the submission, shared by the tests below."""
    asked: list[str] = []

    async def decline(question: str) -> bool:
        asked.append(question)
        return False

    server = AgentLLM(choose=keep_logging_in, verify=lambda text: True, answer=lambda text: "Logged in as alice.",
                      overrides={"form_field_selection": lambda text: {"indices": [0, 1]},
                                 "field_value": lambda text: {"value": "alice"},
                                 "input_value": lambda text: {"value": "alice"},
                                 "form_review": submit_the_form}).start()
    llm.set_client(LLMClient(spec=server.spec))
    try:
        start = pages.url("sec_get_login.html")
        result = browser.run(run_task(TASK, session=browser.session, start_url=start, confirm=decline,
                                      memory_dir=tmp_path_factory.mktemp("memory"), max_steps=4), timeout=300)
        yield result, server, asked, browser.driver.current_url
    finally:
        llm.set_client(None)
        server.stop()
        typed_secrets.forget_all()  # the password it typed is no concern of later tests


def test_a_declined_action_is_asked_once_however_the_model_comes_back_to_it(declined_run):
    result, server, asked, url = declined_run
    assert len([q for q in asked if "submits" in q]) == 1, asked
    assert "sec_get_login_done" not in url  # never submitted


def test_a_declined_action_is_shown_as_declined_not_offered_again(declined_run):
    result, server, asked, url = declined_run
    offered = [candidates_of(unwrap(text)) for text in server.prompts("action_selection")]
    assert any(DECLINED in labels for labels in offered), offered


def test_a_task_whose_needed_action_was_declined_ends_saying_so_not_done(declined_run):
    result, server, asked, url = declined_run
    assert result.status != "done" and result.answer == "", (result.status, result.answer)
    assert result.explanation.startswith("you declined: ") and "Log in" in result.explanation, result.explanation
    assert server.prompts("final_answer") == []  # no success answer was even asked for
