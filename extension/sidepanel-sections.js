// The side panel's "Show sections": the PageMem sections the agent divides the current tab into, outlined on the
// page with their kind and purpose (bg/outline.js asks the companion, content/outline.js draws). While it is on,
// a page that loads again in that tab, or another tab brought to the front, is outlined afresh: outlines belong to
// the document they were drawn on. chrome.storage.session "sections" ({tab_id, url, count}) says it is on.
import { targetTab } from "./sidepanel.js";

const $ = (id) => document.getElementById(id);
let shown = null; // the storage state: on which tab the outlines are
let busy = null; // the show request under way

function ask(request) {
  return chrome.runtime.sendMessage(request).then((reply) => {
    if (!reply || reply.error) throw new Error((reply && reply.error) || "no answer");
    return reply;
  });
}

function render() {
  const button = $("show-sections");
  button.setAttribute("aria-pressed", String(Boolean(shown)));
  button.textContent = shown ? "Hide sections" : "Show sections";
}

function say(text) {
  $("sections-status").textContent = text;
}

async function show(tab) {
  say("Dividing the page…");
  try {
    const state = await ask({ type: "sections_show", tab_id: tab.id });
    say(`${state.count} section${state.count === 1 ? "" : "s"} outlined on the page`);
  } catch (e) {
    say(`Could not show the sections: ${e.message}`);
  }
}

async function showOn(tab) {
  if (busy) await busy.catch(() => {});
  busy = show(tab);
  try {
    await busy;
  } finally {
    busy = null;
  }
}

async function toggle() {
  if (shown) {
    const tabId = shown.tab_id;
    shown = null;
    render();
    say("");
    await ask({ type: "sections_hide", tab_id: tabId }).catch((e) => say(e.message));
    return;
  }
  const tab = await targetTab();
  if (!tab) {
    say("Open a web page in a tab first.");
    return;
  }
  await showOn(tab);
}

$("show-sections").addEventListener("click", () => {
  toggle().catch((e) => say(e.message));
});

// The outlined document is gone (a load) or out of sight (another tab): outline what the user sees now.
chrome.tabs.onUpdated.addListener((tabId, change, tab) => {
  if (shown && shown.tab_id === tabId && change.status === "complete") showOn(tab);
});
chrome.tabs.onActivated.addListener(async () => {
  if (!shown) return;
  const tab = await targetTab();
  if (!tab || tab.id === shown.tab_id) return;
  await ask({ type: "sections_hide", tab_id: shown.tab_id }).catch(() => {});
  await showOn(tab);
});

chrome.storage.onChanged.addListener((changes, area) => {
  if (area !== "session") return;
  if (changes.sections) {
    shown = changes.sections.newValue || null;
    render();
  }
  if (changes.connection) $("show-sections").disabled = (changes.connection.newValue || {}).status !== "connected";
});

// Reopened while they are on: the page may have loaded again since (outlines go with their document), so they
// are drawn afresh on the page in front.
chrome.storage.session.get(["sections", "connection"]).then(async ({ sections, connection }) => {
  shown = sections || null;
  $("show-sections").disabled = (connection || {}).status !== "connected";
  render();
  if (!shown) return;
  const tab = await targetTab();
  if (tab) await showOn(tab);
});
