"""Workflows end to end: real headless Chromium with the real extension, the scripted LLM server over HTTP.

Each test opens a tiny fixture page, builds an AgentContext on it, executes one candidate and checks what
the page shows afterwards (read through Selenium) and the basic action strings reported for the history.
"""

from __future__ import annotations

import json

import pytest
from selenium.webdriver.common.by import By

from companion.act import ActionFailed, Candidate, execute
from companion.act.errors import NoOp
from tests.support.act_context import candidate_for, choice, text_of

pytestmark = pytest.mark.browser


def login_script(scripted_llm, llm_client_for):
    server = scripted_llm(rules=[
        {"prompt": "form_field_selection", "responses": ['{"indices": [0, 1]}']},
        {"prompt": "field_value", "pattern": r'Field: textbox "Username"', "responses": ['{"value": "alice"}']},
        {"prompt": "field_value", "pattern": r'Field: textbox "Password"', "responses": ['{"value": "hunter22"}']},
        {"prompt": "form_review", "responses": [choice(3, "both fields filled, submit")]},  # 3 fields, then Submit
    ])
    llm_client_for(server)
    return server


async def test_login_form_is_filled_and_submitted_in_one_call(browser, open_page, make_ctx, scripted_llm, llm_client_for):
    server = login_script(scripted_llm, llm_client_for)
    open_page("act_login.html")
    asked: list[str] = []

    async def confirm(description: str) -> bool:
        asked.append(description)
        return True

    ctx = await make_ctx("Log in as alice with password hunter22", confirm=confirm)
    outcome = await execute(ctx, candidate_for(ctx, "Username"), "log in first")

    assert text_of(browser, "#result") == "Logged in as alice (password length 8)"
    assert outcome.actions == ['Typed "alice" into textbox "Username"', 'Typed a password into textbox "Password"',
                               'Submitted the form with button "Log in"']
    assert [r.prompt for r in server.requests] == ["form_field_selection", "field_value", "field_value", "form_review"]
    assert len(asked) == 1 and "hunter22" not in asked[0] and "Log in" in asked[0]
    # The review saw the password as filled, never its value.
    review = server.requests[-1].last_user.split("Current values:")[1].split("Options:")[0]  # the task may say it
    assert 'textbox "Password" type=password (filled)' in review and "hunter22" not in review


async def test_declined_confirmation_blocks_the_submission(browser, open_page, make_ctx, scripted_llm, llm_client_for):
    login_script(scripted_llm, llm_client_for)
    open_page("act_login.html")

    async def decline(description: str) -> bool:
        return False

    ctx = await make_ctx("Log in as alice with password hunter22", confirm=decline)
    with pytest.raises(ActionFailed, match="declined by the user") as failed:
        await execute(ctx, candidate_for(ctx, "Log in"), "submit")
    assert text_of(browser, "#result") == ""
    assert failed.value.done == ['Typed "alice" into textbox "Username"', 'Typed a password into textbox "Password"']


async def test_validation_pass_refills_a_field_the_page_marks_invalid(browser, open_page, make_ctx, scripted_llm, llm_client_for):
    server = scripted_llm(rules=[
        {"prompt": "form_field_selection", "responses": ['{"indices": [0]}']},
        {"prompt": "field_value", "pattern": "rejected", "responses": ['{"value": "bob@example.com"}']},
        {"prompt": "field_value", "responses": ['{"value": "bob"}']},
        {"prompt": "form_review", "responses": [choice(1)]},  # [0] edit Email, [1] Submit
    ])
    llm_client_for(server)
    open_page("act_signup.html")
    ctx = await make_ctx("Sign up as bob@example.com")
    outcome = await execute(ctx, candidate_for(ctx, "Email"), "sign up")
    assert text_of(browser, "#result") == "Welcome bob@example.com"
    assert outcome.actions == ['Typed "bob" into textbox "Email"', 'Typed "bob@example.com" into textbox "Email"',
                               'Submitted the form with button "Sign up"']
    problem = [r.last_user for r in server.requests if r.prompt == "field_value"][1]
    assert "The previous value was rejected: the page marks this field as invalid" in problem


