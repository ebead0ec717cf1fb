"""Prompt files: every prompt of the list exists, has a version, renders; a missing variable fails at render."""

import pytest

from companion.llm.prompts import PromptError, available_prompts, prompt_version, render

CTX = {"task": "Find the cheapest red kettle", "history": ""}
SAMPLES = {
    "section_summary": {"page_title": "Shop", "url": "http://127.0.0.1/", "content": "link 'Kettles'"},
    "page_summary": {"page_title": "Shop", "url": "http://127.0.0.1/", "sections": ["Navigation: links to categories"]},
    "section_selection": {**CTX, "page_title": "Shop", "url": "http://127.0.0.1/", "sections": ["Navigation", "Results"]},
    "detail_extraction": {"task": CTX["task"], "page_title": "Shop", "url": "http://127.0.0.1/", "section_purpose": "Results", "details": "Red kettle $20"},
    "list_item_selection": {**CTX, "list_purpose": "Search results", "items": ["Red kettle $20", "Blue kettle $15"]},
    "list_early_stop": {**CTX, "list_purpose": "Search results", "searched": 20, "remaining": 80, "selected": ["Red kettle $20"]},
    "page_task_summary": {"task": CTX["task"], "steps_done": "Step 1 on Home: Clicked link \"Kettles\"", "page_title": "Shop",
                          "url": "http://127.0.0.1/", "extractions": ["Results: Red kettle $20"]},
    "candidate_filtering": {**CTX, "observation": "Results page", "context": "Results", "candidates": ["Click 'Red kettle'", "Click 'Help'"]},
    "action_selection": {**CTX, "observation": "Results page", "candidates": ["Click 'Red kettle'", "End task"]},
    "form_field_selection": {**CTX, "form_purpose": "Search form", "fields": ["Query (empty)", "Colour (any)"]},
    "field_value": {**CTX, "form_purpose": "Search form", "field": "Query (text, empty)", "problem": ""},
    "form_review": {**CTX, "form_purpose": "Search form", "form_state": "Query: kettle", "options": ["Edit field: Query", "Submit the form", "Leave the form"]},
    "dropdown_option": {**CTX, "trigger": "button 'Sort'", "options": ["Price: low to high", "Newest"]},
    "search_suggestion": {**CTX, "query": "red kett", "suggestions": ["red kettle", "red kettle electric"]},
    "input_value": {**CTX, "observation": "Home page", "field": "Search (text)"},
    "search_query": {**CTX, "observation": "Home page", "field": "searchbox 'Search the shop'"},
    "select_option": {**CTX, "field": "Colour (any)", "options": ["any", "red", "blue"]},
    "upload_file_choice": {**CTX, "field": "Attachment", "files": ["photo.png: a kettle", "Create a new text file"]},
    "new_file_content": {**CTX, "field": "Attachment"},
    "end_task_verification": {**CTX, "observation": "Red kettle $20 is the cheapest"},
    "final_answer": {**CTX, "observation": "Red kettle $20 is the cheapest"},
    "change_description": {"action": "Click 'Sort'", "added": ["option 'Newest'"], "removed": [], "changed": []},
    "bookmark_selection": {**CTX, "bookmarks": ["Kettles (http://127.0.0.1/kettles): all kettles"]},
    "choice_probe": {"question": "Which is a fruit?", "options": ["hammer", "apple"]},
}


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
