"""Confirmation by what an action does, not by its words: real headless Chromium with the real extension, the
scripted LLM server, one executed candidate per test. The user's answer is a recording callback: a test
declines and then checks the page saw nothing, or approves everything and checks nothing was asked.
"""

from __future__ import annotations

import pytest
from selenium.webdriver.common.by import By

from companion.act import ActionFailed, execute
from companion.act.form_effect import origin_of
from tests.support.act_context import candidate_for, choice, text_of, User

pytestmark = pytest.mark.browser


CHECKOUT_BUTTONS = ["Buy now", "Confirm", "Submit", "Complete order", "Proceed", "Approve", "Jetzt kaufen"]


@pytest.mark.parametrize("name", CHECKOUT_BUTTONS)
async def test_a_div_button_inside_a_checkout_form_asks_first(name, browser, open_page, make_ctx, scripted_llm, llm_client_for):
    # A button whose words read like a submit goes through SubmitForm (fill nothing, then submit with it); the
    # others are clicked (and opened as a possible dropdown). Either way the click is asked about first.
    llm_client_for(scripted_llm(rules=[{"prompt": "dropdown_option", "responses": [choice(-1)]},
                                       {"prompt": "form_field_selection", "responses": ['{"indices": []}']},
                                       {"prompt": "form_review", "responses": [choice(3, "submit")]}]))  # 3 fields, then Submit
    open_page("conf_checkout.html")
    user = User(yes=False)
    ctx = await make_ctx("Pay for the kettle", confirm=user)
    with pytest.raises(ActionFailed, match="declined by the user"):
        await execute(ctx, candidate_for(ctx, name), "the page says so")
    assert text_of(browser, "#log") == ""  # the click never happened
    assert len(user.asked) == 1 and name in user.asked[0] and "payment card field" in user.asked[0]


async def test_the_question_names_a_div_button_by_its_words_not_its_role(browser, open_page, make_ctx, scripted_llm, llm_client_for):
    """A clickable div has no role a person knows ("generic"): the question quotes its words alone."""
    llm_client_for(scripted_llm(rules=[{"prompt": "dropdown_option", "responses": [choice(-1)]},
                                       {"prompt": "form_field_selection", "responses": ['{"indices": []}']},
                                       {"prompt": "form_review", "responses": [choice(3, "submit")]}]))
    open_page("conf_checkout.html")
    user = User(yes=False)
    ctx = await make_ctx("Pay for the kettle", confirm=user)
    with pytest.raises(ActionFailed, match="declined by the user"):
        await execute(ctx, candidate_for(ctx, "Buy now"), "the page says so")
    assert len(user.asked) == 1 and user.asked[0].startswith('Click "Buy now" on '), user.asked


async def test_a_div_button_outside_any_sensitive_form_is_not_asked(browser, open_page, make_ctx, scripted_llm, llm_client_for):
    llm_client_for(scripted_llm(rules=[{"prompt": "dropdown_option", "responses": [choice(-1)]}]))
    open_page("conf_checkout.html")
    user = User(yes=True)
    ctx = await make_ctx("Show the delivery details", confirm=user)
    await execute(ctx, candidate_for(ctx, "Show delivery details"), "look")
    assert text_of(browser, "#log") == "details;" and user.asked == []


async def test_a_button_in_a_checkout_built_without_a_form_asks_first(browser, open_page, make_ctx, scripted_llm, llm_client_for):
    llm_client_for(scripted_llm(rules=[{"prompt": "dropdown_option", "responses": [choice(-1)]}]))
    open_page("conf_divcheckout.html")
    user = User(yes=False)
    ctx = await make_ctx("Pay", confirm=user)
    with pytest.raises(ActionFailed, match="declined by the user"):
        await execute(ctx, candidate_for(ctx, "Weiter"), "continue")
    assert text_of(browser, "#log") == ""
    assert len(user.asked) == 1 and "Weiter" in user.asked[0] and "payment card field" in user.asked[0]


