// Reads what a person would type into a date or time field ("05/20/2010", "May 20, 2010", "9:37 PM") as the
// value the field takes: <input type=date|time|datetime-local|month|week> accept only their ISO form
// (2010-05-20, 21:37, 2010-05-20T21:37, 2010-05, 2010-W20) and silently drop anything else.
// Done in the page, where the field's live type and the page's language are known, and where the browser's
// own value sanitization has the last word on whether the result is a valid value.
(() => {
  const wc = (globalThis.__webchallenger ??= {});
  if (wc.datetime) return;

  const TYPES = new Set(["date", "time", "datetime-local", "month", "week"]);
  const MONTHS = ["january", "february", "march", "april", "may", "june", "july", "august", "september",
    "october", "november", "december"];
  const WEEKDAYS = /\b(mon|tues?|wed(nes)?|thu(rs?)?|fri|sat(ur)?|sun)(day)?\b\.?/g;
  const EXAMPLES = {
    date: "2010-05-20, 05/20/2010 or May 20, 2010",
    time: "21:37 or 9:37 PM",
    "datetime-local": "2010-05-20 21:37 or 05/20/2010 9:37 PM",
    month: "2010-05, 05/2010 or May 2010",
    week: "2010-W20, week 20 2010 or a date in that week",
  };

  const pad = (n, w = 2) => String(n).padStart(w, "0");

  function monthOf(word) {
    if (word.length < 3) return 0;
    return MONTHS.findIndex((m) => m.startsWith(word)) + 1; // "may", "sept", "december"
  }

  function fullYear(y, digits) {
    if (digits > 2) return y;
    // Two digits: the nearest such year not more than 20 years ahead.
    const now = new Date().getFullYear();
    const inCentury = 2000 + y;
    return inCentury <= now + 20 ? inCentury : 1900 + y;
  }

  function realDate(y, m, d) {
    if (!(y >= 1 && y <= 275760 && m >= 1 && m <= 12 && d >= 1)) return null;
    const days = new Date(Date.UTC(2000, m, 0)).getUTCDate(); // month length in a leap year
    if (d > days) return null;
    if (m === 2 && d === 29 && !(y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0))) return null;
    return { y, m, d };
  }

  // 05/06/2010 is May 6 in US English and 5 June nearly everywhere else: the page's language decides,
  // then the browser's.
  function dayFirstLocale() {
    const lang = (document.documentElement.lang || navigator.language || "en-US").toLowerCase();
    return !/^en(-us|-ph)?$/.test(lang);
  }

  function cleanDate(text) {
    return text.toLowerCase()
      .replace(WEEKDAYS, " ")
      .replace(/(\d)(st|nd|rd|th)\b/g, "$1")
      .replace(/\bof\b|,/g, " ")
      .replace(/\s+/g, " ")
      .trim();
  }

  // {y, m, d} or null.
  function parseDate(text) {
    const s = cleanDate(text);
    let m = s.match(/^(\d{4})[-/. ](\d{1,2})[-/. ](\d{1,2})$/);
    if (m) return realDate(+m[1], +m[2], +m[3]);
    m = s.match(/^(\d{1,2})([-/. ])(\d{1,2})\2(\d{2}|\d{4})$/);
    if (m) {
      const a = +m[1];
      const b = +m[3];
      const y = fullYear(+m[4], m[4].length);
      // 20/05/2010 and 05/20/2010 are unambiguous; 05/06/2010 follows the page's language (dots: day first).
      const dayFirst = a > 12 ? true : b > 12 ? false : m[2] === "." || dayFirstLocale();
      return dayFirst ? realDate(y, b, a) : realDate(y, a, b);
    }
    // A month by name with a day and a year in any order: "may 20 2010", "20 may 2010", "2010 may 20".
    const words = s.replace(/[-/.]/g, " ").split(" ").filter(Boolean);
    if (words.length !== 3) return null;
    let month = 0;
    const numbers = [];
    for (const w of words) {
      if (/^\d+$/.test(w)) numbers.push(w);
      else if (!month && monthOf(w)) month = monthOf(w);
      else return null;
    }
    if (!month || numbers.length !== 2) return null;
    const [first, second] = numbers;
    if (first.length === 4) return realDate(+first, month, +second);
    return realDate(fullYear(+second, second.length), month, +first); // the day comes before the year
  }

  // {h, mi, s, ms} or null.
  function parseTime(text) {
    const s = text.toLowerCase()
      .replace(/(?<![a-z])([ap])\.?\s?m(?![a-z])\.?/g, "$1m")
      .replace(/\s+/g, " ")
      .trim();
    if (s === "noon" || s === "midday") return { h: 12, mi: 0, s: null, ms: null };
    if (s === "midnight") return { h: 0, mi: 0, s: null, ms: null };
    const m = s.match(/^(\d{1,2})(?:[:h](\d{2})(?::(\d{2})(?:[.,](\d{1,3}))?)?)?\s?(am|pm|a|p)?$/);
    if (!m || (m[2] === undefined && !m[5])) return null; // "9" alone is not read as a time
    let h = +m[1];
    const mi = m[2] === undefined ? 0 : +m[2];
    const sec = m[3] === undefined ? null : +m[3];
    if (mi > 59 || (sec !== null && sec > 59)) return null;
    if (m[5]) {
      if (h < 1 || h > 12) return null;
      const pm = m[5].startsWith("p");
      h = (h % 12) + (pm ? 12 : 0);
    } else if (h > 23) {
      return null;
    }
    return { h, mi, s: sec, ms: m[4] === undefined ? null : m[4].padEnd(3, "0") };
  }

  function timeValue(t) {
    let v = `${pad(t.h)}:${pad(t.mi)}`;
    if (t.s !== null) v += `:${pad(t.s)}`;
    if (t.s !== null && t.ms !== null) v += `.${t.ms}`;
    return v;
  }

  const dateValue = (d) => `${pad(d.y, 4)}-${pad(d.m)}-${pad(d.d)}`;

  // Date and time written together: the time is the part with a colon or am/pm, the rest is the date.
  function parseDateTime(text) {
    const iso = text.trim().match(/^(\d{4}-\d{1,2}-\d{1,2})[T ](.+)$/i);
    if (iso) {
      const d = parseDate(iso[1]);
      const t = parseTime(iso[2]);
      return d && t ? `${dateValue(d)}T${timeValue(t)}` : null;
    }
    const found = text.match(/\b\d{1,2}(:\d{2}){1,2}([.,]\d{1,3})?(\s?[ap]\.?\s?m\b\.?)?|\b\d{1,2}\s?[ap]\.?\s?m\b\.?/i);
    if (!found) return null;
    const t = parseTime(found[0]);
    const rest = (text.slice(0, found.index) + " " + text.slice(found.index + found[0].length))
      .replace(/\bat\b|\bon\b/gi, " ")
      .replace(/^[\s,T-]+|[\s,T-]+$/g, "");
    const d = parseDate(rest);
    return d && t ? `${dateValue(d)}T${timeValue(t)}` : null;
  }

  function parseMonth(text) {
    const s = cleanDate(text);
    let m = s.match(/^(\d{4})[-/. ](\d{1,2})$/);
    if (m && +m[2] >= 1 && +m[2] <= 12) return `${pad(+m[1], 4)}-${pad(+m[2])}`;
    m = s.match(/^(\d{1,2})[-/. ](\d{4}|\d{2})$/);
    if (m && +m[1] >= 1 && +m[1] <= 12) return `${pad(fullYear(+m[2], m[2].length), 4)}-${pad(+m[1])}`;
    const words = s.split(" ");
    if (words.length === 2) {
      const [a, b] = words;
      if (monthOf(a) && /^\d{2}$|^\d{4}$/.test(b)) return `${pad(fullYear(+b, b.length), 4)}-${pad(monthOf(a))}`;
      if (monthOf(b) && /^\d{4}$/.test(a)) return `${a}-${pad(monthOf(b))}`;
    }
    const d = parseDate(text);
    return d ? `${pad(d.y, 4)}-${pad(d.m)}` : null;
  }

  // ISO 8601 week of a date: the week belongs to the year of its Thursday.
  function isoWeek(d) {
    const utc = (y, m, day) => {
      const t = new Date(Date.UTC(2000, m, day));
      t.setUTCFullYear(y, m, day); // Date.UTC reads years below 100 as 19xx
      return t;
    };
    const thursdayOf = (t) => utc(t.getUTCFullYear(), t.getUTCMonth(), t.getUTCDate() - ((t.getUTCDay() + 6) % 7) + 3);
    const thursday = thursdayOf(utc(d.y, d.m - 1, d.d));
    const year = thursday.getUTCFullYear();
    const first = thursdayOf(utc(year, 0, 4)); // January 4 is always in week 1
    const week = 1 + Math.round((thursday - first) / (7 * 86400000));
    return `${pad(year, 4)}-W${pad(week)}`;
  }

  function parseWeek(text) {
    const s = text.toLowerCase().replace(/,/g, " ").replace(/\s+/g, " ").trim();
    let m = s.match(/^(\d{4})[- ]?w(?:eek)? ?(\d{1,2})$/);
    if (!m) {
      const r = s.match(/^w(?:eek)? ?(\d{1,2})(?: of)? (\d{4})$/);
      if (r) m = [r[0], r[2], r[1]];
    }
    if (m) return +m[2] >= 1 && +m[2] <= 53 ? `${m[1]}-W${pad(+m[2])}` : null;
    const d = parseDate(text);
    return d ? isoWeek(d) : null;
  }

  const PARSERS = {
    date: (t) => { const d = parseDate(t); return d && dateValue(d); },
    time: (t) => { const v = parseTime(t); return v && timeValue(v); },
    "datetime-local": parseDateTime,
    month: parseMonth,
    week: parseWeek,
  };

  // Is this a field that takes only an ISO date/time value?
  const isDateTimeField = (el) => el.localName === "input" && TYPES.has(el.type);

  // {value} for the field, or {error} saying what the field takes. "" clears the field.
  function toFieldValue(el, text) {
    const s = text.trim();
    if (s === "") return { value: "" };
    const value = PARSERS[el.type](s);
    if (value) return { value };
    return { error: `cannot read "${text}" as a ${el.type === "datetime-local" ? "date and time" : el.type}: this field takes one such as ${EXAMPLES[el.type]}` };
  }

  wc.datetime = { isDateTimeField, toFieldValue, EXAMPLES };
})();
