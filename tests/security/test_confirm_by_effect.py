"""Confirmation by what a submission or a click does, not by where the control sits or what it is called: real
headless Chromium with the real extension, the scripted LLM server, one executed candidate per test, the user's
answer a recording callback (tests/act/test_confirmation.py drives the same path). Each page offers its variants
of one class through ?v= (tests/fixtures/pages/sec_*.html)."""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest

from companion.act import ActionFailed, execute
from tests.support.llm_fixtures import llm_client_for, scripted_llm  # noqa: F401 (fixtures)
from tests.support.act_context import candidate_for, choice, text_of, User

pytestmark = pytest.mark.browser


def script(scripted_llm, llm_client_for, fields: int) -> None:
    """The model's part, whichever workflow the chosen element routes to: fill nothing and submit (a form of
    `fields` fields), or search for "tee" without a suggestion."""
    llm_client_for(scripted_llm(rules=[
        {"prompt": "dropdown_option", "responses": [choice(-1)]},
        {"prompt": "form_field_selection", "responses": ['{"indices": []}']},
        {"prompt": "form_review", "responses": [choice(fields, "submit")]},  # the fields, then Submit
        {"prompt": "search_query", "responses": ['{"value": "tee"}']},
        {"prompt": "search_suggestion", "responses": [choice(-1, "none fits")]},
    ]))


async def declined(ctx, name: str) -> ActionFailed:
    with pytest.raises(ActionFailed, match="declined by the user") as failed:
        await execute(ctx, candidate_for(ctx, name), "the task says so")
    return failed.value


@pytest.mark.parametrize("variant", ["button-before", "button-after", "input-submit", "inside-a-search-form"])
async def test_a_control_tied_to_a_form_by_its_form_attribute_submits_that_form_only_after_asking(
        variant, browser, open_page, make_ctx, scripted_llm, llm_client_for):
    """A control outside a POST form but tied to it by form="pay" (before it, after it, inside a harmless search
    form) submits that form: the click is asked first, naming the POST, and a no leaves the form unsent."""
    script(scripted_llm, llm_client_for, fields=1)
    open_page("sec_form_owner.html", query=f"v={variant}")
    user = User(yes=False)
    ctx = await make_ctx("Fertig klicken", confirm=user)
    await declined(ctx, "Fertig")
    assert text_of(browser, "#log") == ""
    assert len(user.asked) == 1 and "POST" in user.asked[0]


async def test_enter_in_a_search_submits_the_search_not_a_button_another_form_owns(browser, open_page, make_ctx,
                                                                                 scripted_llm, llm_client_for):
    """(no over-asking) Enter in a search field submits its own form with its own first submit button, as the
    browser does: a button sitting in the search form but tied to a POST form (form="pay") is neither the
    submitter nor a reason to ask."""
    script(scripted_llm, llm_client_for, fields=1)
    open_page("sec_form_owner.html", query="v=inside-a-search-form")
    user = User(yes=True)
    ctx = await make_ctx("Suche nach Tee", confirm=user)
    await execute(ctx, candidate_for(ctx, "Suche"), "search")
    assert text_of(browser, "#log") == "submitted find;"
    assert user.asked == []


FIELD_KINDS = [
    ("name-cardnumber", "payment card"), ("camel-cardNumber", "payment card"), ("name-cvc", "security code"),
    ("id-cvv", "security code"), ("name-pin", "PIN"), ("label-de-kreditkartennummer", "payment card"),
    ("placeholder-fr-numero-de-carte", "payment card"), ("aria-es-numero-de-tarjeta", "payment card"),
    ("label-for-de-pruefziffer", "security code"), ("label-ja-pin", "PIN"), ("name-iban", "bank account"),
    ("label-de-kontonummer", "bank account"), ("label-es-contrasena", "password"), ("label-de-betrag", "amount"),
    ("aria-ru-summa", "amount"), ("labelledby-it-importo", "amount"),
]


@pytest.mark.parametrize("variant,kind", FIELD_KINDS, ids=[v for v, _ in FIELD_KINDS])
async def test_a_field_named_for_a_card_pin_account_password_or_amount_makes_its_form_ask(
        variant, kind, browser, open_page, make_ctx, scripted_llm, llm_client_for):
    """A one-field GET form with an action is no site search when its field's name, id, placeholder or label
    says card number, CVC, PIN, IBAN, password or amount, in any language and without an autocomplete token:
    submitting it is asked, and the question says what the field is."""
    script(scripted_llm, llm_client_for, fields=1)
    open_page("sec_field_names.html", query=f"v={variant}")
    user = User(yes=False)
    ctx = await make_ctx("Los", confirm=user)
    await declined(ctx, "Los")
    assert text_of(browser, "#log") == ""
    assert len(user.asked) == 1 and kind in user.asked[0]


