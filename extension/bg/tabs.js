// Tab listing, opening, and the unsolicited tab_event messages the companion follows pages with.
import { waitForTabLoaded } from "./navigation.js";
import { newId } from "./ids.js";
import { webUrl } from "./urlguard.js";

export function tabInfo(tab) {
  return { tab_id: tab.id, url: tab.url || tab.pendingUrl || "", title: tab.title || "", active: !!tab.active };
}

export async function listTabs() {
  const tabs = await chrome.tabs.query({});
  return tabs.filter((t) => t.id !== undefined && t.id >= 0).map(tabInfo);
}

export async function openTab(url, active) {
  const tab = await chrome.tabs.create({ url: webUrl(url, { allowBlank: true }), active });
  // The companion's next step is usually a snapshot: hand the tab back once it has loaded.
  const loaded = await waitForTabLoaded(tab.id);
  return tabInfo(loaded || tab);
}

// Shows the tab to the user: the active tab of its window, and that window in front. Focusing can fail
// where there is no window manager to ask (headless); the tab is active all the same.
export async function activateTab(tabId) {
  const tab = await chrome.tabs.update(tabId, { active: true });
  try {
    await chrome.windows.update(tab.windowId, { focused: true });
  } catch (e) {
    console.warn("could not focus window", tab.windowId, e);
  }
  return tabInfo(await chrome.tabs.get(tabId));
}

// The tab a request without tab_id means: the active tab of the last focused window.
export async function defaultTabId() {
  let [tab] = await chrome.tabs.query({ active: true, lastFocusedWindow: true });
  if (!tab) [tab] = await chrome.tabs.query({ active: true });
  return tab ? tab.id : null;
}

// Listeners must be registered synchronously at worker start-up so events wake the worker.
export function forwardTabEvents(send) {
  const emit = (tabId, event, url = "") => {
    // Prerendered and devtools pages report no real tab.
    if (tabId >= 0) send({ type: "tab_event", id: newId("tab"), tab_id: tabId, event, url });
  };
  chrome.tabs.onCreated.addListener((tab) => emit(tab.id, "created", tab.pendingUrl || tab.url || ""));
  chrome.tabs.onActivated.addListener(({ tabId }) => emit(tabId, "activated"));
  chrome.tabs.onRemoved.addListener((tabId) => emit(tabId, "closed"));
  chrome.webNavigation.onCommitted.addListener((d) => {
    if (d.frameId === 0) emit(d.tabId, "navigated", d.url);
  });
  chrome.webNavigation.onHistoryStateUpdated.addListener((d) => {
    if (d.frameId === 0) emit(d.tabId, "navigated", d.url);
  });
  chrome.webNavigation.onCompleted.addListener((d) => {
    if (d.frameId === 0) emit(d.tabId, "loaded", d.url);
  });
}
