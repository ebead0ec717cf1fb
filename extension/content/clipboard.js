// Remembers the last text this frame copied (or tried to: see bg/clipboard.js for what Chromium refuses),
// so the companion can log what a copy button copied. Two ways a page copies: a 'copy' event
// (execCommand('copy'), Ctrl+C; the page may replace the data with clipboardData.setData) and
// navigator.clipboard.writeText, which fires no event: the MAIN-world wrapper (bg/clipboard.js) reports
// those through a DOM event. Password fields are never recorded, nor handed out.
(() => {
  const wc = (globalThis.__webchallenger ??= {});
  if (wc.clipboard) return;

  const WRITE_EVENT = "webchallenger-clipboard-write";
  const MAX_CHARS = 10_000;
  let last = null; // {text, source, at, reached}: reached = did the browser put it on the system clipboard

  function isPassword(el) {
    return el instanceof HTMLInputElement && el.type.toLowerCase() === "password";
  }

  function selectedText() {
    const el = document.activeElement;
    if (isPassword(el)) return null;
    if ((el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement) && typeof el.selectionStart === "number") {
      return el.value.slice(el.selectionStart, el.selectionEnd);
    }
    const selection = document.getSelection();
    return selection ? selection.toString() : "";
  }

  function remember(text, source, reached) {
    if (typeof text !== "string" || text === "") return;
    last = { text: text.slice(0, MAX_CHARS), source, at: Date.now(), reached };
  }

  // Bubble phase on window: runs after the page's own copy handlers, so data they set is in place.
  window.addEventListener("copy", (e) => {
    if (isPassword(e.target) || isPassword(document.activeElement)) return;
    const data = e.defaultPrevented && e.clipboardData ? e.clipboardData.getData("text/plain") : selectedText();
    // An untrusted event is the wrapper's stand-in for a copy the browser refused.
    remember(data, "copy_event", e.isTrusted);
  });

  document.addEventListener(WRITE_EVENT, (e) => {
    let detail;
    try {
      detail = JSON.parse(e.detail);
    } catch (_) {
      return;
    }
    if (!detail || typeof detail.text !== "string") return;
    if (detail.reached !== null && last && last.source === "write_text" && last.text === detail.text.slice(0, MAX_CHARS)) {
      last.reached = detail.reached === true; // the outcome of the write recorded when it was called
      return;
    }
    remember(detail.text, "write_text", detail.reached);
  });

  // A page can copy a password field's value by script: such text is never handed out.
  function isPasswordValue(text) {
    for (const input of document.querySelectorAll("input[type=password i]")) {
      if (input.value && input.value === text) return true;
    }
    return false;
  }

  // The last copy at or after `since` (ms since the epoch), or null.
  function lastCopy(since) {
    if (!last || (typeof since === "number" && last.at < since)) return null;
    if (isPasswordValue(last.text)) return null;
    return { ...last };
  }

  wc.clipboard = { lastCopy, WRITE_EVENT };
})();