@pytest.mark.parametrize("variant", ["transfer-recipient", "wallet-address", "redeem-code"])
async def test_a_one_field_get_form_that_says_nothing_of_search_asks(variant, browser, open_page, make_ctx,
                                                                     scripted_llm, llm_client_for):
    """One GET text field and an action do not make a site search: a recipient, wallet or code box with nothing
    that says search (no role=search, <search>, type=search, search-like field or action name) is asked."""
    script(scripted_llm, llm_client_for, fields=1)
    open_page("sec_one_field_get.html", query=f"v={variant}")
    user = User(yes=False)
    ctx = await make_ctx("Los", confirm=user)
    await declined(ctx, "Los")
    assert text_of(browser, "#log") == ""
    assert len(user.asked) == 1 and "not a site search" in user.asked[0]


@pytest.mark.parametrize("variant", ["role-search", "search-element", "type-search", "name-q", "action-suche",
                                     "placeholder-es-buscar"])
async def test_a_real_one_field_search_still_goes_unasked(variant, browser, open_page, make_ctx, scripted_llm,
                                                          llm_client_for):
    """(no over-asking) A GET search that says so in one of the ways sites do, in any language, is submitted
    without a question."""
    script(scripted_llm, llm_client_for, fields=1)
    open_page("sec_one_field_get.html", query=f"v={variant}")
    user = User(yes=True)
    ctx = await make_ctx("Suche nach Tee", confirm=user)
    await execute(ctx, candidate_for(ctx, "Los"), "search")
    assert text_of(browser, "#log") == "submitted;"
    assert user.asked == []


@pytest.mark.parametrize("button_type", ["bogus", "", " submit", "menu", "submit-now"])
async def test_a_button_of_any_type_but_button_or_reset_submits_and_asks(button_type, browser, open_page, make_ctx,
                                                                         scripted_llm, llm_client_for):
    """The browser submits with a <button> whose type is missing, empty or unknown: such a button in a form that
    is no site search is a submit button, asked first; a no leaves the form unsent."""
    script(scripted_llm, llm_client_for, fields=2)
    open_page("sec_button_types.html", query=f"type={button_type}")
    user = User(yes=False)
    ctx = await make_ctx("Weiter", confirm=user)
    await declined(ctx, "Weiter")
    assert text_of(browser, "#log") == ""
    assert len(user.asked) == 1 and "it submits a form" in user.asked[0]


LINKS = [("post-de-bestellen", "Bestellen", "POST"), ("card-name-es-pagar", "Pagar", "payment card"),
         ("cc-autocomplete-fr-commander", "Commander", "payment card")]


@pytest.mark.parametrize("variant,name,why", LINKS, ids=[v for v, _, _ in LINKS])
async def test_a_link_inside_a_payment_or_post_form_asks_first(variant, name, why, browser, open_page, make_ctx,
                                                                scripted_llm, llm_client_for):
    """A plain navigating link inside a POST or payment form ("Bestellen") is asked before it is followed."""
    script(scripted_llm, llm_client_for, fields=1)
    url = open_page("sec_link_in_form.html", query=f"v={variant}")
    user = User(yes=False)
    ctx = await make_ctx(f"{name} klicken", confirm=user)
    await declined(ctx, name)
    assert browser.driver.current_url == url
    assert len(user.asked) == 1 and "link inside a form" in user.asked[0] and why in user.asked[0]


async def test_a_link_inside_a_search_form_is_not_asked(browser, pages, open_page, make_ctx, scripted_llm, llm_client_for):
    """(no over-asking) A link in a form that is no payment or POST form is followed unasked."""
    script(scripted_llm, llm_client_for, fields=1)
    open_page("sec_link_in_form.html", query="v=search-form-link")
    user = User(yes=True)
    ctx = await make_ctx("Open advanced search", confirm=user)
    await execute(ctx, candidate_for(ctx, "Advanced search"), "open it")
    assert browser.driver.current_url == pages.url("second.html") and user.asked == []


# (variant, element chosen, fields of its form)
TARGETS = [("form-attribute", "Fertig", 2), ("bogus-type", "Fertig", 2), ("formaction-of-its-button", "Name", 2),
           ("enter-in-a-search", "Suche", 1)]


@pytest.mark.parametrize("variant,name,fields", TARGETS, ids=[v for v, _, _ in TARGETS])
async def test_a_form_sending_the_browser_to_another_host_is_refused_under_allow_domain(
        variant, name, fields, browser, pages, open_page, make_ctx, scripted_llm, llm_client_for):
    """Under --allow-domain, where a submission goes (the submitting button's formaction, else its form's action;
    the form a form= button submits, a button of unknown type, the first submit button for Enter) is judged by
    the site rule as a link is: refused, even with the user saying yes to everything, and the browser stays."""
    script(scripted_llm, llm_client_for, fields=fields)
    open_page("sec_form_target.html", other=True, query=f"v={variant}")
    here = urlsplit(pages.base).netloc
    ctx = await make_ctx("Das Formular abschicken", confirm=User(yes=True), allowed_domains=[here])
    with pytest.raises(ActionFailed, match="outside the allowed domains"):
        await execute(ctx, candidate_for(ctx, name), "send it")
    assert urlsplit(browser.driver.current_url).netloc == here
