// Runs one ActionCommand: browser-level actions through chrome.tabs, element actions through the
// content script in the target frame. Every outcome, success or failure, becomes an ActionResult.
import { callInFrame, injectFrame } from "./inject.js";
import { NavigationWatcher } from "./navigation.js";

const TAB_ACTIONS = {
  navigate: (tabId, a) => chrome.tabs.update(tabId, { url: a.url }),
  back: (tabId) => chrome.tabs.goBack(tabId),
  forward: (tabId) => chrome.tabs.goForward(tabId),
  reload: (tabId) => chrome.tabs.reload(tabId),
};
// A browser-level navigation may take a while to show its first event (a slow server).
const TAB_ACTION_START_MS = 5_000;

async function elementAction(tabId, action) {
  const frame = action.target ? action.target.frame : 0;
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

export async function runAction(tabId, action) {
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
        outcome = await elementAction(tabId, action);
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
  return result;
}