async def test_custom_dropdown_option_is_chosen_from_the_revealed_elements(browser, open_page, make_ctx, scripted_llm, llm_client_for):
    server = scripted_llm(rules=[{"prompt": "dropdown_option", "responses": [choice(1, "blue is asked for")]}])
    llm_client_for(server)
    open_page("act_dropdown.html")
    ctx = await make_ctx("Choose the ocean blue paint")
    trigger = candidate_for(ctx, "Choose a colour")
    outcome = await execute(ctx, trigger, "open the colour picker")

    assert text_of(browser, "#chosen") == "Ocean blue"
    assert outcome.actions == ['Clicked button "Choose a colour"', 'Clicked option "Ocean blue"']
    shown = server.requests[0].last_user
    assert '[0] option "Crimson red"\n[1] option "Ocean blue"\n[2] option "Forest green"' in shown
    # The net change over the workflow's refreshes: the options came and went, the trigger now shows the choice.
    assert outcome.changes.added_elements == []
    assert [c.after.name for d in outcome.changes.diffs.values() for c in d.modified] == ["Ocean blue"]
    # The caller's own refresh afterwards reports the same net change, not an empty diff.
    after = await ctx.refresh()
    assert [c.after.name for d in after.diffs.values() for c in d.modified] == ["Ocean blue"]
    assert [c.after.name for d in (await ctx.refresh()).diffs.values() for c in d.modified] == []  # told once
    # What the trigger revealed is remembered for ElementAction's "known dropdown" branch.
    assert len(ctx.pagemem.element_by_ref(trigger.element).dropdown_elements) == 3


async def test_revealed_form_like_cluster_goes_to_submit_form(browser, open_page, make_ctx, scripted_llm, llm_client_for):
    server = scripted_llm(rules=[
        {"prompt": "form_field_selection", "responses": ['{"indices": [0, 1]}']},
        {"prompt": "field_value", "pattern": 'Field: textbox "Your name"', "responses": ['{"value": "Ann"}']},
        {"prompt": "field_value", "pattern": 'Field: textbox "Email address"', "responses": ['{"value": "ann@example.com"}']},
        {"prompt": "form_review", "responses": [choice(2)]},  # [0] [1] edit, [2] Submit
    ])
    llm_client_for(server)
    open_page("act_reveal.html")
    ctx = await make_ctx("Subscribe to alerts as Ann, ann@example.com")
    outcome = await execute(ctx, candidate_for(ctx, "Get alerts"), "alerts are asked for")
    assert text_of(browser, "#result") == "Subscribed Ann <ann@example.com>"
    assert outcome.actions == ['Clicked button "Get alerts"', 'Typed "Ann" into textbox "Your name"',
                               'Typed "ann@example.com" into textbox "Email address"', 'Submitted the form with button "Subscribe"']
    assert "dropdown_option" not in [r.prompt for r in server.requests]


async def test_search_offers_suggestions_then_presses_enter(browser, open_page, make_ctx, scripted_llm, llm_client_for):
    server = scripted_llm(rules=[
        {"prompt": "search_query", "responses": ['{"value": "red k"}']},
        {"prompt": "search_suggestion", "responses": [choice(1, "electric is wanted")]},
    ])
    llm_client_for(server)
    url = open_page("act_search.html")
    ctx = await make_ctx("Find an electric red kettle")
    outcome = await execute(ctx, candidate_for(ctx, "Search products"), "search for it")

    assert outcome.url_changed
    assert text_of(browser, "#results") == "Results for: red kettle electric"
    assert outcome.actions == ['Typed "red k" into searchbox "Search products"', 'Clicked button "red kettle electric"',
                               'Pressed Enter in searchbox "Search products"']
    assert '[0] button "red kettle"\n[1] button "red kettle electric"' in server.requests[1].last_user
    assert ctx.pagemem.url != url and "q=red+kettle+electric" in ctx.pagemem.url


