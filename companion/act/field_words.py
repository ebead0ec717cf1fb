"""What a form field is for, by its words in many languages: its name, id, placeholder and labels say "card
number", "CVC", "PIN", "IBAN", "Passwort", "Betrag"... even where no autocomplete token says so; and whether a
field or a form's action reads like a site search ("q", "search", "Suche", "buscar", "検索").

Words are folded (accents dropped, lower case; camelCase and snake_case split) and matched two ways: short,
ambiguous words as whole tokens ("pin" but not "shipping", "pwd"), longer stems inside the text with every
separator removed ("Kreditkarten-Nr." holds "kreditkart", "card_number" holds "cardnumber").
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from companion.text import split_camel


_SEPARATORS = re.compile(r"[\W_]+")
_WORDS = re.compile(r"[^\W\d_]+|\d+")


def _fold(text: str) -> str:
    if text.isascii():  # most names: no accents to drop
        return text.lower()
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()


@dataclass(frozen=True)
class Folded:
    """A text as the word classes read it: its tokens, and all its letters and digits run together."""

    tokens: frozenset[str]
    compact: str

    @classmethod
    def of(cls, text: str) -> "Folded":
        folded = _fold(split_camel(text))  # cardNumber -> card number
        return cls(frozenset(_WORDS.findall(folded)), _SEPARATORS.sub("", folded))


@dataclass(frozen=True)
class WordClass:
    what: str  # for the question: "holds a payment card field"
    tokens: frozenset[str]
    stems: re.Pattern[str]  # any of the stems, matched in Folded.compact

    def matches(self, text: Folded) -> bool:
        return bool(self.tokens & text.tokens) or (bool(text.compact) and self.stems.search(text.compact) is not None)


def _cls(what: str, tokens: str, stems: str) -> WordClass:
    pattern = "|".join(re.escape(Folded.of(s).compact) for s in stems.split())
    return WordClass(what, frozenset(_fold(t) for t in tokens.split()), re.compile(pattern or "(?!)"))


# No bare "card", "account" or "code": a search box labelled "Card name" or "Search accounts" is still a search.
SENSITIVE_CLASSES = (
    _cls("a payment card field", "",
         "cardnumber cardnum cardno cardnr ccnumber ccnum creditcard debitcard cardholder kreditkart kartennummer "
         "kartennr kartenummer tarjeta numerodecarte numerocarte cartebancaire cartedecredit cartebleue numerocarta "
         "numerodellacarta cartadicredito cartao kaartnummer numerkarty kartakredytowa kartnumarasi kredikarti "
         "номеркарты кредитнаякарта банковскаякарта 卡号 信用卡 银行卡 カード番号 クレジットカード 카드번호"),
    _cls("a card security code field", "csc",
         "cvc cvv cvn securitycode cardcode cardverification sicherheitscode prufnummer pruefnummer prufziffer "
         "codigodeseguridad codigodeseguranca cryptogramme codicedisicurezza beveiligingscode kodbezpieczenstwa "
         "кодбезопасности 安全码 セキュリティコード 보안코드"),
    _cls("a PIN field", "pin nip пин",
         "pincode pinnummer pinnumber pinkode geheimzahl codigopin codepin codicepin пинкод 暗証番号"),
    _cls("a bank account field", "bic blz rib clabe",
         "iban swiftcode swiftbic bankleitzahl routingnumber sortcode accountnumber accountno acctnumber acctno "
         "acctnum kontonummer kontonr numerodecuenta numerocuenta cuentabancaria numerodecompte numerocompte "
         "comptebancaire numeroconto contocorrente contobancario rekeningnummer numerkonta номерсчета расчетныйсчет "
         "银行账户 银行账号 口座番号"),
    _cls("a password field", "pwd pw pass passwd",
         "password passwort kennwort contrasena motdepasse senha wachtwoord haslo sifre salasana пароль 密码 "
         "パスワード 비밀번호 passcode passphrase"),
    _cls("a one-time-code field", "otp totp mtan smstan",
         "2fa onetimecode onetimepassword verificationcode bestatigungscode bestaetigungscode authcode "
         "authenticationcode smscode codigodeverificacion codedeverification codicediverifica 验证码 認証コード"),
    _cls("an amount or money transfer field", "importe importo monto somme kwota quantia",
         "amount betrag summe montant bedrag сумма 金额 金額 금액 transfer uberweisung ueberweisung virement "
         "transferencia bonifico overboeking przelew перевод 转账 振込"),
)

_SEARCH_TOKENS = ("query search find lookup keyword keywords kw term terms begriff suchbegriff suche suchen recherche "
                  "rechercher buscar busca busqueda cerca ricerca zoek zoeken szukaj hledat haku sok søg ara arama поиск "
                  "найти искать")
_SEARCH_STEMS = "search suche recherch busqueda buscador ricerca zoek szukaj wyszuk поиск 検索 搜索 查找 검색"
# A field's name may be the one letter sites use for a query (q, s, k); an action path's single letters say nothing.
SEARCH_FIELD = _cls("a search field", "q s k " + _SEARCH_TOKENS, _SEARCH_STEMS)
SEARCH_ACTION = _cls("a search action", _SEARCH_TOKENS, _SEARCH_STEMS)


def sensitive_words(text: str) -> str | None:
    """What the field is by its words ("a PIN field"); None: nothing sensitive said."""
    if not text:
        return None
    folded = Folded.of(text)
    return next((c.what for c in SENSITIVE_CLASSES if c.matches(folded)), None)


def search_field_words(text: str) -> bool:
    return bool(text) and SEARCH_FIELD.matches(Folded.of(text))


def search_action_words(action: str) -> bool:
    return bool(action) and SEARCH_ACTION.matches(Folded.of(action))
