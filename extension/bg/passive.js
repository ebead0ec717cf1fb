// Passive learning: while the companion asks for it (passive_mode) and no task drives the tab, report the
// pages the user browses (page_visited, once a page settled) and their own clicks (user_clicked, with what
// followed: a navigation, or the same document once it settled again), for sites the user allowed.
//
// Never reported: incognito tabs; tabs a task runs in or the companion sent a request to within a minute;
// sites whose policy is not "allow" (the companion is asked, site_policy_get; "ask" waits for the user's
// answer in the side panel); anything the user entered: passive snapshots carry no field values, no
// checked or selected state and no text of editable regions (content/snapshot.js options.passive), and
// secrets are left out as in every snapshot. The companion checks all of this again.
import { send, isOpen } from "./connection.js";
import { newId } from "./ids.js";
import { snapshotTab } from "./snapshot.js";
import { callInFrame } from "./inject.js";

const PASSIVE_FILES = ["content/walk.js", "content/frames.js", "content/passive.js"];
const DRIVEN_QUIET_MS = 60_000; // companion/bridge/hub.py DRIVEN_QUIET
const MAX_SETTLE_MS = 10_000; // below inject.js's frame timeout
const CLICK_NAVIGATION_MS = 10_000; // a navigation this soon after a click is the click's
const POLICY_TTL_MS = 10_000; // a choice made with `webchallenger memory allow` is seen this soon
const REQUEST_TIMEOUT_MS = 10_000;

let mode = { enabled: false, settle_ms: 1500, min_interval_ms: 5000 };
const tabs = new Map(); // tab id -> per-tab state (state())
const driven = new Map(); // tab id -> when the companion last sent it a request
const policies = new Map(); // host -> { site, policy, passive, at }
const pending = new Map(); // request id -> { resolve, reject, timer, host }

function state(tabId) {
  let st = tabs.get(tabId);
  if (!st) {
    // generation: bumped by every navigation, so work begun for an older document is dropped.
    // before: the id of the message whose snapshot shows this document now (a click's "before").
    st = { generation: 0, lastSentAt: 0, before: null, timer: null, click: null, formSubmit: false, url: "" };
    tabs.set(tabId, st);
  }
  return st;
}

function reset() {
  for (const st of tabs.values()) clearTimeout(st.timer);
  tabs.clear();
  policies.clear();
}

// dispatch.js calls this for every companion request naming a tab: the companion drives it.
export function noteDriven(tabId) {
  driven.set(tabId, Date.now());
  const st = tabs.get(tabId);
  if (st) {
    clearTimeout(st.timer);
    st.before = null;
    st.click = null;
  }
}

// ------------------------------------------------------------------ asking the companion

function request(message, host) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      pending.delete(message.id);
      reject(new Error("the companion did not answer"));
    }, REQUEST_TIMEOUT_MS);
    pending.set(message.id, { resolve, reject, timer, host });
    if (!send(message)) {
      clearTimeout(timer);
      pending.delete(message.id);
      reject(new Error("not connected to the companion"));
    }
  });
}

function withoutQueryValues(url) {
  try {
    const u = new URL(url);
    const names = [...u.searchParams.keys()];
    u.search = names.length ? "?" + names.map((n) => `${encodeURIComponent(n)}=`).join("&") : "";
    u.hash = "";
    return u.href;
  } catch (_) {
    return url.split("?")[0];
  }
}

function hostOf(url) {
  try {
    const u = new URL(url);
    return u.protocol === "http:" || u.protocol === "https:" ? u.host : null;
  } catch (_) {
    return null;
  }
}

// tabId (the side panel's question): the answer also says whether learning in that tab waits for a task.
async function sitePolicy(url, fresh = false, tabId = null) {
  const host = hostOf(url);
  if (!host) return { site: "", policy: "block", passive: mode.enabled };
  const known = policies.get(host);
  if (!fresh && known && Date.now() - known.at < POLICY_TTL_MS) return known;
  const message = { type: "site_policy_get", id: newId("policy"), url };
  if (Number.isInteger(tabId) && tabId >= 0) message.tab_id = tabId;
  return request(message, host);
}

function remember(reply, host) {
  const entry = { site: reply.site, policy: reply.policy, passive: reply.passive, at: Date.now() };
  if (host) policies.set(host, entry);
  return { ...entry, paused: reply.paused || "", resumes_in_s: reply.resumes_in_s || 0 }; // of one tab: not cached
}

// The task the side panel started (bg/tasks.js keeps it in session storage): its tab, or every tab when
// it named none.
async function taskTab(tabId) {
  const { task } = await chrome.storage.session.get("task");
  return Boolean(task && task.running && (task.tab_id === null || task.tab_id === undefined || task.tab_id === tabId));
}

