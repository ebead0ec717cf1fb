"""Pairing: the token both sides hold, and the checks that prove it without ever sending it.

The token is the only secret between the extension and the companion. It is created on first start,
kept in the config directory with mode 0600, and entered once by the user in the extension's options
page. It never travels: after the WebSocket opens, each side proves it holds the token with an HMAC
over fresh nonces (the proofs are defined in companion/protocol.py, next to their messages):

    extension -> AuthChallenge(client_nonce)
    companion -> AuthResponse(server_nonce, HMAC(token, "companion"|port|client_nonce|server_nonce))
    extension    checks it before handling anything, else drops the socket ("not your companion")
    extension -> AuthProof(HMAC(token, "extension"|port|server_nonce|client_nonce)), then Hello
    companion    checks it (constant time) before accepting anything else

Distinct roles mean a proof cannot be reflected back; fresh nonces on both sides mean it cannot be
replayed; the port means a fake companion on the paired port cannot relay a real companion's proof
from another port. A web page cannot even open the socket: its Origin is not the extension's.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import logging
import os
import re
import secrets
import stat
from pathlib import Path

from companion.paths import config_dir
from companion.protocol import PAIRING_LABEL

log = logging.getLogger(__name__)

EXTENSION_ID = "occglhfemfkbfbahabikmhbefcgffaff"
EXTENSION_ORIGIN = f"chrome-extension://{EXTENSION_ID}"
DEFAULT_ALLOWED_ORIGINS: tuple[str, ...] = (EXTENSION_ORIGIN,)

# v2: the challenge-response pairing. v1 extensions offered the token itself as an "auth." subprotocol.
SUBPROTOCOL = "webchallenger.v2"
_V1_TOKEN_PREFIX = "auth."
# Each step of the pairing check must arrive within this many seconds, or the peer is dropped.
PAIRING_TIMEOUT = 5.0
TOKEN_FILE_NAME = "token"
# 32 random bytes -> 43 url-safe characters; shorter stored tokens are treated as corrupt.
_TOKEN_RE = re.compile(r"^[A-Za-z0-9_-]{32,}$")
# The Host header is one URL authority without userinfo: a host (a name or IPv4 address, or an IPv6 address in
# brackets) and an optional port, nothing else. Anything looser lets a header smuggle another host past a check
# that looks only at part of it ("127.0.0.1:1@evil.example", "127.0.0.1:47611, evil.example").
_AUTHORITY_RE = re.compile(r"(?P<host>\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+)(?::(?P<port>[0-9]{1,5}))?")
LOOPBACK_NAMES = frozenset({"127.0.0.1", "localhost", "[::1]"})


class TokenError(RuntimeError):
    """The token file exists but cannot be used (unreadable or not a token)."""


def token_path(directory: Path | None = None) -> Path:
    return (directory or config_dir()) / TOKEN_FILE_NAME


def new_token() -> str:
    return secrets.token_urlsafe(32)


def load_or_create_token(directory: Path | None = None) -> str:
    """Return the pairing token, creating it (mode 0600) on first start.

    A token file with looser permissions is tightened rather than trusted silently;
    a file that does not hold a token is an error, never overwritten, because the user
    may have pasted it into the extension already and would otherwise be locked out.
    """
    path = token_path(directory)
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return _read_token(path)
    token = new_token()
    with os.fdopen(fd, "w") as f:
        f.write(token + "\n")
    log.info("created a new pairing token at %s", path)
    return token


def _read_token(path: Path) -> str:
    mode = stat.S_IMODE(path.stat().st_mode)
    if mode & 0o077:
        log.warning("pairing token %s had mode %o; tightening to 600", path, mode)
        path.chmod(0o600)
    token = path.read_text().strip()
    if not _TOKEN_RE.match(token):
        raise TokenError(f"{path} does not hold a pairing token; delete it to create a new one (then pair the extension again)")
    return token


def new_nonce() -> str:
    """32 random bytes, base64url without padding (the wire's nonce format)."""
    return secrets.token_urlsafe(32)


def _proof(token: str, role: str, port: int, first: str, second: str) -> str:
    message = "|".join((PAIRING_LABEL, role, str(port), first, second)).encode("utf-8")
    digest = hmac.new(token.encode("utf-8"), message, hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode("ascii")


def companion_proof(token: str, port: int, client_nonce: str, server_nonce: str) -> str:
    """What the companion sends to show it holds the token (AuthResponse.proof)."""
    return _proof(token, "companion", port, client_nonce, server_nonce)


def extension_proof(token: str, port: int, client_nonce: str, server_nonce: str) -> str:
    """What the extension must send back (AuthProof.proof): the other role, the nonces the other way round."""
    return _proof(token, "extension", port, server_nonce, client_nonce)


def proof_matches(presented: str, expected: str) -> bool:
    """Constant-time comparison, so response timing says nothing about how much of a proof was right."""
    return hmac.compare_digest(presented.encode("utf-8"), expected.encode("utf-8"))


def handshake_refusal(origin: str | None, subprotocols: list[str],
                      allowed_origins: tuple[str, ...] | list[str]) -> str | None:
    """Why this WebSocket handshake must be refused before the socket opens, or None to accept it
    (the pairing check then runs over the open socket). The reason is for the log and never holds
    anything a client offered besides its Origin.
    """
    if not origin:
        return "no Origin header"
    if origin not in allowed_origins:
        return f"origin {origin!r} is not allowed"
    if SUBPROTOCOL not in subprotocols:
        if any(p.startswith(_V1_TOKEN_PREFIX) for p in subprotocols):
            return "an older extension offered its token in the handshake (update the extension, then pair again)"
        return f"subprotocol {SUBPROTOCOL!r} not offered"
    return None


def host_refusal(host_header: str | None) -> str | None:
    """Why this Host header must be refused (it is not one loopback host[:port]), or None. Checking the Host
    defeats DNS rebinding: a page on a name that resolves to 127.0.0.1 still sends its own name."""
    match = _AUTHORITY_RE.fullmatch(host_header or "")
    if match is None or (match["port"] is not None and int(match["port"]) > 65535):
        return "Host header is not one host[:port]"
    if match["host"].lower() not in LOOPBACK_NAMES:
        return "Host header is not loopback"
    return None