async def test_search_can_ignore_the_suggestions(browser, open_page, make_ctx, scripted_llm, llm_client_for):
    server = scripted_llm(rules=[
        {"prompt": "search_query", "responses": ['{"value": "blue kettle"}']},
        {"prompt": "search_suggestion", "responses": [choice(-1, "typed text is right")]},
    ])
    llm_client_for(server)
    open_page("act_search.html")
    ctx = await make_ctx("Find a blue kettle")
    outcome = await execute(ctx, candidate_for(ctx, "Search products"), "search")
    assert text_of(browser, "#results") == "Results for: blue kettle"
    assert outcome.actions == ['Typed "blue kettle" into searchbox "Search products"', 'Pressed Enter in searchbox "Search products"']


async def test_a_typed_value_that_only_names_the_input_is_asked_again(browser, open_page, make_ctx, scripted_llm, llm_client_for):
    server = scripted_llm(rules=[
        {"prompt": "search_query", "responses": ['{"value": "searchbox \'Search products\'"}', '{"value": "blue kettle"}']},
        {"prompt": "search_suggestion", "responses": [choice(-1, "typed text is right")]},
    ])
    llm_client_for(server)
    open_page("act_search.html")
    ctx = await make_ctx("Find a blue kettle")
    outcome = await execute(ctx, candidate_for(ctx, "Search products"), "search")
    assert text_of(browser, "#results") == "Results for: blue kettle"
    first, second = [r.last_user for r in server.requests if r.prompt == "search_query"]
    assert "Not \"searchbox 'Search products'\"" in second and "Not " not in first
    assert outcome.actions[0] == 'Typed "blue kettle" into searchbox "Search products"'


async def test_a_search_given_no_query_twice_is_not_pressed(browser, open_page, make_ctx, scripted_llm, llm_client_for):
    # The default model named the box twice on a search task: the box was clicked, and Enter searched for nothing.
    server = scripted_llm(rules=[
        {"prompt": "search_query", "responses": ['{"value": "Search products"}', '{"value": ""}']},
    ])
    llm_client_for(server)
    url = open_page("act_search.html")
    ctx = await make_ctx("Find a blue kettle")
    with pytest.raises(ActionFailed, match="no query to search for") as failed:
        await execute(ctx, candidate_for(ctx, "Search products"), "search")
    assert failed.value.done == ['Clicked searchbox "Search products"']  # what did happen is kept for the history
    assert browser.driver.current_url == url and text_of(browser, "#results") == ""


async def test_searching_again_for_the_results_shown_is_a_no_op(browser, open_page, make_ctx, scripted_llm, llm_client_for):
    # On its results page the default model typed the same words again and pressed Enter, step after step.
    llm_client_for(scripted_llm(rules=[{"prompt": "search_query", "responses": ['{"value": "Blue Kettle"}']}]))
    url = open_page("act_search.html", query="q=blue+kettle")
    ctx = await make_ctx("Find a blue kettle")
    with pytest.raises(NoOp, match='already shows the results for "Blue Kettle"') as failed:
        await execute(ctx, candidate_for(ctx, "Search products"), "search")
    assert failed.value.done == ['Typed "Blue Kettle" into searchbox "Search products"']  # typed, not pressed
    assert failed.value.would_be == 'Pressed Enter in searchbox "Search products"'
    assert browser.driver.current_url == url


async def test_a_new_query_on_a_results_page_is_searched(browser, open_page, make_ctx, scripted_llm, llm_client_for):
    llm_client_for(scripted_llm(rules=[
        {"prompt": "search_query", "responses": ['{"value": "blue kettles"}']},
        {"prompt": "search_suggestion", "responses": [choice(-1, "typed text is right")]},
    ]))
    open_page("act_search.html", query="q=blue+kettle")
    ctx = await make_ctx("Find blue kettles")
    outcome = await execute(ctx, candidate_for(ctx, "Search products"), "search")
    assert outcome.url_changed and text_of(browser, "#results") == "Results for: blue kettles"


async def test_native_select_option_is_set(browser, open_page, make_ctx, scripted_llm, llm_client_for):
    server = scripted_llm(rules=[{"prompt": "select_option", "responses": [choice(1)]}])
    llm_client_for(server)
    open_page("act_select.html")
    ctx = await make_ctx("Ship it in two days")
    outcome = await execute(ctx, candidate_for(ctx, "Shipping speed"), "pick shipping")
    assert text_of(browser, "#chosen") == "Express (2 days)"
    assert outcome.actions == ['Selected "Express (2 days)" in combobox "Shipping speed"']
    assert "[2] Overnight" in server.requests[0].last_user
    # The options appear once, numbered: an unnumbered inline copy invited off-by-one picks from small models.
    assert 'Select: combobox "Shipping speed" value="Standard (5 days)"\n' in server.requests[0].last_user


