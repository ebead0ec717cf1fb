// Watches one tab's top frame for a navigation started by an action, so the action's reply can say
// whether the URL changed and the next snapshot sees the new page rather than the old one.

// The latest top-frame load that failed in each tab ({url, error}: Chrome's net error, "net::ERR_NAME_NOT_RESOLVED"),
// until the tab starts another navigation: what a tab showing Chrome's error page could not load. Aborted loads
// (a navigation replaced by another) are not failures.
const loadErrors = new Map();
chrome.webNavigation.onBeforeNavigate.addListener((d) => {
  if (d.frameId === 0) loadErrors.delete(d.tabId);
});
chrome.webNavigation.onErrorOccurred.addListener((d) => {
  if (d.frameId === 0 && d.error !== "net::ERR_ABORTED") loadErrors.set(d.tabId, { url: d.url, error: d.error });
});
chrome.tabs.onRemoved.addListener((tabId) => loadErrors.delete(tabId));

export function loadError(tabId) {
  return loadErrors.get(tabId) || null;
}

// In words a person reads: what could not be loaded, and Chrome's reason when it told us.
export function describeLoadError(tabId) {
  const failed = loadError(tabId);
  if (!failed) return "the page could not be loaded (the tab shows the browser's error page)";
  return `the page could not be loaded: ${failed.url} (${failed.error})`;
}

const START_GRACE_MS = 250; // a click or submit starts its navigation within a task or two
const LOAD_TIMEOUT_MS = 15_000;

export class NavigationWatcher {
  constructor(tabId) {
    this.tabId = tabId;
    this.started = false;
    this.finished = false;
    this.wakers = [];
    const mine = (d) => d.tabId === tabId && d.frameId === 0;
    this.onStart = (d) => {
      if (!mine(d)) return;
      this.started = true;
      this.finished = false;
      this.wake();
    };
    // Same-document changes (pushState, #hash) start and finish at once.
    this.onInstant = (d) => {
      if (!mine(d)) return;
      this.started = true;
      this.finished = true;
      this.wake();
    };
    this.onEnd = (d) => {
      if (!mine(d)) return;
      this.finished = true;
      this.wake();
    };
    chrome.webNavigation.onBeforeNavigate.addListener(this.onStart);
    chrome.webNavigation.onHistoryStateUpdated.addListener(this.onInstant);
    chrome.webNavigation.onReferenceFragmentUpdated.addListener(this.onInstant);
    chrome.webNavigation.onCompleted.addListener(this.onEnd);
    chrome.webNavigation.onErrorOccurred.addListener(this.onEnd);
  }

  wake() {
    const wakers = this.wakers;
    this.wakers = [];
    for (const w of wakers) w();
  }

  until(predicate, ms) {
    if (predicate()) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(predicate()), ms);
      const check = () => {
        if (predicate()) {
          clearTimeout(timer);
          resolve(true);
        } else {
          this.wakers.push(check);
        }
      };
      this.wakers.push(check);
    });
  }

  // Waits a moment for a navigation to begin; if one did, waits for its load (bounded).
  async settle(startGraceMs = START_GRACE_MS) {
    await this.until(() => this.started, startGraceMs);
    if (this.started) await this.until(() => this.finished, LOAD_TIMEOUT_MS);
  }

  dispose() {
    chrome.webNavigation.onBeforeNavigate.removeListener(this.onStart);
    chrome.webNavigation.onHistoryStateUpdated.removeListener(this.onInstant);
    chrome.webNavigation.onReferenceFragmentUpdated.removeListener(this.onInstant);
    chrome.webNavigation.onCompleted.removeListener(this.onEnd);
    chrome.webNavigation.onErrorOccurred.removeListener(this.onEnd);
    this.wake();
  }
}

// Waits until a tab reports status "complete" (used after opening a tab).
export async function waitForTabLoaded(tabId, ms = LOAD_TIMEOUT_MS) {
  return new Promise((resolve) => {
    let done = false;
    const finish = (tab) => {
      if (done) return;
      done = true;
      chrome.tabs.onUpdated.removeListener(listener);
      clearTimeout(timer);
      resolve(tab);
    };
    const listener = (id, info, tab) => {
      if (id === tabId && info.status === "complete") finish(tab);
    };
    const timer = setTimeout(() => chrome.tabs.get(tabId).then(finish, () => finish(null)), ms);
    chrome.tabs.onUpdated.addListener(listener);
    chrome.tabs.get(tabId).then(
      (tab) => {
        if (tab.status === "complete" && !tab.pendingUrl) finish(tab);
      },
      () => finish(null),
    );
  });
}
