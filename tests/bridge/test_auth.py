"""The pairing token: created once, private, reused, and compared in constant time."""

import stat

import pytest

from companion.bridge.auth import (
    EXTENSION_ORIGIN, SUBPROTOCOL, TokenError, handshake_refusal, load_or_create_token, token_matches, token_path,
)


def test_token_is_created_on_first_start_with_mode_0600(tmp_path):
    token = load_or_create_token(tmp_path)
    path = token_path(tmp_path)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert len(token) >= 32 and path.read_text().strip() == token


def test_token_is_reused_on_later_starts(tmp_path):
    assert load_or_create_token(tmp_path) == load_or_create_token(tmp_path)


def test_default_location_follows_webchallenger_config_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("WEBCHALLENGER_CONFIG_DIR", str(tmp_path / "cfg"))
    token = load_or_create_token()
    assert (tmp_path / "cfg" / "token").read_text().strip() == token


def test_loose_permissions_are_tightened(tmp_path):
    load_or_create_token(tmp_path)
    token_path(tmp_path).chmod(0o644)
    load_or_create_token(tmp_path)
    assert stat.S_IMODE(token_path(tmp_path).stat().st_mode) == 0o600


def test_corrupt_token_file_is_a_clear_error_and_left_alone(tmp_path):
    token_path(tmp_path).write_text("short\n")
    with pytest.raises(TokenError, match="delete it"):
        load_or_create_token(tmp_path)
    assert token_path(tmp_path).read_text() == "short\n"


def test_token_comparison():
    assert token_matches("a" * 43, "a" * 43)
    assert not token_matches("a" * 43, "a" * 42 + "b")
    assert not token_matches("", "a" * 43)


@pytest.mark.parametrize("origin, protocols, reason", [
    (None, [SUBPROTOCOL, "auth." + "T" * 40], "no Origin"),
    ("http://127.0.0.1:8000", [SUBPROTOCOL, "auth." + "T" * 40], "not allowed"),
    ("chrome-extension://aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", [SUBPROTOCOL, "auth." + "T" * 40], "not allowed"),
    (EXTENSION_ORIGIN, ["auth." + "T" * 40], "subprotocol"),
    (EXTENSION_ORIGIN, [SUBPROTOCOL], "no auth token"),
    (EXTENSION_ORIGIN, [SUBPROTOCOL, "auth." + "X" * 40], "wrong auth token"),
])
def test_handshake_refusals_say_why_without_the_token(origin, protocols, reason):
    refusal = handshake_refusal(origin, protocols, "T" * 40, (EXTENSION_ORIGIN,))
    assert refusal is not None and reason in refusal
    assert "T" * 10 not in refusal and "X" * 10 not in refusal


def test_handshake_accepts_the_extension_with_its_token():
    assert handshake_refusal(EXTENSION_ORIGIN, [SUBPROTOCOL, "auth." + "T" * 40], "T" * 40, (EXTENSION_ORIGIN,)) is None