async def test_a_button_inside_a_post_form_asks_first(browser, open_page, make_ctx, scripted_llm, llm_client_for):
    llm_client_for(scripted_llm(rules=[{"prompt": "dropdown_option", "responses": [choice(-1)]},
                                       {"prompt": "form_field_selection", "responses": ['{"indices": []}']},
                                       {"prompt": "form_review", "responses": [choice(1, "submit")]}]))  # 1 field, then Submit
    open_page("conf_post.html")
    user = User(yes=False)
    ctx = await make_ctx("Save my preferences", confirm=user)
    with pytest.raises(ActionFailed, match="declined by the user"):
        await execute(ctx, candidate_for(ctx, "OK"), "save")
    assert text_of(browser, "#log") == ""
    assert len(user.asked) == 1 and "POST" in user.asked[0]


async def test_a_payment_form_labelled_search_asks_before_enter(browser, open_page, make_ctx, scripted_llm, llm_client_for):
    llm_client_for(scripted_llm(rules=[
        {"prompt": "search_query", "responses": ['{"value": "4111111111111111"}']},
        {"prompt": "search_suggestion", "responses": [choice(-1, "the typed text")]},
    ]))
    open_page("conf_disguised.html")
    user = User(yes=False)
    ctx = await make_ctx("Search for kettles", confirm=user)
    with pytest.raises(ActionFailed, match="declined by the user") as failed:
        await execute(ctx, candidate_for(ctx, "Search"), "search")
    assert text_of(browser, "#log") == ""  # never submitted
    assert len(user.asked) == 1 and user.asked[0].startswith('Press Enter in the field "Search"')
    assert "payment card field" in user.asked[0]
    assert len(failed.value.done) == 1 and failed.value.done[0].endswith('into textbox "Search"')  # typed, not sent


async def test_a_suggestion_inside_a_form_that_is_no_real_search_asks_first(browser, open_page, make_ctx, scripted_llm, llm_client_for):
    llm_client_for(scripted_llm(rules=[
        {"prompt": "search_query", "responses": ['{"value": "blue"}']},
        {"prompt": "search_suggestion", "responses": [choice(0, "the suggestion fits")]},
    ]))
    open_page("conf_disguised.html")
    user = User(yes=False)
    ctx = await make_ctx("Search for blue kettles", confirm=user)
    with pytest.raises(ActionFailed, match="declined by the user"):
        await execute(ctx, candidate_for(ctx, "Search"), "search")
    assert text_of(browser, "#log") == ""
    # The suggestion repeats what was typed into the card field: the snapshot masks that copy too.
    assert len(user.asked) == 1 and user.asked[0].startswith('Click the button "[secret] kettle"') and "suggestion" in user.asked[0]


async def test_a_real_get_search_with_a_suggestion_and_enter_asks_nothing(browser, open_page, make_ctx, scripted_llm, llm_client_for):
    llm_client_for(scripted_llm(rules=[
        {"prompt": "search_query", "responses": ['{"value": "red k"}']},
        {"prompt": "search_suggestion", "responses": [choice(1, "electric is wanted")]},
    ]))
    open_page("act_search.html")
    user = User(yes=True)
    ctx = await make_ctx("Find an electric red kettle", confirm=user)
    outcome = await execute(ctx, candidate_for(ctx, "Search products"), "search for it")
    assert text_of(browser, "#results") == "Results for: red kettle electric"
    assert outcome.actions[-1] == 'Pressed Enter in searchbox "Search products"'
    assert user.asked == []


async def test_a_real_search_is_known_by_what_it_does_not_by_its_words(browser, open_page, make_ctx, scripted_llm, llm_client_for):
    # German, no role=search, no "search" anywhere: GET, one text field and an action URL make it a site search.
    llm_client_for(scripted_llm(rules=[
        {"prompt": "form_field_selection", "responses": ['{"indices": [0]}']},
        {"prompt": "field_value", "responses": ['{"value": "Rooibos"}']},
        {"prompt": "form_review", "responses": [choice(1, "submit")]},  # [0] edit, [1] submit
    ]))
    open_page("conf_suche.html")
    user = User(yes=True)
    ctx = await make_ctx("Suche nach Rooibos", confirm=user)
    await execute(ctx, candidate_for(ctx, "Begriff"), "suchen")
    assert text_of(browser, "#results") == "Treffer für: Rooibos"
    assert user.asked == []


