// Which fields hold a secret, and the masking of secret values wherever else a snapshot would carry them.
// A field is secret by what the page says it holds (type, autocomplete, name/id, label, accessible name, in
// several languages), by CSS masking, or by having been one before in this document (walk.everSecret). Its
// value never leaves the page, and neither does a copy of it the page put in another element's text or
// attributes (a title, an aria-valuetext, a mirror field): scrubber() masks those. A card number (Luhn) is
// masked in every string, whatever holds it.
(() => {
  const wc = (globalThis.__webchallenger ??= {});
  if (wc.secrets) return;
  const walk = wc.walk;

  const MASK = "[secret]"; // companion/typed_secrets.py MASK
  // A copy shorter than this is not looked for elsewhere (typed_secrets.MIN_LEN): masking every "12" on a page
  // would blind the agent. The field's own value is never sent, whatever its length.
  const MIN_MIRROR = 3;
  const SECRET_AUTOCOMPLETE = new Set(["one-time-code", "current-password", "new-password"]);
  // Inputs one types text into: only these are judged by their name or label (a "remember password"
  // checkbox holds no secret).
  const TYPED_INPUTS = new Set(["text", "password", "search", "tel", "number", "email", "url"]);
  const MAX_NAME = 300;

  // Folded like the text they are matched against: lower case, accents off ("contraseña" ~ "contrasena").
  const fold = (s) => (/[^\x00-\x7f]/.test(s) ? s.normalize("NFD").replace(/\p{M}/gu, "") : s).toLowerCase();
  const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  // Whole words (no letter on either side; "pin2" and "2fa" count, "spin" and "pincode" do not).
  const WORDS = [
    "pw", "pwd", "pass", "pin", "otp", "totp", "hotp", "mfa", "2fa", "tfa", "cvc", "cvv", "csc", "cvn", "ssn",
    "secret", "ccnum", "cc ?num(?:ber)?", "card ?(?:number|num|no|nr)", "credit ?card", "debit ?card",
    "one[ -]?time", "(?:verification|verify|security|auth|authentication|access|login|log ?in|sign ?in|sms|backup|recovery) ?code",
    "(?:security|secret|challenge) ?(?:answer|question)", "maiden ?name", "social ?(?:security|insurance)",
    "national ?insurance", "card ?verification",
  ];
  // Parts of words, in the languages a name or label is written in ("Passwortbestätigung", "newPassword").
  const PARTS = [
    "passw", "passcode", "passphrase", "kennwort", "contraseña", "mot de passe", "mot-de-passe", "motdepasse",
    "wachtwoord", "lösenord", "passord", "adgangskode", "salasana", "senha", "hasło", "haslo", "heslo", "jelszó",
    "şifre", "parola d'ordine", "пароль", "密码", "密碼", "パスワード", "暗証番号", "비밀번호",
    "geheimzahl", "geheimnummer", "sicherheitscode", "bestätigungscode", "verifizierungscode", "einmalcode",
    "einmalpasswort", "prüfnummer", "prüfziffer", "kartennummer", "sozialversicherungsnummer",
    "sicherheitsantwort", "sicherheitsfrage", "code secret", "code confidentiel", "code de vérification",
    "code de sécurité", "cryptogramme", "numéro de carte", "réponse secrète", "sécurité sociale",
    "código de verificación", "código de seguridad", "número de tarjeta", "respuesta secreta",
    "respuesta de seguridad", "clave secreta", "seguridad social", "código de segurança", "codice di sicurezza",
    "codice di verifica", "одноразовый", "код подтверждения",
  ];
  const SECRET_WORDS = new RegExp(
    `(?<![a-z])(?:${WORDS.join("|")})(?![a-z])|${PARTS.map((p) => escape(fold(p))).join("|")}`, "u");

  // "newPassword", "user_pass", "cc-number" read as words.
  const spaced = (s) => s.replace(/([a-z0-9])([A-Z])/g, "$1 $2").replace(/[_\-.:[\]]+/g, " ");
  const says = (s) => s !== "" && SECRET_WORDS.test(fold(s.slice(0, MAX_NAME)));

  // A label's own words: not the field it wraps, nor another control's options or text.
  function labelText(label, field) {
    let out = "";
    const visit = (node) => {
      for (let c = node.firstChild; c && out.length < MAX_NAME; c = c.nextSibling) {
        if (c.nodeType === 3) out += c.nodeValue;
        else if (c.nodeType === 1 && c !== field && !/^(input|select|textarea|button)$/.test(c.localName)) visit(c);
      }
    };
    visit(label);
    return out;
  }

  // What the page and assistive technology call the field: labels, aria-label(ledby), placeholder, title.
  function nameOf(el) {
    const parts = [];
    for (const a of ["aria-label", "placeholder", "aria-placeholder", "title"]) {
      const v = el.getAttribute(a);
      if (v) parts.push(v);
    }
    const by = el.getAttribute("aria-labelledby");
    if (by) {
      const root = el.getRootNode();
      for (const ref of by.split(/\s+/)) {
        const target = ref && root.getElementById ? root.getElementById(ref) : null;
        if (target) parts.push(labelText(target, el));
      }
    }
    if (el.labels) for (const label of el.labels) parts.push(labelText(label, el));
    return parts.join(" ");
  }

  const isTypedInput = (el) => el.localName === "input" && TYPED_INPUTS.has(el.type);
  const isEditingHost = (el) => el.isContentEditable && !(el.parentElement && el.parentElement.isContentEditable);

  function autocompleteSaysSecret(el) {
    const auto = el.getAttribute("autocomplete");
    if (!auto) return false;
    return auto.toLowerCase().split(/\s+/).some((t) => t.startsWith("cc-") || SECRET_AUTOCOMPLETE.has(t));
  }

  // Why a field is secret on its own (not counting its neighbours): what it says, or how it is drawn.
  function ownSecret(el, tag) {
    if (autocompleteSaysSecret(el)) return true;
    const judged = tag === "textarea" || tag === "select" || isTypedInput(el) || isEditingHost(el);
    if (judged && (says(spaced(`${el.getAttribute("name") || ""} ${el.id}`)) || says(nameOf(el)))) return true;
    if (tag !== "select") {
      const masked = getComputedStyle(el).webkitTextSecurity;
      if (masked && masked !== "none") return true;
    }
    return false;
  }

  // One box of a code split into one-character boxes ("8", "3", "4", ... each in its own input).
  const isCharBox = (el) => isTypedInput(el) && el.maxLength === 1;

  // The one-character boxes next to this one (same parent, or one or two wrappers up), with their container.
  function charBoxGroup(el) {
    let box = el.parentElement;
    for (let up = 0; box && up < 3; up++, box = box.parentElement) {
      const boxes = [...box.querySelectorAll("input")].filter(isCharBox);
      if (boxes.length >= 2) return { box, boxes };
    }
    return null;
  }

  // A box of a split code is secret when any box of its group is, or the group is named as a code.
  function splitCodeSecret(el) {
    const group = charBoxGroup(el);
    if (!group) return false;
    if (!says(nameOf(group.box)) && !group.boxes.some((b) => b !== el && (walk.everSecret(b) || ownSecret(b, "input")))) return false;
    for (const b of group.boxes) walk.rememberSecret(b);
    return true;
  }

  // Is this field (input, textarea, select, contenteditable region) a secret? Hidden inputs (CSRF tokens) are
  // too; everything else found secret stays so for the life of the document (a "show password" button, a
  // label the page changes later).
  function isSecretField(el, tag) {
    if (tag === "input") {
      if (el.type === "hidden") return true;
      if (el.type === "password") {
        walk.rememberSecret(el);
        return true;
      }
    }
    if (walk.everSecret(el)) return true;
    if (ownSecret(el, tag) || (isCharBox(el) && splitCodeSecret(el))) {
      walk.rememberSecret(el);
      return true;
    }
    return false;
  }

  // What of a secret field to mask wherever else the page repeats it: its value (for a box of a split code,
  // the whole code too), or an editable region's text. Not a hidden input's value (a CSRF token, a product
  // id: the same id in the page's text is page content) unless its name says it is a secret, and not which
  // option a secret <select> holds (its options' own texts are no secret, and masking them would tell).
  function copiesToMask(el, tag) {
    if (tag === "select") return [];
    if (tag !== "input" && tag !== "textarea") return [el.textContent];
    if (el.type === "hidden" && !autocompleteSaysSecret(el) && !says(spaced(`${el.name} ${el.id}`))) return [];
    const group = isCharBox(el) ? charBoxGroup(el) : null;
    return group ? [el.value, group.boxes.map((b) => b.value).join("")] : [el.value];
  }

  // ---------------------------------------------------------------- card numbers (Luhn), in any string
  // 13-19 digits, single spaces or dashes between them, led by a card network's first digit (2-6: Mastercard,
  // Amex/Diners/JCB, Visa, Maestro, Discover/UnionPay). 1 is left out: 13-digit millisecond timestamps.
  // A number standing alone: not glued to letters, a path ("/status/7...", "/web/2016..."), an id ("ca-pub-…",
  // "photo-…"), hex, or a decimal ("1.63…"), where real pages hold long ids that pass Luhn one time in ten.
  const DIGIT_RUN = /(?<![\w./-])\d(?:[ -]?\d){12,}(?!\w|[.-]\w)/g;
  const HAS_RUN = /\d(?:[ -]?\d){12}/;

  function luhn(digits) {
    let sum = 0;
    for (let i = digits.length - 1, double = false; i >= 0; i--, double = !double) {
      let d = digits.charCodeAt(i) - 48;
      if (double && (d *= 2) > 9) d -= 9;
      sum += d;
    }
    return sum % 10 === 0;
  }

  const isCardNumber = (digits) => digits.length >= 13 && digits.length <= 19 && digits[0] >= "2" && digits[0] <= "6" && luhn(digits);

  // In a run of digit groups ("Ref 12 4111 1111 1111 1111"), the card may start at any group.
  function maskRun(run) {
    const pieces = run.split(/([ -])/); // digits, separator, digits, ...
    const groups = [];
    for (let i = 0; i < pieces.length; i += 2) groups.push(pieces[i]);
    const masked = new Array(groups.length).fill(false);
    for (let i = 0; i < groups.length; i++) {
      let digits = "";
      for (let j = i; j < groups.length && digits.length + groups[j].length <= 19; j++) {
        digits += groups[j];
        if (isCardNumber(digits)) {
          for (let k = i; k <= j; k++) masked[k] = true;
          i = j;
          break;
        }
      }
    }
    if (!masked.includes(true)) return run;
    let out = "";
    for (let i = 0; i < groups.length; i++) {
      if (masked[i]) {
        if (!masked[i - 1]) out += MASK;
      } else {
        out += groups[i];
      }
      if (i < groups.length - 1 && !(masked[i] && masked[i + 1])) out += pieces[2 * i + 1];
    }
    return out;
  }

  function maskCards(s) {
    return HAS_RUN.test(s) ? s.replace(DIGIT_RUN, maskRun) : s;
  }

  // A function that masks, in any string, the given secret values (and their copies) and every card number.
  // cheap(json): whether a whole serialized snapshot needs it at all (most pages hold neither).
  function scrubber(values) {
    const copies = new Set();
    for (const v of values) {
      for (const form of [v, v.trim()]) if (form.length >= MIN_MIRROR) copies.add(form);
    }
    const longestFirst = [...copies].sort((a, b) => b.length - a.length);
    const scrub = (s) => {
      if (typeof s !== "string" || s === "") return s;
      for (const v of longestFirst) if (s.includes(v)) s = s.split(v).join(MASK);
      return maskCards(s);
    };
    scrub.needed = (json) => HAS_RUN.test(json) || longestFirst.some((v) => json.includes(JSON.stringify(v).slice(1, -1)));
    return scrub;
  }

  wc.secrets = { isSecretField, isEditingHost, copiesToMask, scrubber };
})();
