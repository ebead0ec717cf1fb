"""ShouldSkip (WebChallenger, appendix A.2): the one static filter applied before exploration clicks anything.

The paper's four categories, plus what an unattended crawler must never do to a user's account:
  (i)   off-site links: an href whose site (host and port, memory's site key) is not the explored site;
  (ii)  authentication: log-in, sign-up, log-out and password-reset controls, by text and by URL path;
  (iii) tel:, mailto:, sms:, javascript:print(...) and print controls; downloads;
  (iv)  anything that may change persistent state: a submit control (input type=submit/image/reset, a
        <button> inside a form without type=button), a link or button whose text or URL names a
        destructive or committing verb (delete, remove, save, send, buy, pay, submit, ... in several
        languages), and Django admin's own ("Save and add another", the "Delete" link, the "Log out" form).
Typing is never done, so text fields are skipped (a click into one reveals nothing without typing), and so
are file inputs (a native file chooser). Checkboxes and radios are clicked: a toggle is local to the page and
may reveal elements, and nothing is ever submitted. Native <select>s are not clicked either (their popup is
outside the DOM): ExploreElement records their options as what they reveal.

Links navigate with GET, which is safe by HTTP's rules, so only the clearly destructive verbs skip a link
(delete, remove, buy, pay, unsubscribe, log out, ...); a button or any other control is skipped on the wider
list that includes committing verbs (save, send, submit, post, apply, confirm, update, ...).

A pure function of the element, its page URL and whether it sits in a <form>: the same page always yields
the same skips, which keeps exploration deterministic.
"""

from __future__ import annotations

import re
from urllib.parse import unquote, urljoin, urlsplit

from companion.act.prefilter import PRINT
from companion.memory.store import site_key
from companion.pagemem.model import Element
from companion.pagemem.widgets import is_reset_button, is_submit_button, is_text_field

# Authentication, by accessible text. Whole words; several languages (de, fr, es, it, pt, nl).
AUTH_WORDS = re.compile(
    r"\b(log\s?-?in|log\s?-?on|log\s?-?out|log\s?-?off|sign\s?-?in|sign\s?-?on|sign\s?-?up|sign\s?-?out|sign\s?-?off|"
    r"register|create (?:an |your )?account|forgot(?:ten)? (?:your )?password|reset (?:your )?password|"
    r"anmelden|abmelden|einloggen|ausloggen|registrieren|passwort vergessen|"
    r"connexion|se connecter|d[ée]connexion|se d[ée]connecter|s'inscrire|inscription|mot de passe oubli[ée]|"
    r"iniciar sesi[óo]n|cerrar sesi[óo]n|registrarse|reg[íi]strate|"
    r"accedi|esci|registrati|"
    r"entrar|sair|cadastrar|cadastre-se|"
    r"inloggen|uitloggen|afmelden|registreren)\b", re.I)
# Authentication, by URL path segment (/accounts/login/, /logout, /signup, /password_reset/).
AUTH_PATH = re.compile(r"(^|/)(log[-_]?in|log[-_]?out|log[-_]?off|sign[-_]?in|sign[-_]?up|sign[-_]?out|register|"
                       r"password[-_]?reset|reset[-_]?password|auth/(?:login|logout)|sessions?/new)(/|$|\.)", re.I)
# Verbs that destroy or spend: they skip links and buttons alike. Whole words; several languages. ("Add" is
# left out: an "Add book" link opens an empty form, which is harmless; "add to cart" is not.)
_DESTROY = (
    r"delete|remove|erase|destroy|discard|purge|wipe|trash|unsubscribe|deactivate|revoke|"
    r"buy|purchase|pay|checkout|check out|order now|place (?:your |the )?order|donate|transfer|"
    r"add to (?:cart|basket|bag|wishlist|favou?rites)|"
    r"cancel (?:my |the |your )?(?:order|subscription|account|booking|reservation)|close (?:my |your )?account|"
    r"l[öo]schen|entfernen|kaufen|bezahlen|bestellen|"
    r"supprimer|effacer|acheter|payer|commander|"
    r"eliminar|borrar|comprar|pagar|"
    r"elimina|cancella|acquista|paga|"
    r"excluir|apagar|"
    r"verwijderen|kopen|betalen")
