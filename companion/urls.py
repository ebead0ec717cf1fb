"""URLs, read the way the browser reads them, and stored without the secrets they may carry.

parse_url(): the WHATWG URL standard (the ada parser, which Chromium's own parsing follows), never urllib:
urllib reads `http://a\\@b/` as host b where Chromium opens a, and raises ValueError on `http://x:y/`.
Every decision about where a URL leads (act/sites.py, bridge/session.py) is made on its result.

scrub_url() / scrub_text(): what is written to disk (site memory, session and LLM recordings) keeps a URL's
shape but not the query values that look like secrets: a parameter whose name says so (token, key, session,
sid, password, code, auth, sig, ...) or a long random-looking value. The parameter stays, its value becomes
REDACTED, so a reader still sees that there was one.
"""

from __future__ import annotations

import logging
import math
import re
from collections import Counter
from dataclasses import dataclass
from urllib.parse import unquote_plus

import ada_url

log = logging.getLogger(__name__)

WEB_SCHEMES = ("http:", "https:")
REDACTED = "REDACTED"


@dataclass(frozen=True)
class WebURL:
    """A parsed URL, as the browser reads it."""

    href: str
    scheme: str  # "https:"
    hostname: str  # lower-case, punycode, IPv6 in brackets
    port: str  # "" for the scheme's default port
    host_type: str  # "domain" | "ipv4" | "ipv6"

    @property
    def host(self) -> str:
        return f"{self.hostname}:{self.port}" if self.port else self.hostname


def parse_url(url: str, base: str | None = None) -> WebURL | None:
    """`url` (resolved against `base` when relative) as the WHATWG URL standard reads it; None when it does
    not parse. Never raises."""
    try:
        parts = ada_url.parse_url(ada_url.join_url(base, url) if base else url)
    except (ValueError, TypeError):
        return None
    except Exception:  # a binding error must still be a refusal, never the end of a task
        log.exception("URL parser failed on %r", str(url)[:200])
        return None
    host_type = {ada_url.HostType.IPV4: "ipv4", ada_url.HostType.IPV6: "ipv6"}.get(parts["host_type"], "domain")
    return WebURL(href=parts["href"], scheme=parts["protocol"], hostname=parts["hostname"], port=parts["port"],
                  host_type=host_type)


# ------------------------------------------------------------------------------------------ secret scrubbing

# Found anywhere in a parameter's name (long enough not to hit an ordinary word).
_SECRET_PARTS = ("token", "session", "sessid", "password", "passwd", "passwort", "passcode", "passphrase", "secret",
                 "csrf", "xsrf", "apikey", "signature", "credential", "bearer", "contrasena", "contraseña",
                 "motdepasse", "kennwort", "wachtwoord", "salasana", "cardnumber", "creditcard")
# Whole words of a name, or of adjacent words run together ("api_key", "sig", "authCode", "user_pw", "cardNumber",
# "mot_de_passe", "cc_num"); as substrings they would hit "monkey", "zipcode", "compass" or "pinned". Secrets in
# several languages and their usual abbreviations: passwords, PINs, card data, bank and identity numbers, codes.
_SECRET_WORDS = {
    "key", "sid", "code", "sig", "jwt", "nonce", "auth", "ticket", "hmac", "saml", "samlresponse", "oauth", "assertion",
    "pw", "pwd", "pword", "pass", "passwd", "passwort", "pin", "pincode", "otp", "totp", "hotp", "mfa", "2fa",
    "senha", "heslo", "haslo", "hasło", "jelszo", "jelszó", "sifre", "şifre", "lozinka", "parol", "пароль", "geheimzahl",
    "cvc", "cvc2", "cvv", "cvv2", "csc", "cvn", "ccv", "card", "cardno", "cc", "ccnum", "ccno", "ccn", "iban", "ssn",
}
# A name's words: split at anything but letters and digits, between lower and upper case, and between letters
# and digits ("cardNumber2" -> card, number, 2).
_SEPARATOR = re.compile(r"[\W_]+")
_CASE_OR_DIGIT = re.compile(r"(?<=[^\W\d_])(?=\d)|(?<=\d)(?=[^\W\d_])|(?<=[a-zß-ÿ])(?=[A-ZÀ-Þ])")
_RANDOM_CHARS = re.compile(r"^[A-Za-z0-9+/=_\-.~%]+$")
_SLUG = re.compile(r"^[a-z]+(?:-[a-z0-9]+)+$")
MIN_RANDOM_LEN = 24
MIN_RANDOM_BITS = 3.5  # Shannon entropy per character


def name_words(name: str) -> list[str]:
    """A parameter name's words, lower-case; a percent- or form-encoded name is read decoded first."""
    decoded = unquote_plus(name)
    return [w.lower() for part in _SEPARATOR.split(decoded) for w in _CASE_OR_DIGIT.split(part) if w]


def secret_param(name: str) -> bool:
    """Whether a query parameter's name says its value is a secret: a telling part anywhere in it, or a word of
    it (or adjacent words run together) in the secret words."""
    words = name_words(name)
    joined = "".join(words)
    if any(part in joined for part in _SECRET_PARTS):
        return True
    runs = ("".join(words[i:j]) for i in range(len(words)) for j in range(i + 1, len(words) + 1))
    return any(run in _SECRET_WORDS for run in runs)


def looks_random(value: str) -> bool:
    """A long value with the spread of a token (hex, base64, a JWT), not of a word, slug or number."""
    if len(value) < MIN_RANDOM_LEN or not _RANDOM_CHARS.match(value) or _SLUG.match(value):
        return False
    if not (re.search(r"\d", value) and re.search(r"[A-Za-z]", value)):
        return False
    counts = Counter(value)
    bits = -sum(n / len(value) * math.log2(n / len(value)) for n in counts.values())
    return bits >= MIN_RANDOM_BITS


_PARAM = re.compile(r"(?P<sep>[?&;#])(?P<name>[^=&#;\s\"'<>?]+)=(?P<value>[^&#;\s\"'<>]*)")
_ABSOLUTE = re.compile(r"\b(?:https?|wss?|ftp)://[^\s\"'<>\\]+", re.I)


def _redact(match: re.Match, *, by_value: bool) -> str:
    name, value = match.group("name"), match.group("value")
    if value and value != REDACTED and (secret_param(name) or (by_value and looks_random(value))):
        return f"{match.group('sep')}{name}={REDACTED}"
    return match.group(0)


def scrub_url(url: str) -> str:
    """The URL with every secret-looking query (and fragment) value replaced by REDACTED; the rest as is."""
    if "=" not in url:
        return url
    return _PARAM.sub(lambda m: _redact(m, by_value=True), url)


def scrub_text(text: str) -> str:
    """scrub_url() on every absolute URL in `text` (a recorded message, a prompt), and secret-named parameters
    of relative ones ("/account?token=...")."""
    if "=" not in text:
        return text
    text = _ABSOLUTE.sub(lambda m: scrub_url(m.group(0)), text)
    return _PARAM.sub(lambda m: _redact(m, by_value=False) if m.group("sep") in "?&" else m.group(0), text)


def scrub_query_pairs(pairs: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """Decoded (name, value) query pairs with the secret-looking values replaced (memory's normalize_url)."""
    return [(k, REDACTED if v and (secret_param(k) or looks_random(v)) else v) for k, v in pairs]


__all__ = ["WebURL", "WEB_SCHEMES", "REDACTED", "parse_url", "scrub_url", "scrub_text", "scrub_query_pairs",
           "secret_param", "looks_random"]
