"""Pairing: the token the extension must present, and the handshake checks.

The token is the only secret between the extension and the companion. It is created on
first start, kept in the config directory with mode 0600, and entered once by the user in
the extension's options page. A web page cannot connect because its Origin is not the
extension's; a local program without the token cannot either.
"""

from __future__ import annotations

import hmac
import logging
import os
import re
import secrets
import stat
from pathlib import Path

from companion.paths import config_dir

log = logging.getLogger(__name__)

EXTENSION_ID = "occglhfemfkbfbahabikmhbefcgffaff"
EXTENSION_ORIGIN = f"chrome-extension://{EXTENSION_ID}"
DEFAULT_ALLOWED_ORIGINS: tuple[str, ...] = (EXTENSION_ORIGIN,)

SUBPROTOCOL = "webchallenger.v1"
AUTH_PREFIX = "auth."
TOKEN_FILE_NAME = "token"
# 32 random bytes -> 43 url-safe characters; shorter stored tokens are treated as corrupt.
_TOKEN_RE = re.compile(r"^[A-Za-z0-9_-]{32,}$")


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


def token_matches(presented: str, expected: str) -> bool:
    """Constant-time comparison, so response timing does not leak the token prefix."""
    return hmac.compare_digest(presented.encode("utf-8"), expected.encode("utf-8"))


def presented_token(subprotocols: list[str]) -> str | None:
    for proto in subprotocols:
        if proto.startswith(AUTH_PREFIX):
            return proto[len(AUTH_PREFIX):]
    return None


def handshake_refusal(origin: str | None, subprotocols: list[str], expected_token: str,
                      allowed_origins: tuple[str, ...] | list[str]) -> str | None:
    """Why this handshake must be refused, or None when it may be accepted.

    The reason is for the log; it never contains the presented or expected token.
    """
    if not origin:
        return "no Origin header"
    if origin not in allowed_origins:
        return f"origin {origin!r} is not allowed"
    if SUBPROTOCOL not in subprotocols:
        return f"subprotocol {SUBPROTOCOL!r} not offered"
    token = presented_token(subprotocols)
    if token is None:
        return "no auth token offered"
    if not token_matches(token, expected_token):
        return "wrong auth token"
    return None