# Verbs that commit what a form holds: they skip buttons and other non-link controls.
_COMMIT = (
    r"save|submit|send|post|publish|unpublish|apply|confirm|approve|reject|update|upload|import|archive|ban|block|"
    r"drop|subscribe|disable|"
    r"speichern|senden|absenden|"
    r"enregistrer|envoyer|valider|"
    r"guardar|enviar|"
    r"salva|invia|"
    r"salvar|"
    r"opslaan|verzenden")
LINK_DESTRUCTIVE_WORDS = re.compile(rf"\b({_DESTROY})\b", re.I)
DESTRUCTIVE_WORDS = re.compile(rf"\b({_DESTROY}|{_COMMIT})\b", re.I)
# The same verbs as URL path segments of links (Django admin's /admin/shop/order/3/delete/).
DESTRUCTIVE_PATH = re.compile(r"(^|/)(delete|remove|destroy|erase|purge|unsubscribe|checkout|pay|purchase|buy|"
                              r"logout|cancel)(/|$|\.|[-_])", re.I)
# Query parameters that name an action on the server (?action=delete, ?do=remove).
DESTRUCTIVE_QUERY = re.compile(r"(^|&)(action|do|op|cmd)=(delete|remove|destroy|purge|drop|save|send|buy|pay)", re.I)

# Links that hand over to another program, and script links that print (javascript:void(0) menus stay).
CALL_SCHEMES = ("tel:", "mailto:", "sms:", "fax:", "callto:", "skype:")
PRINT_SCRIPTS = ("javascript:print", "javascript:window.print", "javascript:self.print")


def text_of(el: Element) -> str:
    """What a person reads on the control: accessible name, text, value of button inputs, title."""
    parts = [el.name, el.text, el.attrs.get("title", ""), el.attrs.get("aria-label", "")]
    if el.tag == "input" and el.input_type in ("submit", "button", "reset", "image"):
        parts.append(el.attrs.get("value", "") or el.value or "")
    return " ".join(p for p in parts if p)


def is_submit_control(el: Element, in_form: bool) -> bool:
    """A control that submits its form (HTML's rule: a <button> in a form without type=button or reset
    submits it, whatever else its type says) or resets it."""
    return is_submit_button(el, in_form=in_form) or is_reset_button(el)


def link_url(el: Element, page_url: str) -> str | None:
    """The absolute URL of a link (None for a non-link or an empty href)."""
    href = el.attrs.get("href")
    if href is None or el.tag not in ("a", "area"):
        return None
    href = href.strip()
    if not href:
        return None
    if el.url and not el.url_truncated:
        return el.url
    return urljoin(page_url, href)


def should_skip(el: Element, page_url: str, *, in_form: bool = False, site: str | None = None) -> str | None:
    """Why exploration must not click `el` (None: click it). `site` defaults to the page's site key."""
    site = site or site_key(page_url)
    if el.disabled:
        return "disabled"
    if el.tag == "input" and el.input_type == "file":
        return "file input"
    if is_text_field(el):
        return "text field (exploration never types)"
    text = text_of(el)
    href = el.attrs.get("href", "").strip().lower() if el.tag in ("a", "area") else ""
    if href.startswith(CALL_SCHEMES) or href.replace(" ", "").startswith(PRINT_SCRIPTS):
        return f"{href.split(':', 1)[0]}: link"
    if PRINT.match(el.name or el.text or ""):
        return "print"
    if "download" in el.attrs:
        return "download"
    url = link_url(el, page_url)
    parts = urlsplit(url) if url else None
    if parts is not None and parts.scheme in ("http", "https") and site_key(url) != site:
        return "off-site link"
    path = unquote(parts.path) if parts is not None else ""
    if AUTH_WORDS.search(text) or (path and AUTH_PATH.search(path)):
        return "log-in, sign-up or log-out"
    if is_submit_control(el, in_form):
        return "submit control"
    words = LINK_DESTRUCTIVE_WORDS if url is not None else DESTRUCTIVE_WORDS
    if words.search(text):
        return "may change what the site stores"
    if path and DESTRUCTIVE_PATH.search(path):
        return "link to a destructive URL"
    if parts is not None and parts.query and DESTRUCTIVE_QUERY.search(unquote(parts.query)):
        return "link to a destructive URL"
    return None


__all__ = ["AUTH_PATH", "AUTH_WORDS", "DESTRUCTIVE_WORDS", "LINK_DESTRUCTIVE_WORDS", "is_submit_control", "link_url", "should_skip"]