async def test_typing_into_a_field_of_another_origins_frame_asks_naming_that_origin(browser, open_page, pages, make_ctx,
                                                                                   scripted_llm, llm_client_for):
    llm_client_for(scripted_llm(rules=[{"prompt": "input_value", "responses": ['{"value": "Ann Smith"}']}]))
    page = open_page("conf_frame.html", other=True)
    user = User(yes=False)
    ctx = await make_ctx("Enter Ann Smith as the card holder", confirm=user)
    for _ in range(20):  # the frame loads after the page
        if any(e.name == "Card holder" for e in ctx.pagemem.all_elements()):
            break
        await ctx.refresh()
    with pytest.raises(ActionFailed, match="declined by the user"):
        await execute(ctx, candidate_for(ctx, "Card holder"), "fill it")
    frame_origin = origin_of(pages.other_base)
    assert frame_origin != origin_of(page)
    assert len(user.asked) == 1 and f"in a frame from {frame_origin}" in user.asked[0]
    browser.driver.switch_to.frame(browser.driver.find_element(By.ID, "card"))
    try:
        assert browser.driver.find_element(By.ID, "holder").get_attribute("value") == ""  # nothing was typed
    finally:
        browser.driver.switch_to.default_content()


async def test_typing_into_another_origins_frame_once_approved_is_not_asked_again(browser, open_page, make_ctx,
                                                                                scripted_llm, llm_client_for):
    llm_client_for(scripted_llm(rules=[{"prompt": "input_value", "responses": ['{"value": "Ann"}', '{"value": "Ann Smith"}']}]))
    open_page("conf_frame.html", other=True)
    user = User(yes=True)
    ctx = await make_ctx("Enter Ann Smith as the card holder", confirm=user)
    for _ in range(20):
        if any(e.name == "Card holder" for e in ctx.pagemem.all_elements()):
            break
        await ctx.refresh()
    await execute(ctx, candidate_for(ctx, "Card holder"), "fill it")
    await execute(ctx, candidate_for(ctx, "Card holder"), "fill it again")
    assert len(user.asked) == 1  # one yes per origin and document


def test_a_question_about_a_form_in_another_origins_frame_names_that_origin(pages, tmp_path):
    """(pure) A form in another origin's frame: the submit question names that origin next to the page."""
    from companion.act.confirmation import needs_confirmation, place
    from companion.act.context import AgentContext
    from companion.act.form_effect import read_page_facts
    from companion.pagemem.divide import divide_page
    from companion.protocol import Box, FrameSnapshot, Scroll, Snapshot, SnapshotElement, Viewport

    top = pages.url("conf_frame.html")
    child = pages.other_url("pay.html")
    box = Box(x=0, y=0, w=100, h=20)
    snap = Snapshot(url=top, title="t", viewport=Viewport(width=800, height=600), scroll=Scroll(), frames=[
        FrameSnapshot(frame=0, url=top, elements=[SnapshotElement(id=1, tag="html"), SnapshotElement(id=2, parent=1, tag="body"),
                                                   SnapshotElement(id=3, parent=2, tag="iframe", child_frame=5)]),
        FrameSnapshot(frame=5, parent_frame=0, url=child, elements=[
            SnapshotElement(id=1, tag="html"), SnapshotElement(id=2, parent=1, tag="form", attrs={"method": "post"}),
            SnapshotElement(id=3, parent=2, tag="input", attrs={"autocomplete": "cc-number"}, interactive=True, visible=True, box=box),
            SnapshotElement(id=4, parent=2, tag="button", text="Pay", interactive=True, visible=True, box=box)]),
    ])
    ctx = AgentContext(session=None, task="t", files_dir=tmp_path, pagemem=divide_page(snap))  # type: ignore[arg-type]
    ctx.page_facts = read_page_facts(snap)
    button = next(e for e in ctx.pagemem.all_elements() if e.tag == "button")
    assert "payment card field" in needs_confirmation(ctx, "click", button)
    assert place(ctx, button) == f"in a frame from {origin_of(child)} on {top}"


def test_the_task_the_users_confirmation_and_the_nonce_are_fixed_for_the_task(tmp_path):
    """(pure) No later code path, whatever a page or model says, can swap the task or skip the user's yes."""
    from companion.act.context import AgentContext

    ctx = AgentContext(session=None, task="Find the kettle", files_dir=tmp_path)  # type: ignore[arg-type]
    for name, value in (("task", "click Delete account"), ("confirm", User(yes=True)), ("nonce", "0000000000")):
        with pytest.raises(AttributeError, match="fixed for the whole task"):
            setattr(ctx, name, value)
    assert ctx.task == "Find the kettle"
