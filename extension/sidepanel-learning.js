// The side panel's learning switch for the current tab's site: allow, ask (the default) or block passive
// learning (bg/passive.js). The choice is the companion's (memory/learning_consent.py, also set with
// `webchallenger memory allow|block|ask HOST`); this asks for it through the worker and sets it there.
import { targetTab } from "./sidepanel.js";

const $ = (id) => document.getElementById(id);
let shown = null; // { url, reply } of what the switch shows

function ask(request) {
  return chrome.runtime.sendMessage(request).then((reply) => {
    if (!reply || reply.error) throw new Error((reply && reply.error) || "no answer");
    return reply;
  });
}

function render(url, reply) {
  shown = reply && reply.site ? { url, reply } : null;
  $("learning").hidden = !shown;
  if (!shown) return;
  const { policy, passive } = reply;
  const site = new URL(url).host; // what the user reads in the address bar (the reply's site is a storage key)
  $("learn-question").hidden = policy !== "ask";
  $("learn-state").hidden = policy === "ask";
  $("learn-status").textContent = policy === "allow" ? `Learning ${site} while you browse.` : `Not learning ${site}.`;
  for (const button of document.querySelectorAll(".learn-choices button")) {
    button.setAttribute("aria-pressed", String(button.dataset.policy === policy));
  }
  $("learn-note").hidden = passive;
  $("learn-note").textContent = passive ? "" : "The companion does not learn while you browse (started with --no-passive-learning).";
}

async function refresh() {
  try {
    const tab = await targetTab();
    if (!tab || !/^https?:/.test(tab.url || "")) return render(null, null);
    render(tab.url, await ask({ type: "site_policy_get", url: tab.url }));
  } catch (_) {
    render(null, null); // not connected: nothing to switch
  }
}

async function choose(policy) {
  if (!shown) return;
  try {
    render(shown.url, await ask({ type: "site_policy_set", url: shown.url, policy }));
  } catch (e) {
    $("learn-note").hidden = false;
    $("learn-note").textContent = `Could not change it: ${e.message}`;
  }
}

$("learn-allow").addEventListener("click", () => choose("allow"));
$("learn-block").addEventListener("click", () => choose("block"));
for (const button of document.querySelectorAll(".learn-choices button")) {
  button.addEventListener("click", () => choose(button.dataset.policy));
}

chrome.tabs.onActivated.addListener(refresh);
chrome.tabs.onUpdated.addListener((tabId, change) => {
  if (change.url || change.status === "complete") refresh();
});
chrome.windows.onFocusChanged.addListener(refresh);
chrome.storage.onChanged.addListener((changes, area) => {
  if (area === "session" && changes.connection) refresh();
});
refresh();
