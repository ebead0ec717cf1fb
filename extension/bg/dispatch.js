// Routes one incoming wire message to its handler and sends exactly one reply for every request.
// Anything malformed or unknown gets an ErrorMessage (echoing the id when there is one), never silence.
import { protocolValidator } from "./schema.js";
import { send, markConnected } from "./connection.js";
import { snapshotTab, benchTab } from "./snapshot.js";
import { runAction } from "./actions.js";
import { listTabs, openTab, activateTab, defaultTabId } from "./tabs.js";
import { TabError, FrameTimeout } from "./inject.js";
import { TASK_HANDLERS } from "./tasks.js";
import { readClipboard } from "./clipboard.js";
import { UrlRefused } from "./urlguard.js";
import { PASSIVE_HANDLERS, noteDriven, failPassiveRequest } from "./passive.js";
import { REPLY_HANDLERS, failCompanionRequest } from "./requests.js";
import { drawSections } from "./outline.js";

function errorReply(id, code, message) {
  send({ type: "error", id: typeof id === "string" ? id : "", code, message });
}

async function resolveTab(tabId) {
  if (tabId !== undefined && tabId !== null) {
    try {
      await chrome.tabs.get(tabId);
    } catch (_) {
      throw new TabError(`no tab with id ${tabId}`);
    }
    noteDriven(tabId); // passive learning leaves a tab the companion drives alone (bg/passive.js)
    return tabId;
  }
  const id = await defaultTabId();
  if (id === null) throw new TabError("no active tab");
  noteDriven(id);
  return id;
}

const HANDLERS = {
  async hello_ack() {
    await markConnected();
  },
  // Both sides send their own heartbeat every 20 s; answering would only double the traffic.
  async heartbeat() {},
  async error(msg) {
    if (failPassiveRequest(msg)) return; // it answered one of passive learning's requests
    if (failCompanionRequest(msg)) return; // or one of the side panel's (bg/requests.js)
    console.warn("companion reported an error", msg.code, msg.message);
  },
  async snapshot(msg) {
    const tabId = await resolveTab(msg.tab_id);
    const snap = await snapshotTab(tabId);
    send(`{"type":"snapshot_result","id":${JSON.stringify(msg.id)},"tab_id":${tabId},"snapshot":${snap.json}}`);
  },
  async action(msg) {
    const tabId = await resolveTab(msg.tab_id);
    const result = await runAction(tabId, msg.action, { outlineMs: msg.outline_ms || 0 });
    send({ type: "action_result", id: msg.id, tab_id: tabId, ...result });
  },
  // Benchmarks only: the top frame's in-page serializer timed against the bare counting walk.
  async bench(msg) {
    const tabId = await resolveTab(msg.tab_id);
    const result = await benchTab(tabId, msg.runs ?? 5);
    send({ type: "bench_result", id: msg.id, tab_id: tabId, ...result });
  },
  // The PageMem sections outlined on the page (bg/outline.js).
  async draw_sections(msg) {
    const tabId = await resolveTab(msg.tab_id);
    send({ type: "draw_sections_result", id: msg.id, tab_id: tabId, drawn: await drawSections(tabId, msg) });
  },
  async list_tabs(msg) {
    send({ type: "tabs_result", id: msg.id, tabs: await listTabs() });
  },
  async open_tab(msg) {
    const tab = await openTab(msg.url, msg.active !== false);
    noteDriven(tab.tab_id);
    send({ type: "open_tab_result", id: msg.id, tab });
  },
  async activate_tab(msg) {
    const tabId = await resolveTab(msg.tab_id);
    send({ type: "activate_tab_result", id: msg.id, tab: await activateTab(tabId) });
  },
  async read_clipboard(msg) {
    const tabId = await resolveTab(msg.tab_id);
    send({ type: "clipboard_result", id: msg.id, tab_id: tabId, ...(await readClipboard(tabId, msg.since)) });
  },
  // Task UI: updates and confirmation requests for the side panel (bg/tasks.js).
  ...TASK_HANDLERS,
  // Passive learning: whether to report browsing, and the site policies it asked for (bg/passive.js).
  ...PASSIVE_HANDLERS,
  // Replies to the side panel's site card and status line (bg/requests.js).
  ...REPLY_HANDLERS,
  // The answer to the side panel's "Show sections" (bg/outline.js).
};

export async function dispatch(raw) {
  let msg;
  try {
    msg = JSON.parse(raw);
  } catch (e) {
    errorReply("", "malformed", `not JSON: ${e.message}`);
    return;
  }
  const id = msg && typeof msg === "object" ? msg.id : undefined;
  if (!msg || typeof msg !== "object" || Array.isArray(msg) || typeof msg.type !== "string") {
    errorReply(id, "malformed", "a message is a JSON object with a string `type`");
    return;
  }
  const validator = await protocolValidator();
  if (!validator.discriminatorValues().includes(msg.type)) {
    errorReply(id, "unknown_type", `unknown message type "${msg.type}"`);
    return;
  }
  const problem = validator.validate(msg);
  if (problem) {
    errorReply(id, "malformed", problem);
    return;
  }
  const handler = HANDLERS[msg.type];
  if (!handler) {
    errorReply(id, "unknown_type", `the extension does not handle "${msg.type}" messages`);
    return;
  }
  try {
    await handler(msg);
  } catch (e) {
    const code = e instanceof TabError ? "no_tab" : e instanceof FrameTimeout ? "timeout" : e instanceof UrlRefused ? "refused" : "internal";
    errorReply(id, code, e && e.message ? e.message : String(e));
  }
}
