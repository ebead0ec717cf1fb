"""The pairing token: created once, private, reused; the proofs over it, and the handshake checks."""

import base64
import hashlib
import hmac
import stat

import pytest

from companion.bridge.auth import (
    EXTENSION_ORIGIN, SUBPROTOCOL, TokenError, companion_proof, extension_proof, handshake_refusal, load_or_create_token,
    new_nonce, proof_matches, token_path,
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


def test_proofs_are_bound_to_role_port_and_both_nonces():
    token, a, b = "T" * 43, new_nonce(), new_nonce()
    proof = companion_proof(token, 47611, a, b)
    assert len(proof) == 43 and proof_matches(proof, companion_proof(token, 47611, a, b))
    others = [
        extension_proof(token, 47611, a, b),  # the other role: a proof cannot be reflected
        companion_proof(token, 47612, a, b),  # another port: a relay on another port cannot pass it on
        companion_proof(token, 47611, b, a),  # the nonces the other way round
        companion_proof(token, 47611, new_nonce(), b),  # another challenge: no replay
        companion_proof("U" * 43, 47611, a, b),  # another token
    ]
    assert not any(proof_matches(proof, other) for other in others)


def test_proof_format_is_pinned():
    # The extension computes the same HMAC with WebCrypto (tests/security/test_pairing_vectors.py): pin the bytes.
    token, client, server = "t" * 43, "c" * 43, "s" * 43
    message = f"webchallenger-pairing-v1|companion|4711|{client}|{server}".encode()
    digest = hmac.new(token.encode(), message, hashlib.sha256).digest()
    assert companion_proof(token, 4711, client, server) == base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


def test_proof_comparison():
    assert proof_matches("a" * 43, "a" * 43)
    assert not proof_matches("a" * 43, "a" * 42 + "b")
    assert not proof_matches("", "a" * 43)


@pytest.mark.parametrize("origin, protocols, reason", [
    (None, [SUBPROTOCOL], "no Origin"),
    ("http://127.0.0.1:8000", [SUBPROTOCOL], "not allowed"),
    ("chrome-extension://aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", [SUBPROTOCOL], "not allowed"),
    (EXTENSION_ORIGIN, ["webchallenger.v1"], "subprotocol"),
    (EXTENSION_ORIGIN, ["webchallenger.v1", "auth." + "T" * 40], "older extension"),
])
def test_handshake_refusals_say_why_without_anything_offered(origin, protocols, reason):
    refusal = handshake_refusal(origin, protocols, (EXTENSION_ORIGIN,))
    assert refusal is not None and reason in refusal
    assert "T" * 10 not in refusal


def test_handshake_accepts_the_extension_origin_and_subprotocol():
    assert handshake_refusal(EXTENSION_ORIGIN, [SUBPROTOCOL], (EXTENSION_ORIGIN,)) is None
