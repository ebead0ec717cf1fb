"""Query parameters whose names say secret, in several languages and their usual abbreviations, are recognised
by the words of the name (user_pw, cardNumber, mot_de_passe), so memory and recordings keep no value of theirs;
ordinary names keep their values (companion/urls.py)."""

from __future__ import annotations

import pytest

from companion import typed_secrets
from companion.memory.store import normalize_url
from companion.urls import REDACTED, scrub_text, scrub_url, secret_param

SECRET_NAMES = ["pw", "pwd", "pass", "passwd", "passcode", "passwort", "Passwort", "mot_de_passe", "motDePasse", "contrasena",
                "contrase%C3%B1a", "senha", "pin", "PIN", "cvc", "cvv", "CVV2", "csc", "card", "cardnumber", "cardNumber",
                "card_number", "cc", "ccnum", "cc-num", "iban", "ssn", "otp", "totp", "2fa", "user_pw", "userPwd",
                "login[password]", "new_pass", "security_code", "kennwort"]
ORDINARY_NAMES = ["page", "q", "sort", "slug", "lang", "id", "limit", "offset", "category", "passenger", "compass",
                  "zipcode", "pinned", "discard", "keyword", "monkey", "postcode", "colour"]


@pytest.mark.parametrize("name", SECRET_NAMES)
def test_a_name_that_says_secret_is_recognised_by_its_words(name):
    assert secret_param(name)


@pytest.mark.parametrize("name", ORDINARY_NAMES)
def test_an_ordinary_name_is_not_taken_for_a_secret(name):
    assert not secret_param(name)


def test_memory_and_recordings_keep_no_value_of_a_secret_named_parameter():
    typed_secrets.forget_all()  # what earlier tests typed is no concern here
    url = ("https://shop.example/login?user=alice&pw=p%40ss+w0rd&passcode=4821&cvc=913&cardnumber=4111111111111111"
           "&passwort=geheim99&page=2&q=teapot&sort=price")
    for kept in (normalize_url(url), scrub_url(url), scrub_text(f"went to {url} then")):
        for value in ("p%40ss", "p@ss", "4821", "913", "4111111111111111", "geheim99"):
            assert value not in kept, (value, kept)
        assert "user=alice" in kept and "page=2" in kept and "q=teapot" in kept and "sort=price" in kept
        assert f"pw={REDACTED}" in kept