async def test_upload_writes_a_new_text_file_the_page_can_read(browser, open_page, make_ctx, scripted_llm, llm_client_for):
    server = scripted_llm(rules=[
        {"prompt": "new_file_content", "responses": ['{"filename": "notes.txt", "content": "buy a red kettle"}']},
    ])
    llm_client_for(server)
    open_page("act_upload.html")
    ctx = await make_ctx("Upload a note saying: buy a red kettle")
    outcome = await execute(ctx, candidate_for(ctx, "Notes file"), "attach the note")
    browser_text = text_of(browser, "#shown")
    assert browser_text == "notes.txt: buy a red kettle"
    assert (ctx.files_dir / "notes.txt").read_text() == "buy a red kettle"
    assert outcome.actions == ['Created text file "notes.txt" (16 characters)', 'Uploaded a new text file "notes.txt" to button "Notes file"']
    assert [r.prompt for r in server.requests] == ["new_file_content"]  # nothing staged: no choice to make


async def test_upload_chooses_a_staged_file(browser, open_page, make_ctx, scripted_llm, llm_client_for):
    server = scripted_llm(rules=[{"prompt": "upload_file_choice", "responses": [choice(1)]}])
    llm_client_for(server)
    open_page("act_upload.html")
    ctx = await make_ctx("Upload the shopping list")
    ctx.files_dir.mkdir(parents=True)
    (ctx.files_dir / "holiday.txt").write_text("beach")
    (ctx.files_dir / "list.txt").write_text("kettle, tea")
    outcome = await execute(ctx, candidate_for(ctx, "Notes file"), "attach the list")
    assert text_of(browser, "#shown") == "list.txt: kettle, tea"
    assert outcome.actions == ['Uploaded file "list.txt" to button "Notes file"']
    assert "[1] list.txt (11 bytes): kettle, tea\n[2] Create a new text file" in server.requests[0].last_user


async def test_stale_element_raises_action_failed(browser, open_page, make_ctx, scripted_llm, llm_client_for):
    llm_client_for(scripted_llm())  # no LLM call expected: an exhausted script would fail loudly
    open_page("act_stale.html")
    ctx = await make_ctx("Claim the offer")
    offer = candidate_for(ctx, "Claim offer")
    browser.driver.find_element(By.ID, "expire").click()  # the page removes the button behind the agent's back
    with pytest.raises(ActionFailed, match="no longer on the page|failed"):
        await execute(ctx, offer, "claim it")
    assert text_of(browser, "#log") == ""


async def test_irreversible_click_asks_first_and_declining_blocks_it(browser, open_page, make_ctx, scripted_llm, llm_client_for):
    llm_client_for(scripted_llm())
    open_page("act_stale.html")
    asked: list[str] = []

    async def decline(description: str) -> bool:
        asked.append(description)
        return False

    ctx = await make_ctx("Delete all offers", confirm=decline)
    with pytest.raises(ActionFailed, match="declined by the user"):
        await execute(ctx, candidate_for(ctx, "Delete all offers"), "the task says so")
    assert len(asked) == 1 and "Delete all offers" in asked[0]
    assert text_of(browser, "#log") == ""


async def test_copy_to_clipboard_logs_the_copied_text(browser, open_page, make_ctx, scripted_llm, llm_client_for):
    llm_client_for(scripted_llm())
    open_page("act_copy.html")
    ctx = await make_ctx("Copy the discount code")
    outcome = await execute(ctx, candidate_for(ctx, "Copy code"), "copy it")
    assert text_of(browser, "#log") == "copied"
    assert outcome.actions == ['Copied "SAVE10" to the clipboard with button "Copy code"']


