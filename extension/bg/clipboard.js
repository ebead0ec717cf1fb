// read_clipboard: what the page last copied, from the content scripts' records (content/clipboard.js).
//
// What Chromium allows (checked in --headless=new): a page may write the clipboard only during a user
// gesture. The agent's clicks are dispatched by the content script and carry none, so a copy button the
// agent clicks is refused: navigator.clipboard.writeText rejects ("Write permission denied") and
// execCommand('copy') returns false without firing a 'copy' event. What the page MEANT to copy is still
// knowable, from its own world: a small wrapper in the page's MAIN world reports writeText's argument,
// and when execCommand('copy') is refused it runs the page's copy handlers once on a detached
// DataTransfer (the system clipboard is not touched) so the text they set can be read. A copy the
// browser did perform (a real user gesture) is recorded too, with reached_clipboard true.
//
// Only the frame the extension last acted in is read (the top frame until then, and again once the top
// document changes): any frame can record a "copy" of its own at any time, and a cross-origin ad frame
// must not be able to answer for the copy button the agent clicked in another frame.

export const WRITE_EVENT = "webchallenger-clipboard-write"; // content/clipboard.js listens for it
const READ_TIMEOUT_MS = 5_000;

// tab id -> the frame id an element action was last sent to (bg/actions.js).
const addressed = new Map();

export function noteAddressedFrame(tabId, frameId) {
  addressed.set(tabId, frameId);
}

// Listeners must be registered synchronously at worker start-up; this module is imported then.
chrome.webNavigation.onCommitted.addListener((d) => {
  if (d.frameId === 0) addressed.delete(d.tabId); // a new top document: its frames are new too
});
chrome.tabs.onRemoved.addListener((tabId) => addressed.delete(tabId));

// Runs in the page's MAIN world (serialized: only its arguments are in scope). Injected with the content
// scripts (inject.js), so it is in place before any click the agent chooses from a snapshot. Details
// cross to the isolated world as JSON strings (objects do not cross worlds).
export function wrapPageClipboard(eventName) {
  const key = Symbol.for("webchallenger.clipboard.wrapped");
  if (window[key]) return;
  window[key] = true;
  const report = (detail) => document.dispatchEvent(new CustomEvent(eventName, { detail: JSON.stringify(detail) }));

  if (typeof Clipboard !== "undefined" && Clipboard.prototype.writeText) {
    const writeText = Clipboard.prototype.writeText;
    Clipboard.prototype.writeText = function (text) {
      const value = String(text);
      report({ text: value, reached: null });
      const result = writeText.apply(this, arguments);
      Promise.resolve(result).then(() => report({ text: value, reached: true }), () => report({ text: value, reached: false }));
      return result;
    };
  }

  const execCommand = Document.prototype.execCommand;
  Document.prototype.execCommand = function (command) {
    const ok = execCommand.apply(this, arguments);
    if (!ok && String(command).toLowerCase() === "copy") {
      // Refused for want of a user gesture: no 'copy' event fired. Fire one, once, on a detached DataTransfer.
      const target = this.activeElement || this.body || this.documentElement;
      if (target) {
        target.dispatchEvent(new ClipboardEvent("copy", { clipboardData: new DataTransfer(), bubbles: true, cancelable: true, composed: true }));
      }
    }
    return ok;
  };
}

// Runs in each frame's ISOLATED world.
function lastCopyInFrame(since) {
  const wc = globalThis.__webchallenger;
  return wc && wc.clipboard ? wc.clipboard.lastCopy(since) : null;
}

export async function readClipboard(tabId, since) {
  const frameId = addressed.get(tabId) ?? 0;
  let timer;
  const results = await Promise.race([
    chrome.scripting.executeScript({
      target: { tabId, frameIds: [frameId] }, world: "ISOLATED", injectImmediately: true,
      func: lastCopyInFrame, args: [since ?? null],
    }).catch(() => []), // the frame is gone: nothing it copied can be read
    // A frame whose script hogs its thread must not hold the answer: nothing read is an answer too.
    new Promise((resolve) => { timer = setTimeout(() => resolve([]), READ_TIMEOUT_MS); }),
  ]).finally(() => clearTimeout(timer));
  // Chrome answers for the frame it was asked about only; the check keeps that true whatever it returns.
  const mine = (results || []).find((r) => r && r.frameId === frameId);
  const newest = mine && mine.result;
  return newest
    ? { text: newest.text, source: newest.source, copied_at: newest.at, ...(newest.reached === null ? {} : { reached_clipboard: newest.reached }) }
    : { source: "none" };
}