// The tab, when it may be reported now; null otherwise.
async function eligible(tabId) {
  if (!mode.enabled || !isOpen()) return null;
  const at = driven.get(tabId);
  if (at !== undefined && Date.now() - at < DRIVEN_QUIET_MS) return null;
  let tab;
  try {
    tab = await chrome.tabs.get(tabId);
  } catch (_) {
    return null;
  }
  if (tab.incognito || !hostOf(tab.url || "")) return null;
  if (await taskTab(tabId)) return null;
  try {
    if ((await sitePolicy(tab.url)).policy !== "allow") return null;
  } catch (_) {
    return null;
  }
  return tab;
}

// ------------------------------------------------------------------ pages

function schedulePage(tabId) {
  if (!mode.enabled) return;
  const st = state(tabId);
  clearTimeout(st.timer);
  const generation = st.generation;
  const wait = Math.max(0, st.lastSentAt + mode.min_interval_ms - Date.now());
  st.timer = setTimeout(() => {
    visit(tabId, generation).catch((e) => console.debug("passive page not reported", tabId, e && e.message));
  }, wait);
}

async function settle(tabId) {
  await chrome.scripting.executeScript({ target: { tabId, allFrames: true }, files: PASSIVE_FILES, injectImmediately: true });
  await callInFrame(tabId, 0, "passive.settled", [mode.settle_ms, MAX_SETTLE_MS]);
}

async function visit(tabId, generation) {
  const st = state(tabId);
  const current = async () => st.generation === generation && (await eligible(tabId)) !== null;
  if (!(await current())) return;
  await settle(tabId);
  if (!(await current())) return;
  const snap = await snapshotTab(tabId, { passive: true });
  if (!(await current())) return; // a task may have started meanwhile
  const id = newId("visit");
  let json = snap.json;
  if (st.formSubmit && st.url) {
    // The answer to a form the user submitted: its URL's query holds what they typed. Every string of the
    // snapshot that is exactly that URL (the page's, a frame's, a form's action) loses the values.
    json = json.split(JSON.stringify(st.url)).join(JSON.stringify(withoutQueryValues(st.url)));
  }
  const extra = st.formSubmit ? ',"form_submission":true' : "";
  if (send(`{"type":"page_visited","id":${JSON.stringify(id)},"tab_id":${tabId},"snapshot":${json}${extra}}`)) {
    st.before = id;
    st.lastSentAt = Date.now();
  }
}

// ------------------------------------------------------------------ clicks

function sendClick(tabId, click, before, outcome) {
  const id = newId("click");
  let msg = `{"type":"user_clicked","id":${JSON.stringify(id)},"tab_id":${tabId}` +
    `,"target":{"frame":${click.frame},"id":${click.path[0]}},"path":${JSON.stringify(click.path)}` +
    `,"before":${JSON.stringify(before)}`;
  if (outcome.navigated_to) msg += `,"navigated_to":${JSON.stringify(outcome.navigated_to)}`;
  if (outcome.after) msg += `,"after":${outcome.after}`;
  return send(msg + "}") ? id : null;
}

async function onClick(tabId, frameId, path) {
  const st = tabs.get(tabId);
  if (!st || !st.before) return;
  // Registered before anything is awaited: a link's navigation can commit while eligibility is still being
  // read (tabs, storage, the site's policy), and onNavigated must find the click and the page it was made on.
  const click = {
    frame: frameId, path, before: st.before, at: Date.now(), generation: st.generation, sentAs: null, navigated: false,
    eligible: eligible(tabId).catch(() => null),
  };
  st.click = click;
  if (!(await click.eligible)) return;
  try {
    await callInFrame(tabId, 0, "passive.settled", [mode.settle_ms, MAX_SETTLE_MS]);
  } catch (_) {
    return; // the document went away: the navigation reports the click (onNavigated)
  }
  if (st.click !== click || click.navigated || st.generation !== click.generation) return;
  const snap = await snapshotTab(tabId, { passive: true });
  if (st.click !== click || click.navigated || st.generation !== click.generation || !(await eligible(tabId))) return;
  click.sentAs = sendClick(tabId, click, click.before, { after: snap.json });
  if (click.sentAs) st.before = click.sentAs; // the next click is made on the page as it is now
}

