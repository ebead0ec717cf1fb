// Runs one ActionCommand: browser-level actions through chrome.tabs, element actions through the
// content script in the target frame. Every outcome, success or failure, becomes an ActionResult.
import { callInFrame, injectFrame } from "./inject.js";
import { noteAddressedFrame } from "./clipboard.js";
import { NavigationWatcher } from "./navigation.js";
import { webUrl } from "./urlguard.js";
import { outlineTarget } from "./outline.js";

// Runs in the page. The page's own history.go() steps exactly one entry; chrome.tabs.goBack acts
// like the browser's back button, which skips entries the page never interacted with (Chrome's
// history-manipulation intervention) and so can land two pages back.
function historyStep(delta) {
  const nav = window.navigation;
  // The Navigation API only sees same-origin entries: "false" may still mean a cross-origin entry.
  if (nav && !(delta < 0 ? nav.canGoBack : nav.canGoForward)) return false;
  history.go(delta);
  return true;
}

async function stepHistory(tabId, delta) {
  try {
    const [res] = await chrome.scripting.executeScript({ target: { tabId, frameIds: [0] }, injectImmediately: true, func: historyStep, args: [delta] });
    if (res && res.result === true) return;
  } catch (_) {
    // Pages we may not script (chrome://, the web store): the browser-level call below.
  }
  await (delta < 0 ? chrome.tabs.goBack(tabId) : chrome.tabs.goForward(tabId));
}

const TAB_ACTIONS = {
  navigate: (tabId, a) => chrome.tabs.update(tabId, { url: webUrl(a.url) }),
  back: (tabId) => stepHistory(tabId, -1),
  forward: (tabId) => stepHistory(tabId, 1),
  reload: (tabId) => chrome.tabs.reload(tabId),
};
// A browser-level navigation may take a while to show its first event (a slow server).
const TAB_ACTION_START_MS = 5_000;

async function elementAction(tabId, action, outlineMs) {
  const frame = action.target ? action.target.frame : 0;
  noteAddressedFrame(tabId, frame); // what a copy button copied is read from this frame only
  // A task the user watches: the target is outlined for a moment first (bg/outline.js).
  if (outlineMs > 0 && action.target) await outlineTarget(tabId, frame, action.target.id, outlineMs, action.kind);
  let res = await callInFrame(tabId, frame, "actions.act", [action]);
  if (res === null) {
    // Ids belong to a document; a document without our script has never handed this one out.
    if (action.target) return { ok: false, error: `element ${action.target.id} is no longer on the page` };
    await injectFrame(tabId, frame);
    res = await callInFrame(tabId, frame, "actions.act", [action]);
  }
  return res || { ok: false, error: "the page did not answer" };
}

async function tabUrl(tabId) {
  try {
    const tab = await chrome.tabs.get(tabId);
    return tab.url || tab.pendingUrl || "";
  } catch (_) {
    return "";
  }
}

// options.outlineMs: outline the target this long before acting (ActionCommand.outline_ms).
export async function runAction(tabId, action, options = {}) {
  const urlBefore = await tabUrl(tabId);
  const watcher = new NavigationWatcher(tabId);
  let outcome;
  try {
    if (TAB_ACTIONS[action.kind]) {
      try {
        await TAB_ACTIONS[action.kind](tabId, action);
        await watcher.settle(TAB_ACTION_START_MS);
        outcome = { ok: true };
        if (!watcher.started && action.kind !== "reload") {
          outcome = { ok: false, error: `${action.kind}: no navigation happened` };
        }
      } catch (e) {
        // e.g. goBack with no history: "Cannot find a next page in history."
        outcome = { ok: false, error: `${action.kind} failed: ${e.message}` };
      }
    } else {
      try {
        outcome = await elementAction(tabId, action, options.outlineMs || 0);
      } catch (e) {
        // The frame can vanish under us when the action itself navigated it away.
        outcome = watcher.started ? { ok: true } : { ok: false, error: `${action.kind} failed: ${e.message}` };
      }
      await watcher.settle();
    }
  } finally {
    watcher.dispose();
  }
  const urlAfter = await tabUrl(tabId);
  const result = { ok: outcome.ok, url_before: urlBefore, url_after: urlAfter, url_changed: urlBefore !== urlAfter };
  if (!outcome.ok) result.error = outcome.error;
  if (outcome.ok && outcome.note) result.note = outcome.note;
  return result;
}
