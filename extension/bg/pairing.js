// The pairing check, the extension's side (the companion's is companion/bridge/auth.py; the messages and
// the proof format are defined in companion/protocol.py). The token never leaves the extension: the
// companion must prove it holds the same token with an HMAC over our fresh nonce before we handle any
// of its messages, and only then do we prove ourselves. WebCrypto's verify compares in constant time.

export const PAIRING_LABEL = "webchallenger-pairing-v1";
const B64_32 = /^[A-Za-z0-9_-]{43}$/; // 32 bytes, base64url, no padding

function base64url(bytes) {
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function fromBase64url(text) {
  const binary = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

export function newNonce() {
  return base64url(crypto.getRandomValues(new Uint8Array(32)));
}

function proofInput(role, port, first, second) {
  return new TextEncoder().encode([PAIRING_LABEL, role, String(port), first, second].join("|"));
}

async function hmacKey(token) {
  return crypto.subtle.importKey("raw", new TextEncoder().encode(token), { name: "HMAC", hash: "SHA-256" }, false, ["sign", "verify"]);
}

// One pairing attempt on one socket: our challenge, then the companion's answer checked, then our proof.
export class PairingCheck {
  constructor(token, port, id) {
    this.token = token;
    this.port = port;
    this.id = id;
    this.clientNonce = newNonce();
    this.key = hmacKey(token);
  }

  challenge() {
    return { type: "auth_challenge", id: this.id, client_nonce: this.clientNonce };
  }

  // Returns {proof: the AuthProof message} when the companion proved it holds the token, else {failure}.
  // `msg` is the parsed first message from the peer, whatever it is.
  async answer(msg) {
    if (!msg || typeof msg !== "object" || msg.type !== "auth_response") {
      const type = msg && typeof msg === "object" && typeof msg.type === "string" ? msg.type.slice(0, 40) : "a non-message";
      return { failure: `it sent ${JSON.stringify(type)} before proving it knows the token` };
    }
    if (msg.id !== this.id || typeof msg.server_nonce !== "string" || !B64_32.test(msg.server_nonce) ||
        typeof msg.proof !== "string" || !B64_32.test(msg.proof)) {
      return { failure: "its pairing answer is malformed" };
    }
    const key = await this.key;
    const expected = proofInput("companion", this.port, this.clientNonce, msg.server_nonce);
    if (!(await crypto.subtle.verify("HMAC", key, fromBase64url(msg.proof), expected))) {
      // Also what a wrong token entered here looks like: the extension cannot tell the two apart.
      return { failure: "it failed the pairing check; if it is your companion, the token entered here is not its token" };
    }
    const mine = await crypto.subtle.sign("HMAC", key, proofInput("extension", this.port, msg.server_nonce, this.clientNonce));
    return { proof: { type: "auth_proof", id: this.id, proof: base64url(new Uint8Array(mine)) } };
  }
}