async def test_type_url_navigates_and_an_invalid_url_fails(browser, open_page, pages, make_ctx, scripted_llm, llm_client_for):
    target = pages.url("act_select.html")
    server = scripted_llm(rules=[{"prompt": "input_value", "responses": ['{"value": "not a url"}', json.dumps({"value": target})]}])
    llm_client_for(server)
    open_page("act_copy.html")
    ctx = await make_ctx("Open the checkout options page")
    with pytest.raises(ActionFailed, match="not a full URL"):
        await execute(ctx, Candidate(kind="type_url", label="type a URL"), "go there")
    outcome = await execute(ctx, Candidate(kind="type_url", label="type a URL"), "go there")
    assert outcome.url_changed and outcome.actions == [f"Navigated to {target}"]
    assert ctx.pagemem.url == target and ctx.visited_urls[-1] == target
    assert "address bar" in server.requests[0].last_user


async def test_typing_the_current_pages_url_is_a_no_op(browser, open_page, make_ctx, scripted_llm, llm_client_for):
    # A reload shows nothing new and undoes what was done on the page (a MiniWoB episode restarts).
    url = open_page("act_copy.html")
    llm_client_for(scripted_llm(rules=[{"prompt": "input_value", "responses": [json.dumps({"value": url + "#top"})]}]))
    ctx = await make_ctx("Copy the discount code")
    browser.driver.execute_script("window.mark = 1")
    with pytest.raises(NoOp, match="current page's URL"):
        await execute(ctx, Candidate(kind="type_url", label="type a URL"), "go there")
    assert browser.driver.execute_script("return window.mark") == 1  # not reloaded


async def test_non_web_urls_are_refused(browser, open_page, make_ctx):
    open_page("act_copy.html")
    ctx = await make_ctx("Read a local file")
    for url in ("file:///etc/passwd", "javascript:alert(1)", "chrome://settings"):
        with pytest.raises(ActionFailed, match="URLs are never opened"):
            await execute(ctx, Candidate(kind="navigate", label=url, url=url), "go")
    assert ctx.pagemem.url.endswith("act_copy.html")


async def test_switch_tab_addresses_the_other_tab_from_then_on(browser, open_page, pages, make_ctx):
    open_page("act_copy.html")
    ctx = await make_ctx("Compare with the other tab")
    original = browser.driver.current_window_handle
    other = await browser.session.open_tab(pages.url("act_select.html"), active=False)  # the user's view stays put
    try:
        tabs = await ctx.refresh_tabs()
        assert len(tabs) == 2
        outcome = await execute(ctx, Candidate(kind="switch_tab", label="other", tab_id=other.tab_id), "look there")
        assert outcome.url_changed and outcome.actions[0].startswith(f"Switched to tab {other.tab_id}")
        assert ctx.tab == other.tab_id and ctx.pagemem.url.endswith("act_select.html")
    finally:
        for handle in browser.driver.window_handles:
            if handle != original:
                browser.driver.switch_to.window(handle)
                browser.driver.close()
        browser.driver.switch_to.window(original)


async def test_a_reload_of_the_same_url_is_a_new_document(browser, open_page, make_ctx):
    open_page("act_copy.html")
    ctx = await make_ctx("Look twice")
    await ctx.refresh()
    assert not ctx.page_changed  # same document: diffed, not rebuilt
    browser.driver.refresh()
    await ctx.refresh()
    assert ctx.page_changed  # element ids restart in the new document: rebuilt, not diffed


async def test_a_typed_url_to_a_site_the_task_never_named_fails(browser, open_page, pages, make_ctx, scripted_llm, llm_client_for):
    named = pages.url("act_select.html").replace("127.0.0.1", "localhost")
    server = scripted_llm(rules=[{"prompt": "input_value", "responses": ['{"value": "http://www.kettle-shop.example/blue"}',
                                                                         json.dumps({"value": named})]}])
    llm_client_for(server)
    open_page("act_copy.html")
    ctx = await make_ctx("Open the checkout options page on localhost")
    with pytest.raises(ActionFailed, match="kettle-shop.example is neither named in the task nor a site visited"):
        await execute(ctx, Candidate(kind="type_url", label="type a URL"), "guess a site")
    assert ctx.pagemem.url.endswith("act_copy.html")  # nothing was navigated
    outcome = await execute(ctx, Candidate(kind="type_url", label="type a URL"), "the task names it")
    assert outcome.url_changed and ctx.pagemem.url == named
