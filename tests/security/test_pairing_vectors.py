"""The extension's pairing check (extension/bg/pairing.js, WebCrypto) run in node against the companion's
(companion/bridge/auth.py): the same proofs byte for byte, and every answer that is not a valid proof is a
failure, not a pass. No browser: the browser tests (test_fake_companion.py) show the extension acting on it."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from companion.bridge.auth import companion_proof, extension_proof, new_nonce

ROOT = Path(__file__).resolve().parents[2]
NODE = shutil.which("node") or shutil.which("nodejs")

pytestmark = pytest.mark.skipif(NODE is None, reason="node is not installed")

# Runs one PairingCheck per case with a known client nonce and prints what answer() returned.
SCRIPT = """
import { PairingCheck } from %(module)s;
const cases = JSON.parse(await new Promise((resolve) => {
  let data = ""; process.stdin.on("data", (c) => (data += c)); process.stdin.on("end", () => resolve(data));
}));
const out = [];
for (const c of cases) {
  const check = new PairingCheck(c.token, c.port, "auth-1");
  check.clientNonce = c.client_nonce;
  out.push(await check.answer(c.message));
}
console.log(JSON.stringify(out));
"""

TOKEN, PORT = "k" * 43, 47611


def answers(*cases: dict) -> list[dict]:
    script = SCRIPT % {"module": json.dumps((ROOT / "extension" / "bg" / "pairing.js").as_uri())}
    out = subprocess.run([NODE, "--input-type=module", "-e", script], input=json.dumps(list(cases)),
                         capture_output=True, text=True, check=True, timeout=30)
    return json.loads(out.stdout)


def case(message: dict, token: str = TOKEN, port: int = PORT, client_nonce: str | None = None) -> dict:
    return {"token": token, "port": port, "client_nonce": client_nonce or CLIENT_NONCE, "message": message}


CLIENT_NONCE, SERVER_NONCE = new_nonce(), new_nonce()


def response(proof: str, **over) -> dict:
    return {"type": "auth_response", "id": "auth-1", "server_nonce": SERVER_NONCE, "proof": proof, **over}


def test_the_companions_proof_passes_and_the_extension_answers_with_the_companions_expected_proof():
    [outcome] = answers(case(response(companion_proof(TOKEN, PORT, CLIENT_NONCE, SERVER_NONCE))))
    assert outcome == {"proof": {"type": "auth_proof", "id": "auth-1",
                                 "proof": extension_proof(TOKEN, PORT, CLIENT_NONCE, SERVER_NONCE)}}


@pytest.mark.parametrize("proof", [
    companion_proof("x" * 43, PORT, CLIENT_NONCE, SERVER_NONCE),  # another token
    companion_proof(TOKEN, PORT + 1, CLIENT_NONCE, SERVER_NONCE),  # relayed from a companion on another port
    extension_proof(TOKEN, PORT, CLIENT_NONCE, SERVER_NONCE),  # the extension's own proof reflected
    companion_proof(TOKEN, PORT, new_nonce(), SERVER_NONCE),  # made for another challenge (a replay)
], ids=["other-token", "other-port", "reflected", "replayed"])
def test_a_proof_that_does_not_check_fails(proof):
    [outcome] = answers(case(response(proof)))
    assert outcome == {"failure": "it failed the pairing check; if it is your companion, the token entered here is not its token"}


@pytest.mark.parametrize("message, failure", [
    ({"type": "list_tabs", "id": "x"}, 'it sent "list_tabs" before proving it knows the token'),
    (None, 'it sent "a non-message" before proving it knows the token'),
    ({"type": "auth_response", "id": "other", "server_nonce": "n" * 43, "proof": "p" * 43}, "its pairing answer is malformed"),
    ({"type": "auth_response", "id": "auth-1", "server_nonce": "short", "proof": "p" * 43}, "its pairing answer is malformed"),
    ({"type": "auth_response", "id": "auth-1", "server_nonce": "n" * 43}, "its pairing answer is malformed"),
])
def test_anything_but_a_pairing_answer_fails(message, failure):
    assert answers(case(message)) == [{"failure": failure}]