// The tab's top frame went to another document (or another history entry of a single-page app).
function onNavigated(tabId, url, formSubmit) {
  if (!mode.enabled) return;
  const st = state(tabId); // also a tab seen for the first time: how its page was reached matters (formSubmit)
  const click = st.click;
  if (click && !click.navigated && Date.now() - click.at < CLICK_NAVIGATION_MS) {
    click.navigated = true;
    // Reported already as a click that changed nothing (the server was slow to answer): it led here after all.
    // A form's submission carries what the user typed in its query: the names are kept, never the values.
    const navigatedTo = formSubmit ? withoutQueryValues(url) : url;
    click.eligible.then((tab) => {
      if (tab) sendClick(tabId, click, click.sentAs || click.before, { navigated_to: navigatedTo });
    });
  }
  st.generation++;
  st.before = null;
  st.click = null;
  st.formSubmit = formSubmit;
  st.url = url;
}

// ------------------------------------------------------------------ wiring

// Registered synchronously at worker start-up (background.js), so navigations wake the worker.
export function watchBrowsing() {
  const top = (d) => d.frameId === 0 && d.tabId >= 0;
  chrome.webNavigation.onCommitted.addListener((d) => {
    if (top(d)) onNavigated(d.tabId, d.url, d.transitionType === "form_submit");
  });
  chrome.webNavigation.onCompleted.addListener((d) => {
    if (top(d)) schedulePage(d.tabId);
  });
  chrome.webNavigation.onHistoryStateUpdated.addListener((d) => {
    if (!top(d)) return;
    onNavigated(d.tabId, d.url, false);
    schedulePage(d.tabId);
  });
  chrome.tabs.onRemoved.addListener((tabId) => {
    const st = tabs.get(tabId);
    if (st) clearTimeout(st.timer);
    tabs.delete(tabId);
    driven.delete(tabId);
  });
}

// Companion -> extension messages (dispatch.js).
export const PASSIVE_HANDLERS = {
  async passive_mode(msg) {
    const was = mode.enabled;
    mode = { enabled: msg.enabled, settle_ms: msg.settle_ms ?? 1500, min_interval_ms: msg.min_interval_ms ?? 5000 };
    if (!mode.enabled) {
      reset();
    } else if (!was) {
      // The pages already open count as visited now (each is checked like any other: policy, task, incognito).
      for (const t of await chrome.tabs.query({})) if (t.id >= 0 && t.status === "complete") schedulePage(t.id);
    }
  },
  async site_policy(msg) {
    const waiting = pending.get(msg.id);
    if (!waiting) return;
    pending.delete(msg.id);
    clearTimeout(waiting.timer);
    waiting.resolve(remember(msg, waiting.host));
  },
};

// An error the companion answered one of our requests with (dispatch.js): true when it was ours.
export function failPassiveRequest(msg) {
  const waiting = msg && pending.get(msg.id);
  if (!waiting) return false;
  pending.delete(msg.id);
  clearTimeout(waiting.timer);
  waiting.reject(new Error(msg.message || msg.code));
  return true;
}

// Runtime messages: clicks from content/passive.js, and the side panel's learning switch. Returns a
// promise, or null when the request is not ours.
export function handlePassiveRequest(request, sender) {
  const type = request && request.type;
  if (type === "passive_click") {
    // Only from a content script in a tab; the reply does not wait for the click's outcome.
    if (!sender.tab || !Number.isInteger(sender.frameId) || !Array.isArray(request.path)) return null;
    const path = request.path.filter(Number.isInteger).slice(0, 32);
    if (path.length && mode.enabled) {
      onClick(sender.tab.id, sender.frameId, path).catch((e) => console.debug("passive click not reported", e && e.message));
    }
    return Promise.resolve({ ok: true });
  }
  if (type !== "site_policy_get" && type !== "site_policy_set") return null;
  // The switch belongs to the user: only the extension's own pages may read or turn it, never a page's script.
  if (!sender.url || !sender.url.startsWith(chrome.runtime.getURL(""))) return null;
  if (!isOpen()) return Promise.reject(new Error("not connected to the companion"));
  const host = hostOf(request.url || "");
  if (!host) return Promise.resolve({ site: "", policy: "block", passive: mode.enabled });
  if (type === "site_policy_get") return sitePolicy(request.url, true, request.tabId);
  if (!["allow", "block", "ask"].includes(request.policy)) return Promise.reject(new Error("policy must be allow, block or ask"));
  return requestSet(request.url, request.policy, host);
}

function requestSet(url, policy, host) {
  return request({ type: "site_policy_set", id: newId("policy"), url, policy }, host).then((reply) => {
    if (policy === "allow") {
      // Learn the page in front of the user now, not at their next navigation.
      chrome.tabs.query({}).then((all) => {
        for (const t of all) if (hostOf(t.url || "") === host && t.id >= 0) schedulePage(t.id);
      });
    }
    return reply;
  });
}
