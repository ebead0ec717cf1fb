// Service worker entry point. Every listener is registered synchronously at start-up, as MV3
// requires for events to wake a stopped worker.
import { ensureConnected, reconnectNow, onMessage, send, BOOT_ID } from "./bg/connection.js";
import { dispatch } from "./bg/dispatch.js";
import { forwardTabEvents } from "./bg/tabs.js";
import { getStatus } from "./bg/settings.js";
import { handlePanelRequest, markInterrupted } from "./bg/tasks.js";
import { handleSiteRequest } from "./bg/sitecard.js";
import { handleSectionsRequest } from "./bg/outline.js";
import { handleLlmRequest } from "./bg/llmsettings.js";
import { watchBrowsing, handlePassiveRequest } from "./bg/passive.js";

const KEEPALIVE_ALARM = "webchallenger-keepalive";

onMessage((raw) => {
  dispatch(raw).catch((e) => console.error("dispatch failed", e));
});
forwardTabEvents(send);
watchBrowsing(); // passive learning, while the companion asks for it (bg/passive.js)

// The alarm revives a worker Chromium stopped and redials a socket the companion closed.
chrome.alarms.onAlarm.addListener((alarm) => {
  if (alarm.name === KEEPALIVE_ALARM) ensureConnected();
});
chrome.alarms.get(KEEPALIVE_ALARM).then((existing) => {
  if (!existing) chrome.alarms.create(KEEPALIVE_ALARM, { periodInMinutes: 0.5 });
});

// The options page asks for the status, and for a reconnect after saving new settings.
chrome.runtime.onMessage.addListener((request, sender, reply) => {
  if (sender.id !== chrome.runtime.id) return false;
  const work = {
    status: () => getStatus().then((s) => ({ ...s, boot_id: BOOT_ID })),
    reconnect: () => reconnectNow().then(getStatus),
  }[request && request.type];
  // The side panel's task and site requests and the options page's LLM choice (only the extension's own pages
  // may make them, never a content script a page talks to), then passive learning's (content script clicks,
  // the learning switch).
  const fromPanel = Boolean(sender.url && sender.url.startsWith(chrome.runtime.getURL("")));
  const panel = fromPanel ? handlePanelRequest(request) || handleSiteRequest(request) || handleSectionsRequest(request)
    || handleLlmRequest(request) : null;
  const pending = work ? work() : panel || handlePassiveRequest(request, sender);
  if (!pending) return false;
  pending.then(reply, (e) => reply({ error: e.message }));
  return true; // the reply comes asynchronously
});

// The toolbar button opens the task side panel (it stays open while the user clicks in the page).
if (chrome.sidePanel && chrome.sidePanel.setPanelBehavior) {
  chrome.sidePanel.setPanelBehavior({ openPanelOnActionClick: true }).catch((e) => console.warn("side panel", e));
}

chrome.runtime.onStartup.addListener(() => {
  ensureConnected();
  markInterrupted().catch((e) => console.warn("task history", e)); // the live log went with the last browser
});
chrome.runtime.onInstalled.addListener(ensureConnected);
ensureConnected();
