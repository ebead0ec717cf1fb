"""Prompt files: every prompt of the list exists, has a version, renders; a missing variable fails at render."""

import pytest

from companion.llm.prompts import PromptError, available_prompts, prompt_version, render
from tests.support.prompt_samples import CTX, SAMPLES


def test_every_listed_prompt_exists_and_every_prompt_has_a_version():
    assert set(SAMPLES) <= set(available_prompts())
    for name in available_prompts():  # including prompts other stages add later
        assert prompt_version(name)


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_prompt_renders_with_its_documented_variables(name):
    rendered = render(name, SAMPLES[name])
    system, user = rendered.messages
    assert system["role"] == "system" and user["role"] == "user"
    assert "JSON" in user["content"]
    for value in SAMPLES[name].values():
        if isinstance(value, str) and value:
            assert value in user["content"], f"{name} does not show {value!r}"


def test_task_conditioned_prompts_start_with_the_shared_prefix():
    # The task and history come first, so the server's prompt cache reuses them across the calls of a step.
    for name, variables in SAMPLES.items():
        if "task" in variables:
            assert render(name, variables).messages[1]["content"].startswith("Task: " + CTX["task"]), name


def test_numbered_options_are_shown_with_their_indices():
    text = render("action_selection", SAMPLES["action_selection"]).messages[1]["content"]
    assert "[0] Click 'Red kettle'\n[1] End task" in text


def test_missing_variable_fails_at_render_naming_prompt_and_variable():
    variables = dict(SAMPLES["action_selection"])
    del variables["candidates"]
    with pytest.raises(PromptError, match=r"action_selection.*candidates"):
        render("action_selection", variables)


def test_unknown_prompt_is_a_clear_error():
    with pytest.raises(PromptError, match="no prompt named 'no_such_prompt'"):
        render("no_such_prompt", {})
